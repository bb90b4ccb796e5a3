"""Each seat's card knowledge in Kwartet, derived from the public log and its own hand.

The public announcements are folded into `epigames.cards.PublicInfo` lazily: nothing is
computed until a view's `knowledge` is asked for, so strategies that never ask (random
players) pay nothing. The fold is incremental and shared by all views of one state.

Besides the announced facts, the rules give one public invariant: a completed kind is
laid down at once, so whenever a seat chooses a move, no seat holds all four cards of a
kind still in play. The kinds are the `PublicInfo` *groups*; a kind leaves the invariant
when it is laid down.

mypyc compiles this module (`epigames.native.COMPILED`): every view's knowledge folds
the new announcements here.
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
    """Folds a log's public announcements into `PublicInfo`, on demand and incrementally.

    Every seat observes the same public announcements in the same order, so one tracker
    serves all seats of a state; private observations never reach it. The first public
    announcement is the deal's (`DealDone`): its counts start the fold, with the kinds as
    the invariant's groups; each later one applies its facts. The kinds' invariant holds
    only after a whole public step (a deal or an ask with the laydowns it causes), so the
    ``n`` of `at` must end one.
    """

    def __init__(self, layout: CardLayout) -> None:
        self._layout = layout
        self._done = 0
        self._public: PublicInfo | None = None

    def __reduce__(self) -> tuple[type[PublicTracker], tuple[CardLayout]]:
        # A cache of what the announcements say: a fresh tracker folds them again when
        # asked. (The default would call the compiled class's `__init__` without its layout.)
        return PublicTracker, (self._layout,)

    def copy(self) -> PublicTracker:
        """An independent tracker at the same point (the `PublicInfo` is immutable)."""
        other = PublicTracker(self._layout)
        other._done, other._public = self._done, self._public
        return other

    def at(self, events: Sequence[Event], n: int) -> PublicInfo:
        """The public information after the first `n` public announcements.

        Raises:
            ValueError: before the deal is announced.
        """
        if n < self._done or self._public is None:
            self._done, self._public = 0, None
        folded = self._public
        for i in range(self._done, n):
            facts = events[i].facts
            if folded is None:
                folded = start_from_counts(self._layout, facts, kinds_of(self._layout))
            else:
                folded = apply_facts(folded, facts)
        if folded is None:
            raise ValueError("there is no card knowledge before the deal is over")
        self._done, self._public = n, folded
        return folded
