"""The Kwartet rules: game parameters and states (seat views are in `views.py`).

A deck of `kinds` quartets (4 cards each) is dealt card by card, clockwise from South,
as chance nodes. On its turn a player asks an opponent who still has cards for a card of
a kind the player holds (not one it holds itself when `ask_own` is false). If the opponent
has it, the card moves and the player asks again; if not, the turn passes clockwise to the
next player with cards. A completed kind is laid down at once for a point; a player
without cards stops playing (and passes the turn if it was asking). The game ends when
every kind is down; a seat's return is its number of points.

Some strategy mixes never finish (two players who only ask each other for cards they
hold themselves), so a game also ends after `max_moves` asks: the kinds still in play
then score for nobody, and the points laid down so far decide (equal points tie).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from epigames.cards import CardLayout
from epigames.games import core
from epigames.games.core import CHANCE, TERMINAL, UniformOutcomes
from epigames.games.dealing import redeal
from epigames.games.kwartet import observation
from epigames.games.kwartet.cards import (
    CARDS,
    MAX_KINDS,
    MAX_PLAYERS,
    MEMBERS,
    SEAT_NAMES,
    Ask,
    Card,
)
from epigames.games.kwartet.events import (
    EVENTS,
    Asked,
    DealDone,
    Dealt,
    GameOver,
    LaidDown,
    OutOfCards,
)
from epigames.games.kwartet.knowledge import layout_for
from epigames.games.kwartet.records import Records, legal_asks
from epigames.games.kwartet.views import KwartetView
from epigames.games.observation import Part
from epigames.games.params import Param
from epigames.games.picture import HasPictures, KripkePicture
from epigames.games.recorded import RecordedViews


@core.register_game
@dataclass(frozen=True)
class KwartetGame(core.Game):
    """Kwartet: collect complete kinds (quartets) by asking opponents for cards."""

    name: ClassVar[str] = "kwartet"
    event_types: ClassVar[tuple[type[core.Event], ...]] = EVENTS
    # Five kinds: a whole game of 20 to 35 asks.
    showcase: ClassVar[str] = "kwartet(players=4,kinds=5)"
    showcase_agents: ClassVar[tuple[str, ...]] = ("expert",)
    params: ClassVar[tuple[Param, ...]] = (
        Param("players", int, 4, min=3, max=MAX_PLAYERS, help="number of seats"),
        Param("kinds", int, 13, min=2, max=MAX_KINDS, help="kinds (quartets) in the deck"),
        Param("ask_own", bool, True, help="may a player ask for a card it holds itself"),
        Param(
            "max_moves",
            int,
            5000,
            min=1,
            max=100_000,
            help="asks after which the game stops; kinds still in play score for nobody",
        ),
    )
    players: int = 4
    kinds: int = 13
    ask_own: bool = True
    # Random players need about 550 asks with 4 seats and 1,400 at most seen with 6, so
    # the default stops only games that would not end otherwise.
    max_moves: int = 5000

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Compass names, clockwise from South."""
        return SEAT_NAMES[self.players]

    @property
    def card_layout(self) -> CardLayout:
        """The kinds' cards in the seats' hands (laid-down kinds leave the game)."""
        return layout_for(self.kinds, self.seat_names)

    @property
    def returns_range(self) -> tuple[float, float]:
        """From no point to every kind."""
        return (0, self.kinds)

    @property
    def max_game_length(self) -> int:
        """Asks are the only decisions, and the game stops after `max_moves` of them."""
        return self.max_moves

    @property
    def deck(self) -> tuple[Card, ...]:
        """Every card of this game, in deck order."""
        return CARDS[: self.kinds * MEMBERS]

    def public_parts(self) -> tuple[Part, ...]:
        """The seat to move, hand sizes, points and the kinds laid down (`observation`)."""
        return observation.public_parts(self)

    def distinct_actions(self) -> list[Ask]:
        """An ask of every seat for every card (the rules allow some of them at a time)."""
        return [Ask(target, card) for target in range(self.players) for card in self.deck]

    def distinct_chance_outcomes(self) -> tuple[Card, ...]:
        """The card dealt next."""
        return self.deck

    def new_initial_state(self) -> KwartetState:
        """The state before the deal."""
        return KwartetState(self)

    def parse_action(self, text: str) -> Ask | Card:
        """Read an ask (`ask West 8.4`) or a dealt card (`⟨8,4⟩`, a chance outcome)."""
        if text.strip().lower().startswith("ask"):
            return Ask.parse(text, self.seat_names)
        return Card.parse(text)


@functools.cache
def _asked_events(game: KwartetGame) -> dict[int, Asked]:
    """A per-game cache of `Asked` events: they are immutable values, so sharing is safe."""
    return {}


class KwartetState(RecordedViews[Records, KwartetView], core.State, HasPictures):
    """A Kwartet position. Cards are ints (`Card.index`) inside; values at the edges."""

    view_class = KwartetView

    def __init__(self, game: KwartetGame) -> None:
        n, kinds = game.players, game.kinds
        self.game: KwartetGame = game
        self._names = game.seat_names
        self._undealt: list[int] = list(range(kinds * MEMBERS))
        self._undealt_cards: list[Card] = list(CARDS[: kinds * MEMBERS])  # the same, as cards
        self._dealt = 0
        self._hands: list[set[int]] = [set() for _ in range(n)]
        self._counts: list[list[int]] = [[0] * kinds for _ in range(n)]  # cards per kind
        self._sizes = [0] * n
        self._scores = [0] * n
        self._kinds_left = kinds
        self._moves = 0
        self._player = CHANCE
        self._start_log(n)
        self._records = Records(n, game.ask_own, layout_for(kinds, game.seat_names))
        self._asked = _asked_events(game)

    # --- the State interface -------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to move, `CHANCE` during the deal, `TERMINAL` at the end."""
        return self._player

    def legal_actions(self) -> list[Ask]:
        """Every legal ask of the player to move (empty during the deal and at the end)."""
        p = self._player
        if p < 0:
            return []
        records = self._records
        return list(legal_asks(records.targets[p], records.askable[p]))

    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        """During the deal: each undealt card, equally likely, goes to the next seat."""
        if self._player != CHANCE:
            return []
        # Drawn by index, without making the pairs (a tuple: the list changes as cards go).
        return UniformOutcomes(tuple(self._undealt_cards))

    def apply(self, action: Hashable) -> None:
        """Deal a card (chance) or play an ask.

        Raises:
            IllegalActionError: not legal here; the state is unchanged.
        """
        p = self._player
        if p >= 0 and type(action) is Ask:
            target, card = action.target, action.card
            if (
                type(target) is int
                and 0 <= target < len(self._sizes)
                and target != p
                and self._sizes[target] > 0
                and card.kind <= self.game.kinds
                and self._counts[p][card.kind - 1] > 0
                and (self.game.ask_own or card.index not in self._hands[p])
            ):
                self._history.append(action)
                self._ask(p, target, card.index)
                self._moves += 1
                if self._moves >= self.game.max_moves and self._player != TERMINAL:
                    self._player = TERMINAL
                    self._publish(GameOver(tuple(self._scores), names=self._names))
                return
        elif p == CHANCE and type(action) is Card and action.index in self._undealt:
            self._history.append(action)
            self._deal(action.index)
            return
        raise core.illegal_action(self, action)

    def returns(self) -> tuple[float, ...]:
        """Points so far."""
        return tuple(self._scores)

    def clone(self) -> KwartetState:
        """An independent copy; events, cards and actions are shared immutable values."""
        other = KwartetState.__new__(KwartetState)
        other.game, other._names = self.game, self._names
        other._undealt = list(self._undealt)
        other._undealt_cards = list(self._undealt_cards)
        other._dealt = self._dealt
        other._hands = [set(h) for h in self._hands]
        other._counts = [list(c) for c in self._counts]
        other._sizes, other._scores = list(self._sizes), list(self._scores)
        other._kinds_left, other._player = self._kinds_left, self._player
        other._moves = self._moves
        self._clone_records(other)
        other._asked = self._asked
        return other

    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The true hands of all seats, sorted: for referees and tests, never for strategies."""
        return tuple(tuple(CARDS[c] for c in sorted(hand)) for hand in self._hands)

    def picture_subjects(self) -> list[str]:
        """The cards still in play (`⟨8,4⟩`), each with a Kripke picture; none before the deal."""
        from epigames.games.kwartet.picture import picture_subjects

        return picture_subjects(self)

    def picture(self, subject: str, seat: int | None = None) -> KripkePicture:
        """A card's Kripke picture from `seat`'s view or a spectator's (see `picture.py`)."""
        from epigames.games.kwartet.picture import card_picture

        return card_picture(self, subject, seat)

    def resample(self, seat: int, rng: random.Random) -> KwartetState:
        """The same game with another deal that `seat` cannot tell from the true one.

        Draws where every card is now from the seat's exact knowledge (uniform over the
        consistent deals), then rebuilds a deal that leads there through the same asks:
        a card that never moved publicly has been with its holder since the deal; one that
        moved was dealt to the seat it was first taken from. Replaying the history on that
        deal gives a fully consistent state with the seat's observations unchanged.
        """
        game, n = self.game, len(self._sizes)
        deck = game.kinds * MEMBERS
        if self._dealt < deck:
            # Mid-deal a seat has seen nothing yet: any order of the dealt cards will do.
            dealt = list(self._history[: self._dealt])
            rng.shuffle(dealt)
            return core.replayed(self, [*dealt, *self._history[self._dealt :]])
        world = list(self.observation(seat).knowledge.sample_world(rng))
        first_from: dict[int, int] = {}
        for event in self._events:
            if type(event) is Asked and event.success:
                first_from.setdefault(event.card.index, event.target)
            elif type(event) is LaidDown:
                for card in range((event.card_kind - 1) * MEMBERS, event.card_kind * MEMBERS):
                    if world[card] < 0:
                        world[card] = event.seat  # removed: it was last with the layer
        origins = [(CARDS[card], first_from.get(card, world[card])) for card in range(deck)]
        deal = redeal(origins, n, 0, rng)
        return core.replayed(self, [*deal, *self._history[deck:]], seat)

    # --- the rules -------------------------------------------------------------

    def _deal(self, card: int) -> None:
        seat = self._dealt % len(self._sizes)
        # By position: removing the card itself would compare cards in Python.
        i = self._undealt.index(card)
        del self._undealt[i]
        del self._undealt_cards[i]
        self._dealt += 1
        self._take(seat, card)
        if self._undealt:
            return
        names = self._names
        for s, hand in enumerate(self._hands):
            self._publish(Dealt(s, tuple(CARDS[c] for c in sorted(hand)), names=names))
        self._publish(DealDone(tuple(self._sizes), names=names))
        for s in range(len(self._sizes)):
            for kind in range(self.game.kinds):
                if self._counts[s][kind] == MEMBERS:
                    self._lay_down(s, kind)
            if self._sizes[s] == 0:
                self._publish(OutOfCards(s, names=names))
        self._pass_turn(len(self._sizes) - 1)  # South (seat 0) or the next seat with cards

    def _ask(self, p: int, target: int, card: int) -> None:
        success = card in self._hands[target]
        key = ((p * MAX_PLAYERS + target) * MAX_KINDS * MEMBERS + card) * 2 + success
        event = self._asked.get(key)
        if event is None:
            event = Asked(p, target, CARDS[card], success, self.game.ask_own, names=self._names)
            self._asked[key] = event
        self._publish(event)
        if not success:
            self._pass_turn(p)
            return
        self._hands[target].remove(card)
        self._counts[target][card >> 2] -= 1
        self._sizes[target] -= 1
        self._take(p, card)
        if self._counts[p][card >> 2] == MEMBERS:
            self._lay_down(p, card >> 2)
        if self._sizes[target] == 0:
            self._publish(OutOfCards(target, names=self._names))
        if self._sizes[p] == 0:
            self._publish(OutOfCards(p, names=self._names))
            self._pass_turn(p)

    def _take(self, seat: int, card: int) -> None:
        self._hands[seat].add(card)
        self._counts[seat][card >> 2] += 1
        self._sizes[seat] += 1

    def _lay_down(self, seat: int, kind: int) -> None:
        first = kind * MEMBERS
        self._hands[seat].difference_update(range(first, first + MEMBERS))
        self._counts[seat][kind] = 0
        self._sizes[seat] -= MEMBERS
        self._scores[seat] += 1
        self._kinds_left -= 1
        names = self._names
        self._publish(LaidDown(seat, kind + 1, self._scores[seat], names=names))

    def _pass_turn(self, after: int) -> None:
        """Give the turn to the first seat after `after`, clockwise, that has cards."""
        if self._kinds_left == 0:
            self._player = TERMINAL
            self._publish(GameOver(tuple(self._scores), names=self._names))
            return
        n = len(self._sizes)
        for step in range(1, n + 1):
            seat = (after + step) % n
            if self._sizes[seat]:
                self._player = seat
                return
        raise AssertionError("cards left but no seat holds any")  # pragma: no cover
