"""Tables: one game for several people, each at a seat of their own, kept in a database.

A table is a `Session` whose person seats (`Session.persons`) are played by people in
their own browsers; the other seats are agents. Each person seat has a token: whoever
holds it plays that seat and sees only what that seat sees, and nothing else (a reload or
another device with the same token comes back to the seat). The token is never stored,
only its SHA-256.

Every table and every person's move is a row in an SQLite file (standard library), and a
move is committed before it is answered, so a server killed at any moment loses no move
it acknowledged. When the store opens, each table is rebuilt by replaying it: the agents
are seeded, so playing the match again and applying the stored moves in order gives the
same game, frame for frame. A finished table leaves memory (the last few stay): it is
replayed from the file when asked for again, and a restart replays only games in progress.

Each table has a `version` that grows with every move; `wait` lets a request or a
WebSocket sleep until it changes, so moves reach every browser at once. What is pushed is
the table's public status only (`status`); each client then asks for its own seat's frame.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from epigames.errors import EpigamesError, InputError
from epigames.games import Match, load_game
from epigames.web.budget import UNLIMITED
from epigames.web.builders import check_strategies
from epigames.web.middleware import log
from epigames.web.session import HUMAN, Session, SessionError

__all__ = ["PERSON", "Table", "TableStore"]

#: What a seat of a new table says when a person is to play it.
PERSON = "person"
#: Most games in progress a store holds.
MAX_TABLES = 1_000
#: Most finished tables kept in memory (the least recently used; the others are replayed
#: from the database when asked for again).
ENDED_IN_MEMORY = 64

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, strategies TEXT NOT NULL, seed TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, token_hash TEXT NOT NULL UNIQUE,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Table:
    """One table in memory: its session, which token plays which seat, and its version.

    Attributes:
        id: the table's id (in its links; it grants nothing by itself).
        session: the game (`Session.persons` are the person seats).
        seats: token hash -> seat.
        moves: how many person moves it holds (the next move's number in the database).
        version: grows with every change; `wait` sleeps until it does.
    """

    id: str
    session: Session
    seats: dict[str, int]
    moves: int = 0
    version: int = 0
    _waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[int]]] = field(
        default_factory=list, repr=False
    )
    _guard: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def seat_of(self, token: str) -> int:
        """The seat a token plays.

        Raises:
            SessionError: not a token of this table (403).
        """
        seat = self.seats.get(_hash(token))
        if seat is None:
            raise SessionError("this seat token does not belong to this table", 403)
        return seat

    def status(self) -> dict[str, Any]:
        """What every browser at the table may know: no card, roll or thought."""
        session = self.session
        state = session.head
        return {
            "table": self.id,
            "version": self.version,
            "game": str(session.game),
            "seat_names": list(session.game.seat_names),
            "persons": sorted(session.persons),
            "last_frame": session.last_frame,
            "to_move": state.current_player,
            "finished": session.finished,
        }

    def changed(self) -> None:
        """Count a change and wake everything waiting for one (from any thread)."""
        with self._guard:
            self.version += 1
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            loop.call_soon_threadsafe(_settle, future, self.version)

    async def wait(self, after: int, timeout: float) -> int:
        """The version once it is past `after`, or the version now after `timeout` s."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        with self._guard:
            if self.version > after:
                return self.version
            self._waiters.append((loop, future))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return self.version
        finally:
            with self._guard:
                if (loop, future) in self._waiters:
                    self._waiters.remove((loop, future))


def _settle(future: asyncio.Future[int], version: int) -> None:
    if not future.done():
        future.set_result(version)


class TableStore:
    """The tables of a server, in memory and in an SQLite file.

    Args:
        path: the database file (made if missing); None keeps tables in memory only.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = None if path is None else Path(path)
        target = ":memory:" if self.path is None else str(self.path)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            rows = self._db.execute(
                "SELECT id, game, strategies, seed FROM tables WHERE finished = 0"
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise InputError(f"{target} is not a tables database ({exc})") from None
        self._lock = threading.Lock()
        self._tables: dict[str, Table] = {}  # the games in progress
        self._ended: OrderedDict[str, Table] = OrderedDict()  # a few finished ones
        for row in rows:
            try:
                self._keep(self._reopen(*row))
            except (EpigamesError, ValueError) as exc:
                # Kept in the file, untouched: a later version may replay it again.
                log.error("table %s could not be replayed and is left out: %s", row[0], exc)

    def __len__(self) -> int:
        """How many games in progress the store holds."""
        return len(self._tables)

    def _keep(self, table: Table) -> None:
        """Hold a table in memory: with the games in progress, or among the last ended."""
        if not table.session.finished:
            self._tables[table.id] = table
            return
        self._tables.pop(table.id, None)
        self._ended[table.id] = table
        self._ended.move_to_end(table.id)
        while len(self._ended) > ENDED_IN_MEMORY:
            self._ended.popitem(last=False)

    def close(self) -> None:
        """Close the database (the tables stay in it)."""
        with self._lock:
            self._db.close()

    def create(
        self, game_text: str, seats: Sequence[str], seed: int | None = None
    ) -> tuple[Table, dict[int, str]]:
        """A new table: `seats` holds a strategy name or `PERSON` per seat.

        Returns:
            The table and, per person seat, its token (to hand to whoever plays it).

        Raises:
            InputError: an unknown game or strategy, the wrong number of seats, or no
                person seat; SessionError: the store is full (429).
        """
        game = load_game(game_text)
        persons = frozenset(s for s, name in enumerate(seats) if name == PERSON)
        strategies = check_strategies(game, seats, persons, PERSON)
        if not persons:
            raise InputError(f"a table needs a person: make at least one seat {PERSON!r}")
        if len(self._tables) >= MAX_TABLES:
            raise SessionError(f"the server holds {MAX_TABLES} tables; try again later", 429)
        seed = secrets.randbelow(2**63) if seed is None else seed
        tid = secrets.token_urlsafe(9)
        tokens = {seat: secrets.token_urlsafe(18) for seat in sorted(persons)}
        table = Table(tid, self._session(tid, str(game), strategies, seed), {})
        table.seats = {_hash(t): seat for seat, t in tokens.items()}
        with self._lock:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?)",
                (tid, str(game), json.dumps(strategies), str(seed), int(table.session.finished)),
            )
            self._db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?)",
                [(tid, seat, _hash(t)) for seat, t in tokens.items()],
            )
            self._db.execute("COMMIT")
            self._keep(table)
        return table, tokens

    def get(self, tid: str) -> Table:
        """The table with this id.

        Raises:
            SessionError: no such table (404).
        """
        table = self._tables.get(tid) or self._ended.get(tid)
        if table is not None:
            return table
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, strategies, seed FROM tables WHERE id = ?", (tid,)
            ).fetchone()
        if row is None:
            raise SessionError(f"no table {tid!r}", 404)
        try:
            table = self._reopen(*row)
        except (EpigamesError, ValueError) as exc:
            raise SessionError(f"table {tid!r} can no longer be replayed: {exc}", 404) from None
        with self._lock:
            self._keep(table)
        return table

    def play(self, tid: str, token: str, action: str) -> Table:
        """The token's seat plays `action`; then the agents play to a person's turn.

        The move is in the database before this returns.

        Raises:
            SessionError: unknown table (404) or token (403), not the seat's turn or the
                game over (409); InputError: an unreadable or illegal action.
        """
        table = self.get(tid)
        seat = table.seat_of(token)
        session = table.session
        with session.lock:
            n = table.moves
            session.play(seat, action)
            with self._lock:
                self._db.execute("BEGIN")
                self._db.execute(
                    "INSERT INTO moves VALUES (?, ?, ?, ?)", (tid, n, seat, action.strip())
                )
                if session.finished:
                    self._db.execute("UPDATE tables SET finished = 1 WHERE id = ?", (tid,))
                self._db.execute("COMMIT")
                self._keep(table)
            table.moves = n + 1
        table.changed()
        return table

    @staticmethod
    def _session(tid: str, game: str, strategies: tuple[str, ...], seed: int) -> Session:
        loaded = load_game(game)
        persons = frozenset(s for s, name in enumerate(strategies) if name == HUMAN)
        session = Session(tid, loaded, strategies, seed, persons=persons, budget=UNLIMITED)
        session.drive(Match(loaded, strategies, seed, humans=tuple(sorted(persons))))
        return session

    def _reopen(self, tid: str, game: str, strategies: str, seed: str) -> Table:
        """A stored table rebuilt: the match played again with its stored moves."""
        session = self._session(tid, game, tuple(json.loads(strategies)), int(seed))
        query = "SELECT token_hash, seat FROM seats WHERE table_id = ?"
        seats = dict(self._db.execute(query, (tid,)).fetchall())
        moves = self._db.execute(
            "SELECT seat, action FROM moves WHERE table_id = ? ORDER BY n", (tid,)
        ).fetchall()
        for seat, action in moves:
            session.play(seat, action)
        return Table(tid, session, seats, moves=len(moves))
