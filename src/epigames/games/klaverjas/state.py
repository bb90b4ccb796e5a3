"""The Klaverjas state: dealing, trump, the play of the cards and the scores (`rules.py`).

Its own module, apart from `KlaverjasGame`, so that mypyc compiles it with the hot modules
(`epigames.native.COMPILED`): a compiled module's dataclass would turn the game's
`ClassVar` declarations into fields, which `register_game` refuses. `KlaverjasState`
inherits the framework's plain classes, so it is compiled as a plain Python class
(`mypyc_attr(native_class=False)`), its methods in C.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Final, cast

from mypy_extensions import mypyc_attr

from epigames.cards import KLAVERJAS, Card, Suit
from epigames.cards.deck import CARDS
from epigames.errors import IllegalActionError
from epigames.games.core import (
    CHANCE,
    TERMINAL,
    State,
    UniformOutcomes,
    illegal_action,
    replayed,
    seat_error,
)
from epigames.games.dealing import redeal
from epigames.games.events import Event
from epigames.games.klaverjas import events
from epigames.games.klaverjas.actions import BIDS, Bid
from epigames.games.klaverjas.play import (
    NOTHING,
    PLAYERS,
    SEAT_NAMES,
    Inference,
    cards_of,
    deck_mask,
    inference,
    refusal,
    roem,
    score_deal,
    team_of,
    trick_points,
)
from epigames.games.klaverjas.records import CARD_ORDER, Records, legal_choices
from epigames.games.klaverjas.views import KlaverjasView
from epigames.games.picture import HasPictures, KripkePicture
from epigames.games.recorded import RecordedViews

if TYPE_CHECKING:
    from epigames.games.klaverjas.rules import KlaverjasGame

__all__ = ["KlaverjasState"]

#: Per seat, per `Card.index`, the event of a play that tells nothing.
_PLAIN_PLAYS: Final[tuple[list[events.CardPlayed | None], ...]] = tuple(
    [None] * len(CARDS) for _ in range(PLAYERS)
)
#: What `trump=random` draws from, equally likely: a call of each suit.
_TRUMP_DRAW: Final = tuple(BIDS[s] for s in Suit)
# `UniformOutcomes(cards)` through its slot: its Python `__init__` costs more than the
# rest of a card's deal.
_new_outcomes: Final = object.__new__
_set_outcomes: Final = UniformOutcomes.__dict__["outcomes"].__set__


# id(inference) → the inference and, per trump, the cards it covers and its words.
_CLAIMS: Final[dict[int, tuple[Inference, dict[Suit, tuple[int, str]]]]] = {}


def _claims(told: Inference, trump: Suit) -> tuple[int, str]:
    """The cards an inference covers (a `Card.index` mask) and its words, per trump.

    A few dozen values in all (`play.inference` shares them), asked on every play that
    tells something: made once each, and found by identity (an inference's hash is its
    dataclass's, in Python).
    """
    got = _CLAIMS.get(id(told))
    if got is None or got[0] is not told:
        got = _CLAIMS[id(told)] = (told, {})  # kept here, so its id stays its own
    per_trump = got[1]
    claims = per_trump.get(trump)
    if claims is None:
        claims = per_trump[trump] = (told.covered_mask(trump), told.describe(trump))
    return claims


@mypyc_attr(native_class=False)
class KlaverjasState(RecordedViews[Records, KlaverjasView], State, HasPictures):
    """A Klaverjas position; the public part lives in the records (`Records.table`)."""

    def __init__(self, game: KlaverjasGame) -> None:
        self.game: KlaverjasGame = game
        self._names = game.seat_names
        self._deck = game.deck
        self._deck_mask = deck_mask(game.ranks)
        # The cards not dealt yet as the keys of a dict (in deck order, as a list would
        # keep them): finding and removing one is a hash lookup. Who holds what lives in
        # the records alone, from the events; while dealing, the history says it.
        self._undealt: dict[Card, None] = dict.fromkeys(self._deck)
        self._dealer = game.first_dealer
        self._deal_index = 0  # where the current deal's first card is in the history
        self._player = CHANCE
        self._start_log(PLAYERS)
        self._records = Records(game.ranks)

    # --- the State interface -------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to move, `CHANCE` while dealing or drawing trump, `TERMINAL` at the end."""
        return self._player

    def legal_actions(self) -> list[Card | Bid]:
        """Trump calls while trump is chosen, then the legal cards (empty elsewhere)."""
        p = self._player
        if p < 0:
            return []
        records = self._records
        return list(legal_choices(self.game, records.table, records.hands[p]))

    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        """While dealing, each undealt card equally likely; for random trump, each suit."""
        if self._player != CHANCE:
            return []
        undealt = self._undealt
        outcomes: UniformOutcomes = _new_outcomes(UniformOutcomes)
        _set_outcomes(outcomes, list(undealt) if undealt else _TRUMP_DRAW)
        return outcomes

    def observation(self, seat: object) -> KlaverjasView:
        """The seat's view, built from its observation records.

        Raises:
            SeatError: no such seat.
        """
        if type(seat) is not int or not 0 <= seat < PLAYERS:
            raise seat_error(self.game, seat)
        return KlaverjasView(self.game, seat, self._player, self, self._records)

    def apply(self, action: Hashable) -> None:
        """Deal a card or draw trump (chance), call trump or pass, or play a card.

        Raises:
            IllegalActionError: not legal here, with the reason for a card that breaks the
                rules of play; the state is unchanged.
        """
        p = self._player
        # The common cases first, a card played and a card dealt (`type(…) is` narrows
        # the action's type without a call).
        if type(action) is Card:
            if p >= 0:
                records = self._records
                table = records.table
                if table.trump is not None:
                    g = self.game
                    # The seat's record of its hand is its hand; its view asked the same.
                    if action in legal_choices(g, table, records.hands[p]):
                        self._history.append(action)
                        self._play(p, action)
                        return
                    assert table.trick is not None
                    hand = records.hands[p]
                    why = refusal(hand, table.trick, table.trump, g.rules, g.undertrump, action)
                    raise IllegalActionError(f"{illegal_action(self, action)} ({why})")
            elif p == CHANCE and action in self._undealt:
                self._history.append(action)
                self._deal(action)
                return
            raise illegal_action(self, action)
        kind = type(action)
        table = self._records.table
        if p == CHANCE:
            if not self._undealt and kind is Bid and action in BIDS.values():
                assert isinstance(action, Bid) and action.suit is not None
                self._history.append(action)
                self._choose(-1, action.suit)
                return
        elif p >= 0 and table.trump is None and kind is Bid:
            assert isinstance(action, Bid)
            if action in legal_choices(self.game, table, ()):
                self._history.append(action)
                if action.suit is None:
                    self._publish(events.Passed(p, names=self._names))
                    self._player = (p + 1) % PLAYERS
                else:
                    self._choose(p, action.suit)
                return
        raise illegal_action(self, action)

    def returns(self) -> tuple[float, ...]:
        """Each seat's team's match points so far."""
        a, b = self._records.table.totals
        return (a, b, a, b)

    def clone(self) -> KlaverjasState:
        """An independent copy; events, cards and actions are shared immutable values."""
        other = KlaverjasState.__new__(KlaverjasState)
        other.game, other._names, other._deck = self.game, self._names, self._deck
        other._deck_mask = self._deck_mask
        other._undealt = dict(self._undealt)
        other._dealer, other._deal_index = self._dealer, self._deal_index
        other._player = self._player
        self._clone_records(other)
        return other

    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The true hands of all seats, sorted: for referees and tests, never for strategies.

        While dealing, the cards dealt so far (the history says to whom); else what the
        records hold, which the events keep (`Records.hands`).
        """
        if self._undealt:
            return tuple(tuple(sorted(hand)) for hand in self._dealt_hands())
        return tuple(self._records.hands)

    def picture_subjects(self) -> list[str]:
        """This deal's cards not played yet (`J♥`), each with a Kripke picture."""
        from epigames.games.klaverjas.picture import picture_subjects

        return picture_subjects(self)

    def picture(self, subject: str, seat: int | None = None) -> KripkePicture:
        """A card's Kripke picture from `seat`'s view or a spectator's (see `picture.py`)."""
        from epigames.games.klaverjas.picture import card_picture

        return card_picture(self, subject, seat)

    def resample(self, seat: int, rng: random.Random) -> KlaverjasState:
        """The same match with another current deal that `seat` cannot tell from the true one.

        Earlier deals were played out in public, so they stay. The current deal is drawn
        from the seat's exact knowledge (uniform over the consistent deals): a card
        already played this deal was dealt to the seat that played it, any other card to
        the holder the sample gives it. Replaying the same calls and cards on that deal
        gives a consistent state in which the seat's observations are unchanged.
        """
        n = len(self._deck)
        start = self._deal_index
        history = self._history
        if self._undealt:
            # Mid-deal a seat has seen nothing of this deal yet: any order will do.
            dealt = list(history[start:])
            rng.shuffle(dealt)
            return replayed(self, [*history[:start], *dealt])
        world = self.observation(seat).knowledge.sample_world(rng)
        played_by: dict[Card, int] = {}
        for event in self._records.announcements[self._records.table.deal_start :]:
            if isinstance(event, events.CardPlayed):
                played_by[event.card] = event.seat
        # The knowledge's layout lists the cards in deck order (`knowledge.layout_for`).
        origins = [(c, played_by.get(c, world[index])) for index, c in enumerate(self._deck)]
        deal = redeal(origins, PLAYERS, self._dealer + 1, rng)
        return replayed(self, [*history[:start], *deal, *history[start + n :]], seat)

    # --- the rules -------------------------------------------------------------

    def _publish(self, event: Event) -> None:
        # `EventLog._deliver` and the records' `absorb` in one compiled call: a hand
        # publishes some fifty events.
        self._events.append(event)
        self._audience.append(-1 if event.public else event.audience())
        self._records.absorb(event)

    def _dealt_hands(self) -> list[tuple[Card, ...]]:
        """Per seat, the cards of this deal dealt to it so far, in the order dealt."""
        # Only cards are dealt: the history since the deal began holds nothing else.
        dealt = cast("list[Card]", self._history[self._deal_index :])
        first = self._dealer + 1  # the eldest hand gets the first card, then clockwise
        return [tuple(dealt[(s - first) % PLAYERS :: PLAYERS]) for s in range(PLAYERS)]

    def _deal(self, card: Card) -> None:
        undealt = self._undealt
        del undealt[card]
        if undealt:
            return
        names = self._names
        hands = self._dealt_hands()
        for s, hand in enumerate(hands):
            cards = tuple(sorted(hand, key=CARD_ORDER))
            self._publish(events.Dealt(s, cards, names=names))
        deal = self._records.table.deal + 1
        sizes = tuple([len(h) for h in hands])
        self._publish(events.DealDone(deal, self._dealer, sizes, names=names))
        eldest = self._records.table.eldest
        self._player = CHANCE if self.game.trump == "random" else eldest

    def _choose(self, chooser: int, suit: Suit) -> None:
        table = self._records.table
        playing = self.game.fixed_playing
        if playing is None:
            playing = team_of(table.eldest if chooser < 0 else chooser)
        self._publish(events.TrumpChosen(chooser, suit, playing, table.eldest, names=self._names))
        self._player = table.eldest

    def _play(self, seat: int, card: Card) -> None:
        game, records = self.game, self._records
        table = records.table
        trump, trick = table.trump, table.trick
        assert trump is not None and trick is not None
        plays = trick.plays
        # Most plays lead or follow a plain suit, and tell nothing (`inference` says so
        # first); the rest ask it.
        if not plays or card.suit is plays[0].card.suit is not trump:
            told = NOTHING
        else:
            told = inference(trick, trump, game.rules, game.undertrump, card)
        if told is NOTHING:
            # Such a play is the same event value every time (every game names its seats
            # alike): one per seat and card, made when first met.
            event = _PLAIN_PLAYS[seat][card.index]
            if event is None:
                event = events.card_played(seat, card, (), "", SEAT_NAMES)
                _PLAIN_PLAYS[seat][card.index] = event
            self._publish(event)
        else:
            unplayed = self._deck_mask & ~table.played_mask & ~(1 << card.index)
            covered, reason = _claims(told, trump)
            lacks = cards_of(covered & unplayed)
            self._publish(events.card_played(seat, card, lacks, reason, self._names))
        if len(plays) < PLAYERS - 1:  # the trick before this card
            self._player = (seat + 1) % PLAYERS
            return
        trick = records.table.trick
        assert trick is not None
        winner = trick.winner(trump, KLAVERJAS).seat
        last = not any(records.hands)  # the records took this card from the hand
        cards = trick.cards
        points = trick_points(cards, trump) + (10 if last else 0)
        bonus = roem(cards, trump, game.four_kind)
        seats = tuple([play.seat for play in trick.plays])
        self._publish(events.trick_won(winner, cards, seats, points, bonus, last, self._names))
        if last:
            self._score_deal()
        else:
            self._player = winner

    def _score_deal(self) -> None:
        table = self._records.table
        assert table.playing is not None and table.trump is not None
        score = score_deal(table.points, table.roem, table.tricks, table.playing)
        a, b = table.totals
        totals = (a + score.scores[0], b + score.scores[1])
        self._publish(
            events.DealScored(
                table.deal,
                table.trump,
                table.playing,
                score.points,
                score.roem,
                score.scores,
                score.nat,
                score.pit,
                totals,
                names=self._names,
            )
        )
        game = self.game
        if table.deal >= game.deals or (game.target and max(totals) >= game.target):
            self._publish(events.MatchOver(totals, names=self._names))
            self._player = TERMINAL
            return
        self._dealer = (self._dealer + 1) % PLAYERS
        self._undealt = dict.fromkeys(self._deck)
        self._deal_index = len(self._history)
        self._player = CHANCE
