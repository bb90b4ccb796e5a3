"""The 2017 report's card inference, as a knowledge mode a strategy can choose.

The 2017 student program kept, for every player, two hand-made tables: `knowledge`
(cards whose holder it is sure of) and `possibles` (for every other player, every card it
may still hold). After every card played it updated them in four steps:

1. the played card is no longer possible for anyone (it is known to be played);
2. a player who did not follow the led suit holds none of it; and when that player's
   team is not winning the trick after the card and the card is not a trump, it holds no
   trump above the winning trump (when a trump wins) or no trump at all;
3. a player who followed the led suit with a card that does not win the trick, but is
   higher than every other card of that suit still in play (as far as the observer can
   tell, its own cards included), holds no other card of the suit: "he would have played
   lower". This is a guess about how the player plays, not a rule of the game, and it is
   wrong against anyone who does not always throw the cheapest losing card;
4. a card that only one player can still hold is known to be that player's.

`Seed2017Inference.from_view` replays the current deal's log of a seat through these
steps; it reads nothing but the seat's own view. Steps 1, 2 and 4 are sound in every
setting (step 2 claims less than the rules allow under Rotterdam rules and with
`undertrump=force`); step 3 is not. The exact engine (`view.knowledge`) makes every
sound claim and only those.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from epigames.cards import KLAVERJAS, Card, Suit, Trick
from epigames.games.events import Event
from epigames.games.klaverjas.events import CardPlayed, DealDone, Dealt, TrumpChosen
from epigames.games.klaverjas.play import (
    CARD_VALUES,
    PLAYERS,
    card_points,
    klaverjas_deck,
    strength,
    team_of,
)


def value(card: Card, trump: Suit) -> int:
    """The 2017 program's value of a card: its points, ties between 0-point cards by rank.

    The order it gives within a suit is the rank order of that suit (trumps J 9 A 10 K Q
    8 7, others A 10 K Q J 9 8 7); across suits it compares points, as the program did.
    """
    got = CARD_VALUES[trump][card.index]
    if got is None:
        return 1000 * card_points((card,), trump) + strength(card, trump)  # raises TrickError
    return got


@dataclass
class Seed2017Inference:
    """One seat's 2017-style beliefs about the current deal.

    Attributes:
        seat: the observer.
        trump: the trump suit (None before it is chosen).
        known: card → the holder the observer is sure of (itself for its own cards, the
            player for a card that was played).
        played: the cards played this deal.
        possible: card → the other players that may still hold it (the `possibles`).
    """

    seat: int
    trump: Suit | None
    known: dict[Card, int] = field(default_factory=dict)
    played: set[Card] = field(default_factory=set)
    possible: dict[Card, set[int]] = field(default_factory=dict)

    # -- construction ------------------------------------------------------------------

    @classmethod
    def start(cls, seat: int, hand: Iterable[Card], deck: Sequence[Card]) -> Seed2017Inference:
        """Before any card is played: own cards known, every other card possible for all."""
        own = set(hand)
        others = {p for p in range(PLAYERS) if p != seat}
        inference = cls(seat, None)
        for card in deck:
            if card in own:
                inference.known[card] = seat
            else:
                inference.possible[card] = set(others)
        return inference

    @classmethod
    def from_events(
        cls, seat: int, log: Sequence[Event], deck: Sequence[Card]
    ) -> Seed2017Inference:
        """Replay the current (last) deal of a seat's log through the four steps."""
        start = 0
        for i in range(len(log) - 1, -1, -1):
            event = log[i]
            if isinstance(event, Dealt) and event.seat == seat:
                start = i
                break
        dealt = log[start]
        assert isinstance(dealt, Dealt)
        inference = cls.start(seat, dealt.cards, deck)
        trick: Trick | None = None
        leader = 0
        for event in log[start + 1 :]:
            if isinstance(event, DealDone):
                leader = (event.dealer + 1) % PLAYERS
            elif isinstance(event, TrumpChosen):
                inference.trump = event.trump
                trick = Trick.start(leader)
            elif isinstance(event, CardPlayed):
                assert trick is not None and inference.trump is not None
                trick = trick.play(event.seat, event.card)
                inference.observe(trick)
                if len(trick) == PLAYERS:
                    trick = Trick.start(trick.winner(inference.trump, KLAVERJAS).seat)
        return inference

    @classmethod
    def from_view(cls, view: object) -> Seed2017Inference:
        """The inference of the seat of a `KlaverjasView` (its log and its game's deck)."""
        from epigames.games.klaverjas.views import KlaverjasView

        assert isinstance(view, KlaverjasView)
        game = view.game
        ranks = getattr(game, "ranks", 8)
        return cls.from_events(view.seat, view.log, klaverjas_deck(ranks))

    # -- the four steps ----------------------------------------------------------------

    def observe(self, trick: Trick) -> None:
        """Update after the last card of `trick` was played (steps 1 to 4)."""
        trump = self.trump
        assert trump is not None
        last = trick.plays[-1]
        player, card = last.seat, last.card
        led = trick.plays[0].card.suit
        winning = trick.winner(trump, KLAVERJAS)
        # Step 1: the card is played.
        self.possible.pop(card, None)
        self.known[card] = player
        self.played.add(card)
        if card.suit is not led:
            # Step 2: void in the led suit, and (not winning, not trumping) no trump above.
            self._rule_out(player, (c for c in self.possible if c.suit is led))
            if team_of(player) != team_of(winning.seat) and card.suit is not trump:
                if winning.card.suit is trump:
                    top = strength(winning.card, trump)
                    self._rule_out(
                        player,
                        (c for c in self.possible if c.suit is trump and strength(c, trump) > top),
                    )
                else:
                    self._rule_out(player, (c for c in self.possible if c.suit is trump))
        elif winning.seat != player:
            # Step 3 (unsound): a losing card above every other card of the suit in play.
            left = [c for c in self.possible if c.suit is led]
            left += [c for c, h in self.known.items() if c.suit is led and c not in self.played]
            if all(value(card, trump) > value(c, trump) for c in left):
                self._rule_out(player, (c for c in self.possible if c.suit is led))
        # Step 4: a card only one player may hold is known to be that player's.
        for c, holders in list(self.possible.items()):
            if len(holders) == 1:
                self.known[c] = next(iter(holders))
                del self.possible[c]

    def _rule_out(self, player: int, cards: Iterable[Card]) -> None:
        for c in list(cards):
            self.possible[c].discard(player)

    # -- questions ---------------------------------------------------------------------

    def may_hold(self, player: int, card: Card) -> bool:
        """Whether the observer thinks `player` may hold the unplayed `card`."""
        if card in self.played:
            return False
        if self.known.get(card) == player:
            return True
        return player in self.possible.get(card, ())

    def knows_holds(self, player: int, card: Card) -> bool:
        """Whether the observer is sure `player` holds the unplayed `card`."""
        return card not in self.played and self.known.get(card) == player

    def ruled_out(self, player: int, cards: Iterable[Card]) -> list[Card]:
        """The cards of `cards` (unplayed) the observer says `player` cannot hold."""
        return [c for c in cards if c not in self.played and not self.may_hold(player, c)]
