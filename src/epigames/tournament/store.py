"""The DuckDB results file: a table of tournaments and a table of games, one row per game.

A file is only ever written after it has been checked, read-only, to be an epigames
results file of a known schema whose data can be read back. A file that is foreign,
corrupt or locked, or whose stored tournament differs from the one asked for, is refused
with a clear message and left byte for byte as it was.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from epigames.errors import InputError
from epigames.tournament.config import GameRow, TournamentConfig
from epigames.tournament.extras import import_extra

#: Marks a DuckDB file as ours (`epigames_meta.format`).
FORMAT = "epigames-tournaments"
#: Bumped whenever the tables below change incompatibly.
SCHEMA_VERSION = "1"

_SCHEMA = (
    "CREATE TABLE epigames_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)",
    """CREATE TABLE tournaments (
        name VARCHAR PRIMARY KEY,
        game VARCHAR NOT NULL,
        strategies VARCHAR[] NOT NULL,
        seat_scheme VARCHAR NOT NULL,
        seed BIGINT NOT NULL,
        games BIGINT NOT NULL,
        code_version VARCHAR NOT NULL,
        created TIMESTAMP NOT NULL
    )""",
    """CREATE TABLE games (
        tournament VARCHAR NOT NULL,
        game_index BIGINT NOT NULL,
        game_seed BIGINT NOT NULL,
        strategies VARCHAR[] NOT NULL,
        returns DOUBLE[] NOT NULL,
        winners INTEGER[] NOT NULL,
        moves INTEGER NOT NULL,
        seconds DOUBLE NOT NULL,
        capped BOOLEAN NOT NULL DEFAULT false,
        PRIMARY KEY (tournament, game_index)
    )""",
)

#: Expected columns per table, to recognise our own files (and refuse lookalikes).
_COLUMNS = {
    "epigames_meta": ["key", "value"],
    "tournaments": [
        "name",
        "game",
        "strategies",
        "seat_scheme",
        "seed",
        "games",
        "code_version",
        "created",
    ],
    "games": [
        "tournament",
        "game_index",
        "game_seed",
        "strategies",
        "returns",
        "winners",
        "moves",
        "seconds",
        "capped",
    ],
}
#: The games table before it had `capped` (files written then are read, and extended
#: with the column when opened for writing: their games were all counted as finished).
_GAMES_WITHOUT_CAPPED = _COLUMNS["games"][:-1]


class StoreError(InputError):
    """A results file that cannot be used as asked; it was not modified."""


class ForeignFileError(StoreError):
    """A file that is not an epigames results file (or not a DuckDB file at all)."""


class CorruptFileError(StoreError):
    """An epigames results file whose data cannot be read back."""


class ConfigMismatchError(StoreError):
    """The file holds a tournament of this name with a different configuration."""


class UnknownTournamentError(StoreError):
    """No tournament of the asked name in the file."""


class NoResultsError(StoreError):
    """Opening for reading a file that is missing, or an empty DuckDB file."""


def _duckdb() -> Any:
    return import_extra("duckdb", "tournament", "tournaments need", StoreError)


def _check_file(path: Path) -> bool | str:
    """Check an existing file read-only; True when it is ours, False when it is empty DuckDB,
    `"legacy"` when it is ours from before the `capped` column.

    Raises:
        ForeignFileError, CorruptFileError, StoreError: see the messages.
    """
    duckdb = _duckdb()
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error as exc:
        text = str(exc)
        if "could not set lock" in text.lower() or "conflicting lock" in text.lower():
            raise StoreError(
                f"{path} is in use by another process (DuckDB allows one writer); "
                "wait for it to finish or use another results file"
            ) from None
        if "not a valid DuckDB database" in text:
            raise ForeignFileError(
                f"{path} is not a DuckDB file; refusing to touch it. "
                "Use another results file (a new one is created)"
            ) from None
        raise CorruptFileError(
            f"{path} cannot be opened as a results file ({text.splitlines()[0]}); "
            "it was left unchanged. Use another results file"
        ) from None
    try:
        tables = {
            row[0]: row[1]
            for row in con.execute(
                "SELECT table_name, list(column_name ORDER BY ordinal_position) "
                "FROM information_schema.columns WHERE table_schema = 'main' GROUP BY table_name"
            ).fetchall()
        }
        if not tables:
            return False
        meta: dict[str, str] = {}
        if tables.get("epigames_meta") == _COLUMNS["epigames_meta"]:
            meta = dict(con.execute("SELECT key, value FROM epigames_meta").fetchall())
        if meta.get("format") != FORMAT:
            raise ForeignFileError(
                f"{path} is a DuckDB file but not an epigames results file "
                f"(tables: {', '.join(sorted(tables))}); refusing to touch it. "
                "Use another results file"
            )
        if meta.get("schema_version") != SCHEMA_VERSION:
            raise ForeignFileError(
                f"{path} is an epigames results file of schema version "
                f"{meta.get('schema_version')!r}; this epigames reads version {SCHEMA_VERSION}"
            )
        legacy = tables.get("games") == _GAMES_WITHOUT_CAPPED
        for table, columns in _COLUMNS.items():
            if tables.get(table) != columns and not (table == "games" and legacy):
                raise CorruptFileError(
                    f"{path}: table {table!r} has columns {tables.get(table)}, "
                    f"expected {columns}; refusing to touch it"
                )
        # Read every column of every row, so damaged blocks fail their checksums here
        # rather than after we have started writing.
        con.execute(
            "SELECT count(*), sum(game_index), sum(game_seed % 1000), sum(len(strategies)),"
            " sum(list_sum(returns)), sum(len(winners)), sum(moves), sum(seconds),"
            " count(DISTINCT tournament) FROM games"
        ).fetchall()
        con.execute("SELECT * FROM tournaments").fetchall()
        return "legacy" if legacy else True
    except duckdb.Error as exc:
        raise CorruptFileError(
            f"{path} is damaged: DuckDB cannot read it back "
            f"({str(exc).splitlines()[0]}); it was left unchanged"
        ) from None
    finally:
        con.close()


class TournamentStore:
    """An open results file.

    Use `TournamentStore.open(path)` (creates the file when missing) as a context manager.
    Only one process may have a file open for writing; readers use `read_only=True`.
    """

    def __init__(self, path: Path, connection: Any, read_only: bool) -> None:
        self.path = path
        self._con = connection
        self.read_only = read_only
        #: How queries read `capped`: the column, or false in an older file read-only.
        self._capped = "capped"

    @classmethod
    def open(cls, path: str | Path, *, read_only: bool = False) -> TournamentStore:
        """Open (and when writable and missing, create) a results file.

        Raises:
            StoreError: missing file for reading; foreign, corrupt or locked file.
        """
        duckdb = _duckdb()
        path = Path(path)
        exists = path.exists()
        if exists and path.is_dir():
            raise StoreError(f"{path} is a directory; expected a results file name")
        ours = _check_file(path) if exists else False
        if read_only and not ours:
            raise NoResultsError(
                f"{path} holds no tournaments"
                if exists
                else f"no results file {path}; run `epigames tournament` first"
            )
        try:
            con = duckdb.connect(str(path), read_only=read_only)
        except duckdb.Error as exc:
            raise StoreError(f"cannot open {path}: {str(exc).splitlines()[0]}") from None
        store = cls(path, con, read_only)
        if not ours:
            store._create_schema()
        elif ours == "legacy" and read_only:
            store._capped = "false"
        elif ours == "legacy":
            with store._transaction():
                con.execute("ALTER TABLE games ADD COLUMN capped BOOLEAN DEFAULT false")
        return store

    def _create_schema(self) -> None:
        with self._transaction():
            for statement in _SCHEMA:
                self._con.execute(statement)
            self._con.execute(
                "INSERT INTO epigames_meta VALUES ('format', ?), ('schema_version', ?)",
                [FORMAT, SCHEMA_VERSION],
            )

    def close(self) -> None:
        """Close the file (committed data is on disk)."""
        self._con.close()

    def __enter__(self) -> TournamentStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._con.execute("BEGIN TRANSACTION")
        try:
            yield
        except BaseException:
            self._con.execute("ROLLBACK")
            raise
        self._con.execute("COMMIT")

    # -- tournaments -------------------------------------------------------------------

    def tournaments(self) -> list[TournamentConfig]:
        """Every tournament in the file, oldest first."""
        rows = self._con.execute(
            "SELECT name, game, strategies, games, seed, seat_scheme, code_version "
            "FROM tournaments ORDER BY created, name"
        ).fetchall()
        return [
            TournamentConfig(
                name=r[0],
                game=r[1],
                strategies=tuple(r[2]),
                games=int(r[3]),
                seed=int(r[4]),
                seat_scheme=r[5],
                code_version=r[6],
            )
            for r in rows
        ]

    def get(self, name: str | None = None) -> TournamentConfig:
        """The tournament called `name`; without a name, the file's only tournament.

        Raises:
            UnknownTournamentError: no such tournament, or several and no name given.
        """
        found = self.tournaments()
        names = ", ".join(repr(t.name) for t in found) or "(none)"
        if name is None:
            if len(found) == 1:
                return found[0]
            raise UnknownTournamentError(
                f"{self.path} holds {len(found)} tournaments ({names}); choose one with --name"
            )
        for config in found:
            if config.name == name:
                return config
        raise UnknownTournamentError(f"no tournament {name!r} in {self.path}; it holds: {names}")

    def prepare(self, config: TournamentConfig) -> TournamentConfig:
        """Register `config`, or check it against the stored tournament of the same name.

        A larger `games` extends the stored tournament; anything else that differs is
        refused.

        Raises:
            ConfigMismatchError: the stored tournament differs (the file is unchanged).
        """
        try:
            stored = self.get(config.name)
        except UnknownTournamentError:
            with self._transaction():
                self._con.execute(
                    "INSERT INTO tournaments VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        config.name,
                        config.game,
                        list(config.strategies),
                        config.seat_scheme,
                        config.seed,
                        config.games,
                        config.code_version,
                        dt.datetime.now(dt.UTC).replace(tzinfo=None),
                    ],
                )
            return config
        self._check_same(config, stored)
        if config.games > stored.games:
            with self._transaction():
                self._con.execute(
                    "UPDATE tournaments SET games = ? WHERE name = ?", [config.games, config.name]
                )
        return config

    def _check_same(self, config: TournamentConfig, stored: TournamentConfig) -> None:
        diffs = stored.differences(config)
        if diffs:
            raise ConfigMismatchError(
                f"{self.path} already holds tournament {config.name!r} with another "
                f"configuration ({'; '.join(diffs)}); it was not changed. "
                "Give the new tournament another name, or use another results file"
            )
        if config.games < stored.games:
            raise ConfigMismatchError(
                f"{self.path} holds tournament {config.name!r} of {stored.games} games; "
                f"asked for {config.games}. A tournament can be extended but not shrunk: "
                f"ask for {stored.games} games (or see `epigames report`), or give another name"
            )

    def is_complete(self, config: TournamentConfig) -> bool:
        """Whether the file holds every game of `config`; checks it as `prepare` does.

        Needs no write access, so a finished tournament can be reported from a file that
        cannot be written.

        Raises:
            ConfigMismatchError: the stored tournament differs.
        """
        try:
            stored = self.get(config.name)
        except UnknownTournamentError:
            return False
        self._check_same(config, stored)
        return stored.games == config.games and self.count(config.name) == config.games

    # -- games ---------------------------------------------------------------------------

    def count(self, name: str) -> int:
        """How many games of the tournament are stored."""
        row = self._con.execute(
            "SELECT count(*) FROM games WHERE tournament = ?", [name]
        ).fetchone()
        return int(row[0]) if row else 0

    def done_mask(self, name: str, games: int) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """A boolean array of length `games`: True where game `i` is stored."""
        mask = np.zeros(games, dtype=np.bool_)
        result = self._con.execute(
            "SELECT game_index FROM games WHERE tournament = ? AND game_index < ?", [name, games]
        ).fetchnumpy()
        mask[np.asarray(result["game_index"], dtype=np.int64)] = True
        return mask

    def write(self, name: str, rows: Sequence[GameRow]) -> None:
        """Store finished games in one transaction (all or none)."""
        if not rows:
            return
        # One INSERT of column lists; DuckDB zips the unnests. Far cheaper than executemany.
        columns: list[Any] = [
            name,
            [r.index for r in rows],
            [r.seed for r in rows],
            [list(r.strategies) for r in rows],
            [list(r.returns) for r in rows],
            [list(r.winners) for r in rows],
            [r.moves for r in rows],
            [r.seconds for r in rows],
            [r.capped for r in rows],
        ]
        with self._transaction():
            self._con.execute(
                "INSERT INTO games SELECT ?, unnest(?), unnest(?), unnest(?), unnest(?),"
                " unnest(?), unnest(?), unnest(?), unnest(?)",
                columns,
            )

    def rows(self, name: str) -> list[GameRow]:
        """Every stored game of the tournament, by game index."""
        result = self._con.execute(
            "SELECT game_index, game_seed, strategies, returns, winners, moves, seconds, "
            f"{self._capped} FROM games WHERE tournament = ? ORDER BY game_index",
            [name],
        ).fetchall()
        return [
            GameRow(
                index=int(r[0]),
                seed=int(r[1]),
                strategies=tuple(r[2]),
                returns=tuple(float(x) for x in r[3]),
                winners=tuple(int(x) for x in r[4]),
                moves=int(r[5]),
                seconds=float(r[6]),
                capped=bool(r[7]),
            )
            for r in result
        ]

    def seat_records(self, name: str) -> dict[str, np.ndarray[Any, Any]]:
        """One record per (game, seat), ordered by game index then seat, as numpy columns.

        Columns: `game_index`, `seat`, `strategy`, `ret`, `won` (the seat is among the
        winners), `n_winners`, `moves`, `capped` (the game stopped at its cap).
        """
        result: dict[str, np.ndarray[Any, Any]] = self._con.execute(
            "SELECT game_index, seat, strategies[seat + 1] AS strategy,"
            " returns[seat + 1] AS ret, list_contains(winners, seat::INTEGER) AS won,"
            f" len(winners) AS n_winners, moves, {self._capped} AS capped"
            " FROM (SELECT *, unnest(range(len(strategies))) AS seat"
            "       FROM games WHERE tournament = ?)"
            " ORDER BY game_index, seat",
            [name],
        ).fetchnumpy()
        return {key: np.asarray(value) for key, value in result.items()}
