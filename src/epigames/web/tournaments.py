"""The tournaments page's back end: result files in a directory, summaries, plots, jobs.

Only public functions of `epigames.tournament` are used. Files are named by their base
name inside the server's `--db-dir` (never by a path), so a client cannot reach other
files. A small tournament started from the page runs in a background thread with one
worker; its progress is polled.
"""

from __future__ import annotations

import re
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from epigames.errors import InputError
from epigames.web.sessions import SessionError

#: What a results file may be called (a base name: no directories).
DB_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,80}\.duckdb$")
#: The plots the tournament package draws.
PLOTS = ("win_rates", "returns", "lengths", "seat_advantage")
#: Most games a tournament started from the page may have.
MAX_WEB_GAMES = 5000


class TournamentDir:
    """The result files in one directory, and the tournament jobs started on them.

    Args:
        root: the directory (`epigames serve --db-dir`); None when the server has none.
    """

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self.jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._plot_dir = Path(tempfile.mkdtemp(prefix="epigames-plots-"))

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
            return any(j.db == db and j.state == "running" for j in self.jobs.values())

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
                entry["error"] = str(exc)
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
        self, db: str, name: str, game: str, strategies: list[str], games: int, seed: int
    ) -> Job:
        """Start a small tournament in a background thread; returns its job.

        Raises:
            InputError: bad game, strategies, size or file name.
            SessionError: the file is busy (409).
        """
        from epigames.tournament import checked_config

        path = self.path(db, must_exist=False)
        if games > MAX_WEB_GAMES:
            raise InputError(
                f"{games} games is more than the web page starts ({MAX_WEB_GAMES}); "
                "use `epigames tournament` for big runs"
            )
        config = checked_config(game, strategies, games, seed=seed, name=name)
        with self._lock:
            if any(j.db == db and j.state == "running" for j in self.jobs.values()):
                raise SessionError(f"a tournament is already being played into {db}", 409)
            job = Job(uuid.uuid4().hex[:12], db, config.name, config.games)
            self.jobs[job.id] = job
        thread = threading.Thread(target=job.run, args=(config, path), daemon=True)
        thread.start()
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


@dataclass
class Job:
    """A tournament being played for the page; also its progress sink."""

    id: str
    db: str
    name: str
    total: int
    done: int = 0
    state: str = "running"
    error: str = ""
    started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0

    def start(self, done: int, total: int) -> None:
        """Progress: the runner starts with `done` of `total` stored."""
        self.done, self.total = done, total

    def advance(self, games: int) -> None:
        """Progress: more games finished."""
        self.done += games

    def run(self, config: Any, path: Path) -> None:
        """Play the tournament (one worker; the server shares the machine)."""
        from epigames.tournament import TournamentStore, run_tournament

        try:
            with TournamentStore.open(path) as store:
                run_tournament(config, store, jobs=1, progress=self)
            self.state = "done"
        except Exception as exc:  # shown on the page; the server keeps running
            self.error = f"{type(exc).__name__}: {exc}"
            self.state = "failed"
        self.seconds = time.monotonic() - self.started

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
