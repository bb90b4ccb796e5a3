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

A table also has a watch token for spectators (public information while the game runs),
an optional turn clock (a person who lets it run out has that move played by an agent),
and stand-ins: a person may hand their seat to an agent and take it back later. Every
move a stand-in or the clock plays is stored like a person's, with who made it, so a
replay needs no agent but the match's own.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import random
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from epigames.errors import EpigamesError, InputError
from epigames.games import Match, load_game
from epigames.games.strategy import SearchStrategy, Strategy, make_strategy
from epigames.web.budget import UNLIMITED
from epigames.web.builders import check_strategies
from epigames.web.middleware import log
from epigames.web.session import HUMAN, Session, SessionError

__all__ = ["CLOCK_SECONDS", "PERSON", "Table", "TableStore"]

#: What a seat of a new table says when a person is to play it.
PERSON = "person"
#: Most games in progress a store holds.
MAX_TABLES = 1_000
#: Most finished tables kept in memory (the least recently used; the others are replayed
#: from the database when asked for again).
ENDED_IN_MEMORY = 16
#: The shortest and longest turn clock a table may have, in seconds.
CLOCK_SECONDS = (10, 3600)
#: A person seat with no open WebSocket and no long poll for this long is away: another
#: person at the table may hand it to an agent (a long poll asks again within 20 s).
AWAY_SECONDS = 45.0
#: Who made a stored move: the person, the agent they handed their seat to, the clock.
BY_PERSON, BY_AGENT, BY_CLOCK = "person", "agent", "clock"

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
#: Columns added since the first tables files: a file without them gets them on opening.
_ADDED = (
    ("tables", "clock", "INTEGER"),
    ("tables", "watch_hash", "TEXT"),
    ("seats", "agent", "TEXT"),
    ("moves", "by", f"TEXT NOT NULL DEFAULT '{BY_PERSON}'"),
)


_TABLE_ROW = "SELECT id, game, strategies, seed, clock, watch_hash FROM tables"


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
        watch: the spectators' token's hash ("" for none).
        clock: seconds a person has for a move, or None for no clock.
        deadline: when the person to move runs out (`time.time()`), or None.
        agents: person seats an agent plays now (seat -> strategy name).
    """

    id: str
    session: Session
    seats: dict[str, int]
    moves: int = 0
    version: int = 0
    watch: str = ""
    clock: int | None = None
    deadline: float | None = None
    agents: dict[int, str] = field(default_factory=dict)
    _stand_ins: dict[int, Strategy] = field(default_factory=dict, repr=False)
    # Open WebSockets per seat, and when each seat last asked with the long poll.
    _sockets: dict[int, int] = field(default_factory=dict, repr=False)
    _polled: dict[int, float] = field(default_factory=dict, repr=False)
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
            if self.watch and _hash(token) == self.watch:
                raise SessionError("a spectator cannot do this: it takes a seat's token", 403)
            raise SessionError("this seat token does not belong to this table", 403)
        return seat

    def viewer(self, token: str) -> int | None:
        """The seat a token plays, or None for the spectators' token.

        Raises:
            SessionError: neither (403).
        """
        if self.watch and _hash(token) == self.watch:
            return None
        return self.seat_of(token)

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
            "clock": self.clock,
            "deadline": self.deadline,
            "agents": {str(seat): name for seat, name in sorted(self.agents.items())},
            "away": self.away(),
        }

    def connected(self, seat: int | None, change: int) -> None:
        """Count a seat's WebSocket opening (+1) or closing (-1); spectators are not counted."""
        if seat is not None:
            with self._guard:
                self._sockets[seat] = self._sockets.get(seat, 0) + change

    def polled(self, seat: int | None) -> None:
        """Note that a seat asked with the long poll just now."""
        if seat is not None:
            self._polled[seat] = time.monotonic()

    def away(self) -> list[int]:
        """The person seats nobody holds: no open WebSocket, no long poll for
        `AWAY_SECONDS` (agents' seats are not away: an agent plays them)."""
        now = time.monotonic()
        return [
            seat
            for seat in sorted(self.session.persons)
            if seat not in self.agents
            and not self._sockets.get(seat)
            and now - self._polled.get(seat, -AWAY_SECONDS) >= AWAY_SECONDS
        ]

    def _set_deadline(self) -> None:
        """Start the clock for the person to move (none for an agent or at the end)."""
        to_move = self.session.head.current_player
        running = to_move in self.session.persons and to_move not in self.agents
        if self.clock is None or self.session.finished or not running:
            self.deadline = None
        else:
            self.deadline = time.time() + self.clock

    def stand_in(self, seat: int, name: str, salt: str) -> Strategy:
        """A strategy for a person seat that decides from that seat's view only.

        Its randomness is seeded from the table, the seat and `salt`, so the same request
        gets the same answer.
        """
        session = self.session
        agent = make_strategy(
            session.game.name, name, random.Random(f"{session.seed}/{seat}/{salt}/{name}")
        )
        if isinstance(agent, SearchStrategy):
            # It searches worlds resampled from the seat's view, never the true state.
            agent.bind(functools.partial(_resample, session, seat))
        return agent

    def changed(self) -> None:
        """Count a change and wake everything waiting for one (from any thread)."""
        with self._guard:
            self.version += 1
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            loop.call_soon_threadsafe(_settle, future, self.version)

    async def wait(self, after: int, timeout: float) -> int:
        """The version once it differs from `after`, or the version now after `timeout` s.

        A version above this table's comes from before a restart (stand-ins count as
        changes but are not replayed as moves): answered at once, so the client catches up.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        with self._guard:
            if self.version != after:
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


def _resample(session: Session, seat: int, rng: random.Random) -> Any:
    return session.head.resample(seat, rng)


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
            for name, column, kind in _ADDED:
                have = {row[1] for row in self._db.execute(f"PRAGMA table_info({name})")}
                if column not in have:
                    self._db.execute(f"ALTER TABLE {name} ADD COLUMN {column} {kind}")
            rows = self._db.execute(f"{_TABLE_ROW} WHERE finished = 0").fetchall()
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
        self,
        game_text: str,
        seats: Sequence[str],
        seed: int | None = None,
        clock: int | None = None,
    ) -> tuple[Table, dict[int, str], str]:
        """A new table: `seats` holds a strategy name or `PERSON` per seat.

        Args:
            game_text: the game and its setting.
            seats: a strategy name or `PERSON` per seat.
            seed: the match seed (None: a random one).
            clock: seconds a person has for each move (`CLOCK_SECONDS`), or None.

        Returns:
            The table, per person seat its token (to hand to whoever plays it), and the
            spectators' token.

        Raises:
            InputError: an unknown game or strategy, the wrong number of seats, no person
                seat, or a clock out of range; SessionError: the store is full (429).
        """
        game = load_game(game_text)
        persons = frozenset(s for s, name in enumerate(seats) if name == PERSON)
        strategies = check_strategies(game, seats, persons, PERSON)
        if not persons:
            raise InputError(f"a table needs a person: make at least one seat {PERSON!r}")
        low, high = CLOCK_SECONDS
        if clock is not None and not low <= clock <= high:
            raise InputError(f"clock {clock} s: a turn clock is {low} to {high} seconds, or none")
        if len(self._tables) >= MAX_TABLES:
            raise SessionError(f"the server holds {MAX_TABLES} tables; try again later", 429)
        seed = secrets.randbelow(2**63) if seed is None else seed
        tid = secrets.token_urlsafe(9)
        tokens = {seat: secrets.token_urlsafe(18) for seat in sorted(persons)}
        watch = secrets.token_urlsafe(18)
        table = Table(tid, self._session(tid, str(game), strategies, seed), {})
        table.seats = {_hash(t): seat for seat, t in tokens.items()}
        table.watch, table.clock = _hash(watch), clock
        table._set_deadline()
        with self._lock:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO tables (id, game, strategies, seed, finished, clock, watch_hash)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (tid, str(game), json.dumps(strategies), str(seed), int(table.session.finished),
                 clock, table.watch),
            )  # fmt: skip
            self._db.executemany(
                "INSERT INTO seats (table_id, seat, token_hash) VALUES (?, ?, ?)",
                [(tid, seat, _hash(t)) for seat, t in tokens.items()],
            )
            self._db.execute("COMMIT")
            self._keep(table)
        return table, tokens, watch

    def get(self, tid: str) -> Table:
        """The table with this id.

        Raises:
            SessionError: no such table (404).
        """
        table = self._tables.get(tid) or self._ended.get(tid)
        if table is not None:
            return table
        with self._lock:
            row = self._db.execute(f"{_TABLE_ROW} WHERE id = ?", (tid,)).fetchone()
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
        with table.session.lock:
            if seat in table.agents:
                name = table.agents[seat]
                raise SessionError(f"{name} plays this seat now; take it back first", 409)
            self._move(table, seat, action, BY_PERSON)
            self._drive(table)
        table.changed()
        return table

    def _move(self, table: Table, seat: int, action: str, by: str) -> None:
        """Play a person seat's move and store it before anything else happens."""
        session = table.session
        n = table.moves
        session.play(seat, action)
        with self._lock:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO moves (table_id, n, seat, action, by) VALUES (?, ?, ?, ?, ?)",
                (table.id, n, seat, action.strip(), by),
            )
            if session.finished:
                self._db.execute("UPDATE tables SET finished = 1 WHERE id = ?", (table.id,))
            self._db.execute("COMMIT")
            self._keep(table)
        table.moves = n + 1
        table._set_deadline()

    def _agent_move(self, table: Table, seat: int, name: str, by: str) -> None:
        """Let a stand-in `name` make the seat's move from the seat's view."""
        agent = table._stand_ins.get(seat)
        if agent is None or by == BY_CLOCK:
            agent = table.stand_in(seat, name, f"move {table.moves}")
            if by == BY_AGENT:
                table._stand_ins[seat] = agent
        session = table.session
        decision = agent.choose(session.head.observation(seat))
        self._move(table, seat, session.game.action_to_string(decision.action), by)

    def _drive(self, table: Table) -> None:
        """Let the stand-ins play while a seat handed to one is to move."""
        session = table.session
        while not session.finished and session.head.current_player in table.agents:
            seat = session.head.current_player
            self._agent_move(table, seat, table.agents[seat], BY_AGENT)

    def hand_over(self, tid: str, token: str, strategy: str, seat: int | None = None) -> Table:
        """An agent plays a person seat from now on: the token's own (its person leaves),
        or another that is `away` (its person left without saying so).

        Raises:
            SessionError: unknown table (404) or token (403), the game over, or the other
                seat not a person's or not away (409); InputError: an unknown strategy.
        """
        table = self.get(tid)
        mine = table.seat_of(token)
        session = table.session
        with session.lock:
            if session.finished:
                raise SessionError("the game is over; nobody needs to play this seat", 409)
            if seat is None or seat == mine:
                seat = mine
            elif seat not in session.persons or seat in table.agents:
                raise SessionError(f"seat {seat} is not a person's seat to hand over", 409)
            elif seat not in table.away():
                name = session.game.seat_names[seat]
                raise SessionError(f"{name} is still at the table: only they can leave it", 409)
            table.stand_in(seat, strategy, "check")  # an unknown name fails here
            self._set_agent(table, seat, strategy)
            table._set_deadline()
            self._drive(table)
        table.changed()
        return table

    def take_back(self, tid: str, token: str) -> Table:
        """The token's person plays its seat again (no change if it already does).

        Raises:
            SessionError: unknown table (404) or token (403).
        """
        table = self.get(tid)
        seat = table.seat_of(token)
        with table.session.lock:
            if seat in table.agents:
                self._set_agent(table, seat, None)
                table._set_deadline()
        table.changed()
        return table

    def _set_agent(self, table: Table, seat: int, strategy: str | None) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE seats SET agent = ? WHERE table_id = ? AND seat = ?",
                (strategy, table.id, seat),
            )
        table._stand_ins.pop(seat, None)
        if strategy is None:
            table.agents.pop(seat, None)
        else:
            table.agents[seat] = strategy

    def coach(self, tid: str, token: str, strategy: str) -> dict[str, Any]:
        """What `strategy` would play at the token's seat now, and why, from its view.

        Raises:
            SessionError: unknown table (404) or token (403), not the seat's turn (409);
                InputError: an unknown strategy.
        """
        table = self.get(tid)
        seat = table.seat_of(token)
        session = table.session
        with session.lock:
            state = session.head
            if session.finished or state.current_player != seat:
                raise SessionError("the coach answers at your turn only", 409)
            agent = table.stand_in(seat, strategy, f"coach {session.last_frame}")
            decision = agent.choose(state.observation(seat))
        return {
            "strategy": strategy,
            "action": session.game.action_to_string(decision.action),
            "thought": decision.thought.text,
        }

    def expire(self, now: float) -> int:
        """Play, with the game's default strategy, the move of every person whose clock ran
        out by `now`; returns how many moves were played."""
        with self._lock:
            late = [t for t in self._tables.values() if t.deadline and t.deadline <= now]
        played = 0
        for table in late:
            session = table.session
            with session.lock:
                if table.deadline is None or table.deadline > now or session.finished:
                    continue  # a move came in meanwhile
                seat = session.head.current_player
                self._agent_move(table, seat, session.game.default_strategy, BY_CLOCK)
                self._drive(table)
            table.changed()
            played += 1
        return played

    @staticmethod
    def _session(tid: str, game: str, strategies: tuple[str, ...], seed: int) -> Session:
        loaded = load_game(game)
        persons = frozenset(s for s, name in enumerate(strategies) if name == HUMAN)
        session = Session(tid, loaded, strategies, seed, persons=persons, budget=UNLIMITED)
        session.drive(Match(loaded, strategies, seed, humans=tuple(sorted(persons))))
        return session

    def _reopen(
        self,
        tid: str,
        game: str,
        strategies: str,
        seed: str,
        clock: int | None,
        watch: str | None,
    ) -> Table:
        """A stored table rebuilt: the match played again with its stored moves."""
        session = self._session(tid, game, tuple(json.loads(strategies)), int(seed))
        query = "SELECT token_hash, seat, agent FROM seats WHERE table_id = ?"
        rows = self._db.execute(query, (tid,)).fetchall()
        moves = self._db.execute(
            "SELECT seat, action FROM moves WHERE table_id = ? ORDER BY n", (tid,)
        ).fetchall()
        for seat, action in moves:
            session.play(seat, action)
        # The version goes on from the moves, not from 0: a browser that saw the table
        # before the restart then takes the next change as new.
        seats = {token: seat for token, seat, _ in rows}
        table = Table(tid, session, seats, moves=len(moves), version=len(moves))
        table.watch, table.clock = watch or "", clock
        table.agents = {seat: agent for _, seat, agent in rows if agent is not None}
        # A stand-in to move when the server stopped plays on; the clock starts again.
        self._drive(table)
        table._set_deadline()
        return table
