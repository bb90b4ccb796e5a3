"""States and views of games that keep their public situation in shared records.

A game's `Records` object absorbs every event: public values (replaced, never changed,
so a view may keep references as a snapshot), each seat's private part, every public
announcement so far and a tracker that folds them into card knowledge on demand. The
state builds each seat's view from the records (`RecordedViews`); the view keeps what it
needs of them (`RecordView`). A game's views module imports its rules module only for
type checking: the rules import the views to build them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, Protocol, Self, TypeVar

from epigames.games.core import EventLog, View
from epigames.games.events import Event

T = TypeVar("T")


class RecordView(View, Generic[T]):
    """A seat's view that keeps the records' announcements so far and their tracker.

    A game's view sets `_announcements` (the records' list, append-only), `_announced`
    (its length when the view is made) and `_tracker` in its own `__init__`, written out
    with `View.__init__`'s fields because a view is made per move, and keeps the rest of
    what it shows (the records' values are replaced, never changed, so keeping them is a
    snapshot). It implements `hand`.
    """

    _announcements: list[Event]
    _announced: int
    _tracker: T

    @property
    def hand(self) -> tuple[Hashable, ...]:
        """The seat's own cards, sorted."""
        raise NotImplementedError

    def private_items(self) -> frozenset[Hashable]:
        """The seat's own cards."""
        return frozenset(self.hand)


class _Records(Protocol):
    def copy(self) -> Self: ...

    def absorb(self, event: Event) -> None: ...


R = TypeVar("R", bound=_Records)
V = TypeVar("V", bound=View)


class RecordedViews(EventLog, Generic[R, V]):
    """Mixin for a `State` (listed before it) whose views come from shared public records.

    The game keeps `_records` (public values, replaced and never changed, plus each
    seat's private part). Its compiled state publishes an event in one step, as
    `EventLog._deliver` and then `_records.absorb`; its `observation(seat)` builds the
    seat's view from the game, the seat, the player to move, the state (for the seat's
    log, `SharedLogView`) and the records.
    """

    _player: int
    _records: R

    def _clone_records(self, other: RecordedViews[R, V]) -> None:
        """Give `other` copies of the log and the records (for `clone`)."""
        self._clone_log(other)
        other._records = self._records.copy()
