"""How much one web request may play: `PlayBudget` and the `Meter` that counts against it.

A watched game is played as far as it is watched, and a person's move lets the agents play
up to the person's next turn. Either can be long (random Kemps agents play some 37,000
moves to the 2023 program's turn cap of 10,000), so each request plays within a budget
of CPU time, moves and events: past it the agents stop, the request answers 503 with how
far the game got, and the next request plays on from there. A session also holds at most
`session_frames` frames and `session_events` events in all, which bounds its memory.
`stop` ends every play at its next move: the server sets it when told to stop.

A long play also makes the server's garbage collections long: a full collection walks
every object, and a 37,000-move game holds about 250,000 of them, so collections during
a play held the interpreter for 0.3 to 0.9 s at a time, and every other request waited.
With `freeze` (the server's own process: `epigames serve`) the objects a play made are
moved out of the collector's reach every `FREEZE_EVERY` moves (`gc.freeze`). A session
holds no reference cycles, so its objects are still freed when it goes.
"""

from __future__ import annotations

import gc
import math
import threading
import time
from dataclasses import dataclass, field

#: With `PlayBudget.freeze`, the collector's objects are frozen every this many moves.
FREEZE_EVERY = 1000


@dataclass(frozen=True)
class PlayBudget:
    """The most one request may play of a session, and the most a session holds.

    Attributes:
        cpu_seconds: CPU time of the request's thread spent playing.
        frames: moves played by one request.
        events: events those moves add to the log.
        session_frames: frames a session holds in all; its agents stop there for good.
        session_events: events a session holds in all; likewise.
        stop: when set, every play stops at its next move (the server is stopping).
        freeze: freeze the collector's objects every `FREEZE_EVERY` moves (see the module
            docstring); process-wide, so for a server process only.
    """

    cpu_seconds: float = 1.0
    frames: int = 10_000
    events: int = 40_000
    session_frames: int = 50_000
    session_events: int = 100_000
    stop: threading.Event = field(default_factory=threading.Event, compare=False, repr=False)
    freeze: bool = False

    def meter(self) -> Meter:
        """A meter for one request's play, started now."""
        return Meter(self)


#: No bounds: the library's sessions (tests, tools) play their games whole; the web app's
#: store gives each of its sessions the server's budget.
UNLIMITED = PlayBudget(
    cpu_seconds=math.inf,
    frames=1 << 62,
    events=1 << 62,
    session_frames=1 << 62,
    session_events=1 << 62,
)


class Meter:
    """One request's play against a `PlayBudget`: `spent` says what ran out, if anything."""

    __slots__ = ("budget", "cpu")

    def __init__(self, budget: PlayBudget) -> None:
        self.budget = budget
        # The thread's own CPU time: other requests' threads do not count against this one.
        self.cpu = time.thread_time()

    def spent(self, frames: int, events: int) -> str | None:
        """Why no more may be played after `frames` moves adding `events` events, or None."""
        b = self.budget
        if b.stop.is_set():
            return "the server is stopping"
        if frames >= b.frames:
            return f"{b.frames:,} moves, the most one request plays"
        if events >= b.events:
            return f"{b.events:,} events, the most one request adds"
        if time.thread_time() - self.cpu >= b.cpu_seconds:
            return f"{b.cpu_seconds:g} s of CPU time, the most one request spends playing"
        return None

    def moved(self, frames: int) -> None:
        """Note that `frames` moves are played (with `freeze`: freeze now and then)."""
        if self.budget.freeze and frames % FREEZE_EVERY == 0:
            # Young garbage first, so that little of it is kept frozen for good.
            gc.collect(1)
            gc.freeze()
