"""States and views of games that keep their public situation in shared records.

A game's `Records` object absorbs every event: public values (replaced, never changed,
so a view may keep references as a snapshot), each seat's private part, every public
announcement so far and a tracker that folds them into card knowledge on demand. The
state builds each seat's view from the records (`RecordedViews`); the view keeps what it
needs of them (`RecordView`). A game's views module imports its rules module only for
type checking: the rules import the views to build them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Generic, Protocol, Self, TypeVar

from epigames.cards import CardLayout
from epigames.games.core import EventLog, View
from epigames.games.events import Event

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class _PublicRecords(Protocol[T_co]):
    @property
    def announcements(self) -> list[Event]: ...

    @property
    def tracker(self) -> T_co: ...


class PublicFold(Generic[T]):
    """Folds a log's public announcements into one immutable value, on demand and incrementally.

    Every seat observes the same public announcements in the same order, so one fold
    serves all seats of a state; private observations never reach it. A game says how the
    first value is made (`_start`, None while the announcement is not the deal) and how an
    announcement changes it (`_step`).
    """

    __slots__ = ("_done", "_layout", "_public")

    def __init__(self, layout: CardLayout) -> None:
        self._layout = layout
        self._done = 0
        self._public: T | None = None

    def copy(self) -> Self:
        """An independent fold at the same point (the folded value is immutable)."""
        other = type(self)(self._layout)
        other._done, other._public = self._done, self._public
        return other

    def _start(self, event: Event) -> T | None:
        """The first value, made from the deal's announcement (None for an earlier one)."""
        raise NotImplementedError

    def _step(self, folded: T, event: Event) -> T:
        """The value after one more public announcement."""
        raise NotImplementedError

    def at(self, events: Sequence[Event], n: int) -> T:
        """The folded value after the first `n` public announcements.

        Raises:
            ValueError: before the deal is announced.
        """
        if n < self._done or self._public is None:
            self._done, self._public = 0, None
        folded = self._public
        for event in events[self._done : n]:
            folded = self._start(event) if folded is None else self._step(folded, event)
        if folded is None:
            raise ValueError("there is no card knowledge before the deal is over")
        self._done, self._public = n, folded
        return folded


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
