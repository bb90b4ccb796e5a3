"""Each seat's card knowledge in Kwartet, derived from the public log and its own hand.

The public announcements are folded into `epigames.cards.PublicInfo` lazily: nothing is
computed until a view's `knowledge` is asked for, so strategies that never ask (random
players) pay nothing. The fold is incremental and shared by all views of one state.

Besides the announced facts, the rules give one public invariant: a completed kind is
laid down at once, so whenever a seat chooses a move, no seat holds all four cards of a
kind still in play. The kinds are the `PublicInfo` *groups*; a kind leaves the invariant
when it is laid down.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from epigames.cards import CardLayout, PublicInfo
from epigames.cards.facts import apply_facts, start_from_counts
from epigames.games.events import Event
from epigames.games.kwartet.cards import CARDS, MEMBERS, Card, kind_cards


@functools.cache
def layout_for(kinds: int, seat_names: tuple[str, ...]) -> CardLayout:
    """The card layout of a Kwartet game: its cards, and one holder per seat."""
    return CardLayout.create(CARDS[: kinds * MEMBERS], seat_names)


@functools.cache
def kinds_of(layout: CardLayout) -> tuple[tuple[Card, ...], ...]:
    """The kinds of a Kwartet layout, as card tuples: no seat ever keeps one complete."""
    kinds = len(layout.cards) // MEMBERS
    return tuple(kind_cards(k) for k in range(1, kinds + 1))


class PublicTracker:
    """Folds a log's public events into `PublicInfo`, on demand and incrementally."""

    __slots__ = ("_done", "_kinds", "_layout", "_public")

    def __init__(self, layout: CardLayout) -> None:
        self._layout = layout
        self._kinds = kinds_of(layout)
        self._done = 0
        self._public: PublicInfo | None = None

    def copy(self) -> PublicTracker:
        """An independent tracker at the same point (the `PublicInfo` is immutable)."""
        other = PublicTracker(self._layout)
        other._done, other._public = self._done, self._public
        return other

    def at(self, public_events: Sequence[Event], n: int) -> PublicInfo:
        """The public information after the first `n` public announcements of the game.

        Every seat observes the same public announcements in the same order, so one tracker
        serves all seats of a state; private observations never reach it. The kinds'
        invariant holds only after a whole public step (a deal or an ask with the
        laydowns it causes), so ``n`` must end one.
        """
        if n < self._done or self._public is None:
            self._done, self._public = 0, None
        public = self._public
        for event in public_events[self._done : n]:
            if public is None:
                public = start_from_counts(self._layout, event.facts, self._kinds)
            else:
                public = apply_facts(public, event.facts)
        if public is None:
            raise ValueError("there is no card knowledge before the deal is over")
        self._done, self._public = n, public
        return public
