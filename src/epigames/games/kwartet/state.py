"""The Kwartet state: the deal, the asks, laid-down kinds and the end (`rules.py`).

Its own module, apart from `KwartetGame`, so that mypyc compiles it with the hot modules
(`epigames.native.COMPILED`): a compiled module's dataclass would turn the game's
`ClassVar` declarations into fields, which `register_game` refuses. `KwartetState` is a
native class although its bases (`EventLog`, `State`, `HasPictures`) are plain Python, as
Blufpoker's state is: its fields are C slots the rules reach directly, and it pickles by
its fields (`__reduce__`). Cards are ints (`Card.index`) inside; values at the edges.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Final

from epigames.games import core
from epigames.games.core import CHANCE, TERMINAL, EventLog, UniformOutcomes, by_fields
from epigames.games.dealing import redeal
from epigames.games.events import Event
from epigames.games.kwartet.cards import CARDS, MAX_KINDS, MAX_PLAYERS, MEMBERS, Ask, Card
from epigames.games.kwartet.events import Asked, DealDone, Dealt, GameOver, LaidDown, OutOfCards
from epigames.games.kwartet.knowledge import layout_for
from epigames.games.kwartet.records import Records, legal_asks
from epigames.games.kwartet.views import KwartetView
from epigames.games.picture import HasPictures, KripkePicture

if TYPE_CHECKING:
    from epigames.games.kwartet.rules import KwartetGame

__all__ = ["KwartetState"]

#: Per game, its `Asked` events by ask and answer: immutable values, so sharing is safe.
_ASKED: Final[dict[KwartetGame, dict[int, Asked]]] = {}


class KwartetState(EventLog, core.State, HasPictures):
    """A Kwartet position (`rules.py` has the rules)."""

    # The log's lists, declared here as well as in `EventLog`: compiled, they are then
    # slots of this class that the rules reach directly.
    game: KwartetGame
    _events: list[Event]
    _audience: list[int]
    _seen: list[list[Event]]
    _read: list[int]
    _history: list[Hashable]

    def __init__(self, game: KwartetGame) -> None:
        n, kinds = game.players, game.kinds
        self.game = game
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
        asked = _ASKED.get(game)
        if asked is None:
            asked = _ASKED[game] = {}
        self._asked = asked

    # --- the State interface -------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to move, `CHANCE` during the deal, `TERMINAL` at the end."""
        return self._player

    def observation(self, seat: object) -> KwartetView:
        """The seat's view, built from its observation records.

        Raises:
            SeatError: no such seat.
        """
        if type(seat) is not int or not 0 <= seat < len(self._sizes):
            raise core.seat_error(self.game, seat)
        return KwartetView(self.game, seat, self._player, self, self._records)

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
        other = KwartetState(self.game)
        other._undealt = list(self._undealt)
        other._undealt_cards = list(self._undealt_cards)
        other._dealt = self._dealt
        other._hands = [set(h) for h in self._hands]
        other._counts = [list(c) for c in self._counts]
        other._sizes, other._scores = list(self._sizes), list(self._scores)
        other._kinds_left, other._player = self._kinds_left, self._player
        other._moves = self._moves
        self._clone_log(other)
        other._records = self._records.copy()
        return other

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # By its fields (OpenSpiel's serialisation pickles states; `core.by_fields`).
        return by_fields(self, _FIELDS)

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

    def _publish(self, event: Event) -> None:
        # `EventLog._deliver` and the records' `absorb` in one compiled call: every ask
        # publishes an event or more.
        self._events.append(event)
        self._audience.append(-1 if event.public else event.audience())
        self._records.absorb(event)

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


#: Every field but the game and those it decides, in the order `__reduce__` gives them.
_FIELDS: Final = (
    *("_undealt", "_undealt_cards", "_dealt", "_hands", "_counts", "_sizes", "_scores"),
    *("_kinds_left", "_moves", "_player", "_records"),
    *("_events", "_audience", "_seen", "_read", "_history"),
)
