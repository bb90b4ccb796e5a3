"""`KwartetView`: what one seat sees of Kwartet, and the knowledge it derives from that."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Final

from epigames.cards import CardKnowledge
from epigames.games.kwartet.cards import ASKS, CARDS, Ask, Card
from epigames.games.kwartet.knowledge import PublicTracker
from epigames.games.recorded import RecordView

if TYPE_CHECKING:
    from epigames.games.events import Event
    from epigames.games.kwartet.records import Records
    from epigames.games.kwartet.rules import KwartetGame


class KwartetView(RecordView[PublicTracker]):
    """A seat's view of Kwartet: own hand, public hand sizes, scores, laid-down kinds, log."""

    def __init__(
        self, game: KwartetGame, seat: int, current: int, log: list[Event], records: Records
    ) -> None:
        super().__init__(game, seat, current, log, records)
        # References to the records' tuples: they are replaced, never changed, on updates.
        self._hand_ids = records.hands[seat]
        #: The cards this seat may ask for: its kinds (minus its own cards unless `ask_own`).
        self.askable_cards: Final = records.askable[seat]
        #: The opponents this seat may ask: those that still have cards.
        self.targets: Final = records.targets[seat]
        #: How many cards each seat holds (public).
        self.hand_sizes: Final = records.sizes
        #: Each seat's points (public).
        self.scores: Final = records.scores
        #: `(kind, seat)` for every kind laid down so far, in order.
        self.laid_down: Final = records.down

    @functools.cached_property
    def knowledge(self) -> CardKnowledge:
        """What this seat knows about where every card is: public announcements + own hand.

        Exact (sound and complete) and computed lazily; holders are seat indices.
        """
        public = self._tracker.at(self._announcements, self._announced)
        return CardKnowledge.create(public, self.seat, self.hand)

    @functools.cached_property
    def hand(self) -> tuple[Card, ...]:
        """The seat's own cards, sorted."""
        return tuple(CARDS[c] for c in self._hand_ids)

    @functools.cached_property
    def legal_actions(self) -> tuple[Ask, ...]:
        """Every `Ask(target, card)` for target in `targets` and card in `askable_cards`."""
        if not self.is_my_turn:
            return ()
        return tuple(ASKS[t][c.index] for t in self.targets for c in self.askable_cards)

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
