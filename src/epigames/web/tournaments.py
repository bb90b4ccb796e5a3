"""The tournaments page's back end: result files in a directory, summaries, plots, jobs.

Only public functions of `epigames.tournament` are used. Files are named by their base
name inside the server's `--db-dir` (never by a path), so a client cannot reach other
files, and no response names a server path (`TournamentDir.scrub`). A small tournament
started from the page runs in a background thread with one worker; its progress is
polled. Jobs are capped in all and per client, and can be cancelled: the games stored so
far stay (running the same tournament again resumes it).
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from epigames.errors import InputError
from epigames.web.session import SessionError

if TYPE_CHECKING:
    from epigames.tournament import MatchFunction

#: What a results file may be called (a base name: no directories).
DB_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,80}\.duckdb$")
#: The plots the tournament package draws.
PLOTS = ("win_rates", "returns", "lengths", "seat_advantage")
#: Most games a tournament started from the page may have.
MAX_WEB_GAMES = 5000
#: Finished jobs remembered for the page (the oldest are forgotten first).
KEEP_FINISHED_JOBS = 50
#: Job states in which the job's thread still runs (and may write its file).
ACTIVE = ("running", "cancelling")


class TournamentDir:
    """The result files in one directory, and the tournament jobs started on them.

    Args:
        root: the directory (`epigames serve --db-dir`); None when the server has none.
        max_jobs: most jobs running at once on the server...
        max_jobs_per_client: ...and for one client.

    Attributes:
        match: the match function jobs play (None: `epigames.games.play_match`); tests set
            it to make a job slow or block it deterministically.
    """

    def __init__(self, root: Path | None, max_jobs: int = 2, max_jobs_per_client: int = 1) -> None:
        self.root = root
        self.max_jobs = max_jobs
        self.max_jobs_per_client = max_jobs_per_client
        self.match: MatchFunction | None = None
        self.jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._plot_dir = Path(tempfile.mkdtemp(prefix="epigames-plots-"))

    def scrub(self, text: str) -> str:
        """`text` with server paths taken out: files in the directory by name, others hidden."""
        for path in {p for p in (self.root, self._plot_dir) if p is not None}:
            for form in {str(path), str(path.resolve()), os.path.realpath(path)}:
                text = text.replace(form + os.sep, "").replace(form, "the results directory")
        return text

    def _require_root(self) -> Path:
        if self.root is None:
            raise SessionError(
                "the server was started without --db-dir, so it has no tournaments", 404
            )
        return self.root

    def path(self, db: str, must_exist: bool = True) -> Path:
        """The file called `db` in the directory.

        Raises:
            InputError: not a plain `NAME.duckdb` base name (422).
            SessionError: no directory, or no such file (404).
        """
        root = self._require_root()
        if not DB_NAME.fullmatch(db):
            raise InputError(
                f"bad results file name {db!r}; expected a name like results.duckdb "
                "(letters, digits, '_', '-', '.'; no directories)"
            )
        path = root / db
        if must_exist and not path.is_file():
            raise SessionError(f"no results file {db!r} in the server's --db-dir", 404)
        return path

    def busy(self, db: str) -> bool:
        """Whether a job is writing to the file now (DuckDB allows one writer)."""
        with self._lock:
            return any(j.db == db and j.state in ACTIVE for j in self.jobs.values())

    def listing(self) -> list[dict[str, Any]]:
        """Every results file with its tournaments (name, game, size, stored games)."""
        from epigames.tournament import StoreError, TournamentStore

        root = self._require_root()
        files = []
        for path in sorted(root.glob("*.duckdb")):
            entry: dict[str, Any] = {"db": path.name, "tournaments": [], "error": None}
            if self.busy(path.name):
                entry["error"] = "a tournament is being played into this file; wait for it"
                files.append(entry)
                continue
            try:
                with TournamentStore.open(path, read_only=True) as store:
                    for config in store.tournaments():
                        row = config.to_dict()
                        row["stored"] = store.count(config.name)
                        entry["tournaments"].append(row)
            except StoreError as exc:
                entry["error"] = self.scrub(str(exc))
            files.append(entry)
        return files

    def summary(self, db: str, name: str) -> dict[str, Any]:
        """A tournament's summary (intervals included) and its plot names."""
        from epigames.tournament import TournamentStore, summarize

        path = self._readable(db)
        with TournamentStore.open(path, read_only=True) as store:
            config = self._get(store, name)
            summary = summarize(config, store.seat_records(config.name))
        data = summary.to_dict()
        data["db"] = db
        data["plots"] = list(PLOTS) if summary.games else []
        return data

    def games(self, db: str, name: str, offset: int, limit: int) -> dict[str, Any]:
        """Stored games `offset..offset+limit` (index, seed, seats, returns, winners)."""
        from epigames.tournament import TournamentStore

        path = self._readable(db)
        with TournamentStore.open(path, read_only=True) as store:
            config = self._get(store, name)
            rows = store.rows(config.name)
        page = rows[offset : offset + limit]
        return {
            "total": len(rows),
            "offset": offset,
            "games": [
                {
                    "index": r.index,
                    "seed": r.seed,
                    "strategies": list(r.strategies),
                    "returns": list(r.returns),
                    "winners": list(r.winners),
                    "moves": r.moves,
                }
                for r in page
            ],
        }

    def game(self, db: str, name: str, index: int) -> tuple[str, tuple[str, ...], int]:
        """The game string, seats' strategies and seed of stored game `index`.

        Raises:
            SessionError: no such game stored (404).
        """
        from epigames.tournament import TournamentStore

        path = self._readable(db)
        with TournamentStore.open(path, read_only=True) as store:
            config = self._get(store, name)
            for row in store.rows(config.name):
                if row.index == index:
                    return config.game, row.strategies, row.seed
        raise SessionError(f"tournament {name!r} in {db} has no stored game {index}", 404)

    def plot(self, db: str, name: str, plot: str) -> Path:
        """The SVG file of one plot, drawn once per file state and cached."""
        from epigames.tournament import TournamentStore, summarize
        from epigames.tournament.plots import write_plots

        if plot not in PLOTS:
            raise SessionError(f"no plot {plot!r}; choose one of: {', '.join(PLOTS)}", 404)
        path = self._readable(db)
        stamp = f"{path.stat().st_mtime_ns}-{path.stat().st_size}"
        out = self._plot_dir / re.sub(r"[^A-Za-z0-9_.-]", "_", f"{db}-{name}-{stamp}")
        target = out / f"{plot}.svg"
        with self._lock:
            if not target.exists():
                with TournamentStore.open(path, read_only=True) as store:
                    config = self._get(store, name)
                    records = store.seat_records(config.name)
                    summary = summarize(config, records)
                write_plots(summary, records, out)
        return target

    @staticmethod
    def _get(store: Any, name: str) -> Any:
        """The stored tournament `name`; unknown is a 404 here (a missing resource)."""
        from epigames.tournament import UnknownTournamentError

        try:
            return store.get(name)
        except UnknownTournamentError as exc:
            raise SessionError(str(exc), 404) from None

    def _readable(self, db: str) -> Path:
        path = self.path(db)
        if self.busy(db):
            raise SessionError(
                f"a tournament is being played into {db}; its results can be read when it ends",
                409,
            )
        return path

    # --- jobs -------------------------------------------------------------------------

    def start(
        self,
        db: str,
        name: str,
        game: str,
        strategies: list[str],
        games: int,
        seed: int,
        seats: str = "rotate",
        client: str = "",
    ) -> Job:
        """Start a small tournament in a background thread for a client; returns its job.

        `seats` is the seat scheme (`tournament.SEAT_SCHEMES`).

        Raises:
            InputError: bad game, strategies, size or file name.
            SessionError: the file is busy (409); too many jobs running, on the server or
                for this client (429).
        """
        from epigames.tournament import checked_config

        path = self.path(db, must_exist=False)
        if games > MAX_WEB_GAMES:
            raise InputError(
                f"{games} games is more than the web page starts ({MAX_WEB_GAMES}); "
                "use `epigames tournament` for big runs"
            )
        config = checked_config(game, strategies, games, seed=seed, seat_scheme=seats, name=name)
        with self._lock:
            active = [j for j in self.jobs.values() if j.state in ACTIVE]
            if any(j.db == db for j in active):
                raise SessionError(f"a tournament is already being played into {db}", 409)
            mine = sum(1 for j in active if j.client == client)
            if mine >= self.max_jobs_per_client:
                raise SessionError(
                    f"you already run {mine} tournament(s), the most one client may; wait "
                    "for it to end or cancel it",
                    429,
                )
            if len(active) >= self.max_jobs:
                raise SessionError(
                    f"the server already runs {len(active)} tournaments, its most; try "
                    "again when one ends",
                    429,
                )
            self._forget_finished()
            job = Job(uuid.uuid4().hex[:12], db, config.name, config.games, client=client)
            self.jobs[job.id] = job
        thread = threading.Thread(
            target=job.run, args=(config, path, self.match, self.scrub), daemon=True
        )
        thread.start()
        return job

    def _forget_finished(self) -> None:
        finished = [j for j in self.jobs.values() if j.state not in ACTIVE]
        for old in finished[: max(0, len(finished) - KEEP_FINISHED_JOBS)]:
            del self.jobs[old.id]

    def cancel(self, job_id: str, client: str = "") -> Job:
        """Ask a job to stop (it stops before its next game and keeps the stored games).

        Raises:
            SessionError: unknown (404), another client's (403).
        """
        job = self.job(job_id)
        if job.client != client:
            raise SessionError("this tournament was started by another client", 403)
        job.cancel()
        return job

    def job(self, job_id: str) -> Job:
        """A job by id.

        Raises:
            SessionError: unknown (404).
        """
        with self._lock:
            job = self.jobs.get(job_id)
        if job is None:
            raise SessionError(f"no tournament job {job_id!r}", 404)
        return job


class JobCancelled(BaseException):
    """Raised inside a cancelled job's run to stop it.

    A BaseException, so that the runner's per-game error handling (which turns an
    Exception into a failed match) lets it through; the runner stores the finished games
    first, as for Ctrl-C.
    """


@dataclass
class Job:
    """A tournament being played for the page; also its progress sink.

    `state` is running, cancelling (asked to stop, not stopped yet), done, cancelled or
    failed.
    """

    id: str
    db: str
    name: str
    total: int
    done: int = 0
    state: str = "running"
    error: str = ""
    client: str = field(default="", repr=False)
    started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    # Guards `state`: a cancel and the job's end may race.
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def start(self, done: int, total: int) -> None:
        """Progress: the runner starts with `done` of `total` stored."""
        self.done, self.total = done, total

    def advance(self, games: int) -> None:
        """Progress: more games finished; a cancelled job stops here or at its next game."""
        self.done += games
        if self._stop.is_set():
            raise JobCancelled

    def cancel(self) -> None:
        """Ask the job to stop; no effect once it has ended."""
        self._stop.set()
        with self._lock:
            if self.state == "running":
                self.state = "cancelling"

    def run(
        self,
        config: Any,
        path: Path,
        match: MatchFunction | None = None,
        scrub: Callable[[str], str] = str,
    ) -> None:
        """Play the tournament (one worker, in this thread: the server shares the machine)."""
        from epigames.games import play_match
        from epigames.tournament import TournamentStore, run_tournament

        play = match or play_match

        def checked_match(game: str, strategies: Sequence[str], seed: int) -> Any:
            if self._stop.is_set():
                raise JobCancelled
            return play(game, strategies, seed)

        state, error = "done", ""
        try:
            with TournamentStore.open(path) as store:
                run_tournament(config, store, jobs=1, match=checked_match, progress=self)
        except JobCancelled:
            state = "cancelled"
        except Exception as exc:  # shown on the page; the server keeps running
            state, error = "failed", scrub(f"{type(exc).__name__}: {exc}")
        with self._lock:
            self.seconds = time.monotonic() - self.started
            self.state, self.error = state, error

    def to_dict(self) -> dict[str, Any]:
        """JSON values for the client."""
        elapsed = self.seconds or (time.monotonic() - self.started)
        return {
            "id": self.id,
            "db": self.db,
            "name": self.name,
            "done": self.done,
            "total": self.total,
            "state": self.state,
            "error": self.error,
            "seconds": round(elapsed, 2),
        }
