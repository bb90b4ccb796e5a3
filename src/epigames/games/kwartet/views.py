"""A seat's view of Kwartet, built by `KwartetState.observation` from the seat's records.

`rules.py` imports this module to build views, so this module imports `rules.py` only
for type checking (a runtime import would be a circle).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from epigames.cards import CardKnowledge
from epigames.games.core import View
from epigames.games.kwartet.cards import ASKS, CARDS, Ask, Card

if TYPE_CHECKING:
    from epigames.games.events import Event
    from epigames.games.kwartet.records import Records
    from epigames.games.kwartet.rules import KwartetGame


class KwartetView(View):
    """A seat's view of Kwartet: own hand, public hand sizes, scores, laid-down kinds, log."""

    def __init__(
        self, game: KwartetGame, seat: int, current: int, log: list[Event], records: Records
    ) -> None:
        super().__init__(game, seat, current, log, len(log))
        # References to the records' tuples: they are replaced, never changed, on updates.
        self._hand_ids = records.hands[seat]
        self._askable = records.askable[seat]
        self._targets = records.targets[seat]
        self._sizes = records.sizes
        self._scores = records.scores
        self._down = records.down
        self._announcements = records.announcements
        self._announced = len(records.announcements)
        self._tracker = records.tracker

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

    def private_items(self) -> frozenset[Hashable]:
        """The seat's own cards."""
        return frozenset(self.hand)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds (public)."""
        return self._sizes

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's points (public)."""
        return self._scores

    @property
    def laid_down(self) -> tuple[tuple[int, int], ...]:
        """`(kind, seat)` for every kind laid down so far, in order."""
        return self._down

    @property
    def targets(self) -> tuple[int, ...]:
        """The opponents this seat may ask: those that still have cards."""
        return self._targets

    @property
    def askable_cards(self) -> tuple[Card, ...]:
        """The cards this seat may ask for: its kinds (minus its own cards unless `ask_own`)."""
        return self._askable

    @functools.cached_property
    def legal_actions(self) -> tuple[Ask, ...]:
        """Every `Ask(target, card)` for target in `targets` and card in `askable_cards`."""
        if not self.is_my_turn:
            return ()
        return tuple(ASKS[t][c.index] for t in self._targets for c in self._askable)

    def _extra_dict(self) -> dict[str, Any]:
        return {
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self._sizes),
            "scores": list(self._scores),
            "laid_down": [list(d) for d in self._down],
        }

    def summary(self) -> str:
        """E.g. `hand ⟨1,2⟩ ⟨8,4⟩ · 2 cards · 1 points`."""
        cards = " ".join(str(c) for c in self.hand) or "(empty)"
        points = self._scores[self._seat]
        return f"hand {cards} · {len(self.hand)} cards · {points} point{'s' * (points != 1)}"
