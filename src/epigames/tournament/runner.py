"""Running a tournament: chunks of game indices out to workers, small rows back, rows to DuckDB.

The scheduling loop is the same for every backend (in-process, local processes, Ray;
the interface and the unit of work are in `backend.py`):
it keeps a bounded number of chunks in flight, so memory does not grow with the number of
games, sizes chunks from measured game times so that each takes a fraction of a second,
and writes the rows that come back in batches, each in one transaction. Only the missing
game indices are played, so running the same tournament again resumes it.
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from epigames.errors import InputError
from epigames.tournament.backend import Backend, play_games, play_games_in_worker
from epigames.tournament.config import GameRow, MatchFunction, TournamentConfig
from epigames.tournament.store import TournamentStore

#: The backends `run_tournament` knows.
BACKENDS = ("local", "ray")


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a tournament after every finished game was stored.

    Attributes:
        report: what was played and stored before the stop.
    """

    def __init__(self, report: RunReport) -> None:
        super().__init__(f"stopped with {report.stored} of {report.config.games} games stored")
        self.report = report


@dataclass(frozen=True, slots=True)
class RunReport:
    """What one call of `run_tournament` did.

    Attributes:
        config: the tournament.
        played: games played (and stored) by this call.
        stored: games of the tournament in the file now.
        seconds: wall time of the call.
        interrupted: whether Ctrl-C stopped it early.
    """

    config: TournamentConfig
    played: int
    stored: int
    seconds: float
    interrupted: bool = False


class ProgressSink(Protocol):
    """Receives progress: the starting point once, then each batch of finished games."""

    def start(self, done: int, total: int) -> None: ...

    def advance(self, games: int) -> None: ...


def default_match() -> MatchFunction:
    """The real match function, `epigames.games.play_match`."""
    from epigames.games import play_match

    match: MatchFunction = play_match
    return match


def check_registered(config: TournamentConfig) -> None:
    """Check the game string and strategies against the game registry.

    Raises:
        InputError: unknown game or strategy, wrong number of seats.
    """
    from epigames.tournament.config import checked_config

    checked = checked_config(
        config.game,
        config.strategies,
        config.games,
        seed=config.seed,
        seat_scheme=config.seat_scheme,
        name=config.name,
    )
    if checked.game != config.game:
        raise InputError(
            f"game string {config.game!r} is not canonical; use {checked.game!r} "
            "(see epigames.tournament.checked_config)"
        )


# -- backends ---------------------------------------------------------------------------


class SerialBackend(Backend):
    """Plays chunks in this process, one at a time, when `wait` is called."""

    drain_on_interrupt = False

    def __init__(self, match: MatchFunction) -> None:
        self._match = match
        self._tasks: dict[object, tuple[TournamentConfig, np.ndarray[Any, Any]]] = {}
        self._next = 0

    def submit(self, config: TournamentConfig, indices: np.ndarray[Any, Any]) -> object:
        self._next += 1
        self._tasks[self._next] = (config, indices)
        return self._next

    def wait(self, handles: set[object], timeout: float) -> list[tuple[object, list[GameRow]]]:
        handle = min(handles, key=lambda h: int(h))  # type: ignore[call-overload]
        config, indices = self._tasks.pop(handle)
        return [(handle, play_games(config, indices, self._match))]

    def close(self, abort: bool) -> None:
        self._tasks.clear()


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle, so workers finish their chunk."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ProcessBackend(Backend):
    """Plays chunks in a pool of local worker processes.

    Workers come from a fork server, not from forking this process: the parent holds DuckDB
    and progress-bar threads, and forking a threaded process can deadlock the child. As
    with any non-fork multiprocessing, a script that uses it needs the
    `if __name__ == "__main__":` guard.
    """

    def __init__(self, match: MatchFunction, workers: int) -> None:
        self.workers = workers
        self._match = match
        context = multiprocessing.get_context("forkserver")
        # Import once in the fork server, not in every worker (including the main module,
        # which workers would otherwise re-run): the pool starts in about half a second.
        context.set_forkserver_preload(["__main__", "epigames.tournament.runner", "epigames.games"])
        self._pool = cf.ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_ignore_sigint
        )

    def submit(self, config: TournamentConfig, indices: np.ndarray[Any, Any]) -> object:
        return self._pool.submit(play_games_in_worker, config, indices, self._match)

    def wait(self, handles: set[object], timeout: float) -> list[tuple[object, list[GameRow]]]:
        futures: set[cf.Future[list[GameRow]]] = handles  # type: ignore[assignment]
        done, _ = cf.wait(futures, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return [(f, f.result()) for f in done]

    def close(self, abort: bool) -> None:
        if abort:
            # Chunks still running are lost (resume replays them); do not wait for them.
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()
        self._pool.shutdown(wait=not abort, cancel_futures=True)


def make_backend(
    backend: str, jobs: int, match: MatchFunction, ray_address: str | None = None
) -> Backend:
    """The backend called `backend` with `jobs` workers.

    Raises:
        InputError: unknown backend or a bad number of jobs.
    """
    if backend == "local":
        return SerialBackend(match) if jobs == 1 else ProcessBackend(match, jobs)
    if backend == "ray":
        from epigames.tournament.ray_backend import RayBackend

        return RayBackend(match, jobs, ray_address)
    raise InputError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")


# -- scheduling -------------------------------------------------------------------------


class _Chunker:
    """Cuts the missing indices into chunks sized from the measured time per game."""

    def __init__(self, missing: np.ndarray[Any, Any], backend: Backend) -> None:
        self._missing = missing
        self._pos = 0
        self._backend = backend
        self._games = 0
        self._seconds = 0.0

    def observe(self, rows: Sequence[GameRow]) -> None:
        self._games += len(rows)
        self._seconds += sum(r.seconds for r in rows)

    def remaining(self) -> int:
        return len(self._missing) - self._pos

    def next(self) -> np.ndarray[Any, Any]:
        left = self.remaining()
        if self._games == 0:
            size = 1  # nothing measured yet: probe with single games
        else:
            per_game = max(self._seconds / self._games, 1e-7)
            size = max(1, min(4096, round(self._backend.chunk_seconds / per_game)))
        # Near the end, smaller chunks keep every worker busy until the last game.
        size = max(1, min(size, math.ceil(left / (2 * self._backend.workers))))
        chunk = self._missing[self._pos : self._pos + size]
        self._pos += len(chunk)
        return chunk


@contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Hold Ctrl-C until the block is done, then raise it.

    DuckDB aborts a running statement on Ctrl-C; deferring it keeps a batch write whole
    (committed with its rows taken from the buffer, or not begun).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def _flush(store: TournamentStore, name: str, buffer: list[GameRow]) -> int:
    count = len(buffer)
    with _sigint_deferred():
        store.write(name, buffer)
        buffer.clear()
    return count


#: Test hook, for crash-and-resume tests only (never set it otherwise).
#: `EPIGAMES_FAULT_STOP_AFTER=k` stops the run right after the k-th game of this run is
#: committed, with SIGKILL as a crash would; `k:INT` with SIGINT as Ctrl-C would. Tests
#: then stop a tournament at a known point, instead of racing a timer or the file's
#: growth against the tournament's end.
FAULT_ENV = "EPIGAMES_FAULT_STOP_AFTER"


@dataclass(frozen=True, slots=True)
class _Fault:
    after: int
    signum: int

    @classmethod
    def from_env(cls) -> _Fault | None:
        text = os.environ.get(FAULT_ENV, "").strip()
        if not text:
            return None
        count, _, name = text.partition(":")
        try:
            after = int(count)
            signum = int(getattr(signal, f"SIG{name.strip().upper() or 'KILL'}"))
        except (ValueError, AttributeError):
            raise InputError(
                f"{FAULT_ENV}={text!r}; expected a count, then optionally :INT"
            ) from None
        return cls(max(after, 1), signum)

    def fire(self) -> None:
        """Signal this process, and its workers too when it leads their process group.

        A process started in a new session leads its group, as a shell's job does: then the
        whole group gets the signal, as from a terminal or `kill -9 -PGID`. Otherwise only
        this process, so that a test runner sharing the group is never hit.
        """
        if os.getpgid(0) == os.getpid():
            os.killpg(os.getpid(), self.signum)
        else:
            os.kill(os.getpid(), self.signum)


def run_tournament(
    config: TournamentConfig,
    store: TournamentStore,
    *,
    jobs: int | None = None,
    backend: str | Backend = "local",
    ray_address: str | None = None,
    match: MatchFunction | None = None,
    progress: ProgressSink | None = None,
    batch_rows: int = 2000,
    batch_seconds: float = 1.0,
) -> RunReport:
    """Play the tournament's missing games and store them; returns what was done.

    Args:
        config: the tournament (see `checked_config`).
        store: an open, writable results file.
        jobs: worker count (default: all cores).
        backend: `"local"`, `"ray"` or a `Backend` instance.
        ray_address: a Ray cluster to connect to (Ray backend only).
        match: the match function; default `epigames.games.play_match` (then the game and
            strategies are checked against the registry first).
        progress: receives progress updates.
        batch_rows: write at least this often (rows)...
        batch_seconds: ...or after this much time, whichever comes first.

    Raises:
        InputError: bad jobs, backend, game or strategies.
        ConfigMismatchError: the file holds this tournament with another configuration.
        MatchFailedError: a game raised (finished games are stored first).
        TournamentInterrupted: Ctrl-C; every finished game was stored first.
    """
    started = time.perf_counter()
    if jobs is None:
        jobs = os.cpu_count() or 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InputError(f"jobs {jobs!r} is not a positive integer")
    if match is None:
        check_registered(config)
        match = default_match()
    config = store.prepare(config)
    missing = np.flatnonzero(~store.done_mask(config.name, config.games))
    done_before = config.games - len(missing)
    if progress is not None:
        progress.start(done_before, config.games)
    played = 0
    if len(missing) == 0:
        return RunReport(config, 0, store.count(config.name), time.perf_counter() - started)
    engine = (
        backend if isinstance(backend, Backend) else make_backend(backend, jobs, match, ray_address)
    )
    chunker = _Chunker(missing, engine)
    pending: set[object] = set()
    buffer: list[GameRow] = []
    last_flush = time.perf_counter()

    def collect(finished: list[tuple[object, list[GameRow]]]) -> None:
        for handle, rows in finished:
            pending.discard(handle)
            chunker.observe(rows)
            buffer.extend(rows)
            if progress is not None:
                progress.advance(len(rows))

    fault = _Fault.from_env()
    aborted = True
    try:
        try:
            while True:
                while len(pending) < 2 * engine.workers and chunker.remaining():
                    pending.add(engine.submit(config, chunker.next()))
                if not pending:
                    break
                collect(engine.wait(pending, timeout=0.2))
                if fault is not None and played + len(buffer) >= fault.after:
                    head = buffer[: fault.after - played]
                    del buffer[: len(head)]
                    played += _flush(store, config.name, head)
                    fault.fire()  # SIGKILL ends here; SIGINT raises KeyboardInterrupt
                    fault = None
                if len(buffer) >= batch_rows or (
                    buffer and time.perf_counter() - last_flush >= batch_seconds
                ):
                    played += _flush(store, config.name, buffer)
                    last_flush = time.perf_counter()
            played += _flush(store, config.name, buffer)
            aborted = False
        except KeyboardInterrupt:
            # Keep what is finished: the chunks in flight are short, so wait for them
            # (a second Ctrl-C gives up on them; resuming replays those games).
            try:
                while pending and engine.drain_on_interrupt:
                    collect(engine.wait(pending, timeout=0.2))
            except KeyboardInterrupt:
                pass
            except Exception:  # a chunk broken by the interrupt: resume replays it
                pass
            played += _flush(store, config.name, buffer)
            report = RunReport(
                config, played, store.count(config.name), time.perf_counter() - started, True
            )
            raise TournamentInterrupted(report) from None
        except BaseException:
            # A failed game (or anything else): store the games that did finish, then fail.
            played += _flush(store, config.name, buffer)
            raise
    finally:
        engine.close(abort=aborted)
    return RunReport(config, played, store.count(config.name), time.perf_counter() - started)
