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

from mypy_extensions import mypyc_attr

from epigames.cards import CardLayout, PublicInfo
from epigames.cards.facts import apply_facts, start_from_counts
from epigames.games.events import Event
from epigames.games.kwartet.cards import CARDS, MEMBERS, Card, kind_cards
from epigames.games.recorded import PublicFold


@functools.cache
def layout_for(kinds: int, seat_names: tuple[str, ...]) -> CardLayout:
    """The card layout of a Kwartet game: its cards, and one holder per seat."""
    return CardLayout.create(CARDS[: kinds * MEMBERS], seat_names)


@functools.cache
def kinds_of(layout: CardLayout) -> tuple[tuple[Card, ...], ...]:
    """The kinds of a Kwartet layout, as card tuples: no seat ever keeps one complete."""
    kinds = len(layout.cards) // MEMBERS
    return tuple(kind_cards(k) for k in range(1, kinds + 1))


@mypyc_attr(native_class=False)  # its base is plain Python
class PublicTracker(PublicFold[PublicInfo]):
    """Folds a log's public events into `PublicInfo`, on demand and incrementally.

    The kinds' invariant holds only after a whole public step (a deal or an ask with the
    laydowns it causes), so the ``n`` of `at` must end one.
    """

    __slots__ = ()

    def _start(self, event: Event) -> PublicInfo:
        """The deal's counts, with the kinds as the invariant's groups."""
        return start_from_counts(self._layout, event.facts, kinds_of(self._layout))

    def _step(self, folded: PublicInfo, event: Event) -> PublicInfo:
        """The announcement's facts applied."""
        return apply_facts(folded, event.facts)
