"""`KwartetView`: what one seat sees of Kwartet, and the knowledge it derives from that.

mypyc compiles this module (`epigames.native.COMPILED`): a view is made per decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from epigames.cards import CardKnowledge
from epigames.games.core import EventLog, SharedLogView, cached_property
from epigames.games.events import Event
from epigames.games.kwartet import observation
from epigames.games.kwartet.cards import CARDS, Ask, Card
from epigames.games.kwartet.knowledge import PublicTracker
from epigames.games.kwartet.records import Records, legal_asks
from epigames.games.observation import Arrays
from epigames.games.recorded import RecordView

if TYPE_CHECKING:
    from epigames.games.kwartet.rules import KwartetGame


class KwartetView(SharedLogView, RecordView[PublicTracker]):
    """A seat's view of Kwartet: own hand, public hand sizes, scores, laid-down kinds, log.

    Compiled with mypyc (`epigames.native`), a native class, as Blufpoker's view is: the
    fields declared here are C slots (a `__dict__` remains, from `View`'s plain base,
    for what `cached_property` keeps).
    """

    # Declared here as well as in the bases: compiled, they are then slots of this class.
    _seat: int
    _current_player: int
    _source: EventLog
    _stop: int
    _announcements: list[Event]
    _announced: int
    _tracker: PublicTracker
    #: The seat's own cards as a bitmask over card indices (`hand_indices`).
    hand_mask: int
    #: The cards this seat may ask for: its kinds (minus its own cards unless `ask_own`).
    askable_cards: tuple[Card, ...]
    #: The opponents this seat may ask: those that still have cards.
    targets: tuple[int, ...]
    #: How many cards each seat holds (public).
    hand_sizes: tuple[int, ...]
    #: Each seat's points (public).
    scores: tuple[int, ...]
    #: `(kind, seat)` for every kind laid down so far, in order.
    laid_down: tuple[tuple[int, int], ...]

    def __init__(
        self, game: KwartetGame, seat: int, current: int, state: EventLog, records: Records
    ) -> None:
        # `View.__init__` written out (and the fields `RecordView` declares): a view is
        # made per move.
        self._game = game
        self._seat = seat
        self._current_player = current
        # The seat's log is read from the shared one only if asked for (`log`): up to the
        # shared log's length now (`SharedLogView`).
        self._source = state
        self._stop = len(state._events)
        announcements = records.announcements
        self._announcements = announcements
        self._announced = len(announcements)
        self._tracker = records.tracker
        # The records' values are replaced, never changed: keeping them is a snapshot.
        # The card indices of the seat's own cards (`hand` makes the cards), and their mask.
        self._hand_ids = records.hands[seat]
        self.hand_mask = records.hand_masks[seat]
        self.askable_cards, self.targets = records.askable[seat], records.targets[seat]
        self.hand_sizes, self.scores, self.laid_down = records.sizes, records.scores, records.down
        self._knowledge: CardKnowledge | None = None

    @property
    def game(self) -> KwartetGame:
        """The game being played (its parameters: `kinds`, `ask_own`, …)."""
        # `_game` is not declared again here: its type is in the rules module, which
        # imports this one.
        return cast("KwartetGame", self._game)

    @property
    def knowledge(self) -> CardKnowledge:
        """What this seat knows about where every card is: public announcements + own hand.

        Exact (sound and complete) and computed lazily, once; holders are seat indices.
        """
        # Kept in an attribute, not by `cached_property`: its `__get__` is Python code.
        known = self._knowledge
        if known is None:
            public = self._tracker.at(self._announcements, self._announced)
            # Card indices are the layout's (the layout is made from the deck in order).
            known = self._knowledge = CardKnowledge.of_hand_mask(public, self._seat, self.hand_mask)
        return known

    @property
    def hand_indices(self) -> tuple[int, ...]:
        """The indices (`Card.index`) of the seat's own cards, ascending."""
        return self._hand_ids

    @cached_property
    def hand(self) -> tuple[Card, ...]:
        """The seat's own cards, sorted."""
        return tuple(CARDS[c] for c in self._hand_ids)

    @cached_property
    def legal_actions(self) -> tuple[Ask, ...]:
        """Every `Ask(target, card)` for target in `targets` and card in `askable_cards`."""
        if not self.is_my_turn:
            return ()
        return legal_asks(self.targets, self.askable_cards)

    def write_public(self, arrays: Arrays) -> None:
        """Hand sizes, points and the kinds laid down (`observation.write_public`)."""
        observation.write_public(self, arrays)

    def _extra_dict(self) -> dict[str, Any]:
        return {
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "scores": list(self.scores),
            "laid_down": [list(d) for d in self.laid_down],
        }

    def summary(self) -> str:
        """E.g. `hand ⟨1,2⟩ ⟨8,4⟩ · 2 cards · 1 points`."""
        cards = " ".join(str(c) for c in self.hand) or "(empty)"
        points = self.scores[self._seat]
        return f"hand {cards} · {len(self.hand)} cards · {points} point{'s' * (points != 1)}"
