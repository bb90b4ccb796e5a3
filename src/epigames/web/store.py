"""The web app's games in memory: `SessionStore`, bounded in all and per client.

A client is a browser (the server's cookie plus its address). Idle games are evicted,
games a person is still playing are kept from other clients' load, and why each recent
id went away is remembered so a 404 can say.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import KW_ONLY, dataclass, field
from typing import TypedDict

from epigames.web.budget import PlayBudget
from epigames.web.session import Session, SessionError


class StoreLimits(TypedDict, total=False):
    """`SessionStore`'s limits as keyword arguments; `create_app(**limits)` passes them on."""

    max_sessions: int
    idle_seconds: float
    max_per_client: int
    max_played_per_address: int
    max_gone: int
    budget: PlayBudget


@dataclass(eq=False)
class SessionStore:
    """The sessions in memory: bounded per client and in all, idle ones evicted.

    A client (a browser: the server's cookie plus its address) holds at most
    `max_per_client` games; starting one more evicts its own least recently used game
    (watched ones before played ones). When the server holds `max_sessions`, a new game
    evicts the least recently used game of the client holding the most, but never a game a
    person is still playing: other clients' load cannot end it, only its own client,
    closing it or `idle_seconds` without use. When every game held is being played, or an
    address already plays `max_played_per_address` games, a new game is refused (429).
    Why an id went away is kept for the last `max_gone` ids, so a 404 can say.

    Attributes:
        max_sessions: most sessions held in all.
        idle_seconds: a session unused this long is evicted at the next sweep.
        max_per_client: most sessions one client holds.
        max_played_per_address: most unfinished played games from one address (a client
            that drops its cookie is a new client each time, but keeps its address).
        max_gone: how many ids' reasons for going away are remembered.
        budget: how much one request may play of a session, and how much one session
            holds; every session added gets it.
    """

    max_sessions: int = 200
    idle_seconds: float = 900.0
    _: KW_ONLY
    max_per_client: int = 20
    max_played_per_address: int = 50
    max_gone: int = 4096
    budget: PlayBudget = field(default_factory=PlayBudget)
    _sessions: OrderedDict[str, Session] = field(
        default_factory=OrderedDict, init=False, repr=False
    )
    _gone: OrderedDict[str, str] = field(default_factory=OrderedDict, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __len__(self) -> int:
        return len(self._sessions)

    def add(self, session: Session, client: str = "", address: str = "") -> Session:
        """Store a new session for a client, evicting games to make room (see the class).

        Raises:
            SessionError: no game may be evicted for it (429).
        """
        session.client, session.address = client, address
        session.budget = self.budget
        with self._lock:
            self._sweep_locked()
            if session.human is not None and address:
                playing = sum(
                    1 for s in self._sessions.values() if s.address == address and _playing(s)
                )
                if playing >= self.max_played_per_address:
                    raise SessionError(
                        f"your address already plays {playing} unfinished games, the most "
                        "the server allows; finish or close one first",
                        429,
                    )
            mine = [s for s in self._sessions.values() if s.client == client]
            # Watched games go before played ones, each kind least recently used first.
            mine.sort(key=_playing)
            while len(mine) >= self.max_per_client:
                self._evict(
                    mine.pop(0).id,
                    f"it was evicted because its client started more than "
                    f"{self.max_per_client} games (a client's least recently used go first)",
                )
            while len(self._sessions) >= self.max_sessions:
                victim = self._victim()
                if victim is None:
                    raise SessionError(
                        f"the server holds {len(self._sessions)} games that people are "
                        "playing, its most; try again when one ends",
                        429,
                    )
                self._evict(
                    victim,
                    f"it was evicted to make room: the server holds at most "
                    f"{self.max_sessions} games (the least recently used game of the client "
                    "holding the most goes first; games being played are kept)",
                )
            self._sessions[session.id] = session
        return session

    def _victim(self) -> str | None:
        """The session to evict for another client: never a game being played."""
        counts: dict[str, int] = {}
        for s in self._sessions.values():
            counts[s.client] = counts.get(s.client, 0) + 1
        best: tuple[int, str] | None = None
        for s in self._sessions.values():  # least recently used first
            if _playing(s):
                continue
            if best is None or counts[s.client] > best[0]:
                best = (counts[s.client], s.id)
        return None if best is None else best[1]

    def _evict(self, session_id: str, reason: str) -> None:
        del self._sessions[session_id]
        self._gone[session_id] = reason
        self._gone.move_to_end(session_id)
        while len(self._gone) > self.max_gone:
            self._gone.popitem(last=False)

    def why_gone(self, session_id: str) -> str:
        """A sentence saying why no session has this id."""
        reason = self._gone.get(session_id)
        if reason is None:
            return "no game was started with this id (or it went away long ago)"
        return reason

    def get(self, session_id: str) -> Session:
        """The session with this id, marked as used.

        Raises:
            SessionError: unknown, closed or evicted (404; the detail says which).
        """
        with self._lock:
            self._sweep_locked()
            session = self._sessions.get(session_id)
            if session is None:
                raise SessionError(
                    f"no game {session_id!r}: {self.why_gone(session_id)}; start a new one",
                    404,
                )
            self._sessions.move_to_end(session_id)
            session.touch()
            return session

    @contextmanager
    def using(self, session_id: str) -> Iterator[Session]:
        """The session, locked for one request (requests run on several threads)."""
        session = self.get(session_id)
        with session.lock:
            yield session

    def remove(self, session_id: str) -> bool:
        """Close a session; False when it did not exist."""
        with self._lock:
            if session_id not in self._sessions:
                return False
            self._evict(session_id, "it was closed")
            return True

    def sweep(self) -> int:
        """Evict idle sessions now; returns how many were evicted."""
        with self._lock:
            return self._sweep_locked()

    def _sweep_locked(self) -> int:
        limit = time.monotonic() - self.idle_seconds
        stale = [sid for sid, s in self._sessions.items() if s.last_used < limit]
        for sid in stale:
            self._evict(sid, f"it was evicted after {self.idle_seconds:.0f} s unused")
        return len(stale)


def _playing(session: Session) -> bool:
    """Whether a person is playing the session and it is not over."""
    return session.human is not None and not session.finished
