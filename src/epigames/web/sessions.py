"""Games held in memory by the web app: watched matches and games a person plays.

A `Session` is one game: its config, the strategy per seat, the seed, the full history
(actions and chance outcomes) and one *frame* per decision point. Frame `k` is the state
before decision `k` (after any chance moves), so frame `k + 1` shows decision `k`'s result;
the last frame is the terminal state, or in a game being played the state now.

States of frames are rebuilt by replaying the history from checkpoints (cheap clones
every `CHECKPOINT_EVERY` frames), so a session keeps one live state and a few clones, not
a state per frame. `SessionStore` bounds the number of sessions and evicts idle ones.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from epigames.errors import EpigamesError, InputError
from epigames.games import (
    CHANCE,
    Game,
    Match,
    State,
    TranscriptEntry,
    load_game,
    strategies_for,
)

#: The strategy name that marks the seat a person plays.
HUMAN = "human"
#: A clone of the state is kept every this many frames, to step back cheaply.
CHECKPOINT_EVERY = 24
#: View fields that hold a seat's private items (cards, dice); used to keep agents'
#: thoughts that mention them from other seats.
PRIVATE_FIELDS = ("hand", "cup", "dice", "roll")
#: The largest seed a client may choose (tournament seeds are 63-bit).
MAX_SEED = 2**63 - 1


class SessionError(EpigamesError):
    """A request about a session that cannot be served; `status` is the HTTP status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a session.

    Attributes:
        seat: who decided.
        action: the action's text (`game.action_to_string`).
        thought: the agent's reason ("" for a person's move).
        first_event: index into the full event log of the first event it caused.
        thought_for: the seats allowed to read the thought: the decider, and every seat
            for which it names none of another seat's private items (see
            `private_items`); None until `Session.ensure_readers` works it out.
    """

    seat: int
    action: str
    thought: str
    first_event: int
    thought_for: frozenset[int] | None


def private_items(view: object) -> set[str]:
    """The private items (card or die texts) a seat's view holds: its `PRIVATE_FIELDS`.

    Read from the view's attributes (not `to_dict()`, which also lists legal actions:
    this runs once per seat for every decision of a game).
    """
    items: set[str] = set()
    for key in PRIVATE_FIELDS:
        value = getattr(view, key, None)
        if value is None or callable(value):
            continue
        if isinstance(value, list | tuple | set | frozenset):
            items.update(str(v) for v in value)
        else:
            items.add(str(value))
    return items


def mentions(text: str, item: str) -> bool:
    """Whether `text` names `item` as a whole word (`A` is not named by `Ann`)."""
    return re.search(rf"(?<!\w){re.escape(item)}(?!\w)", text) is not None


def seat_items(state: State) -> list[set[str]]:
    """Each seat's private items now (from its own view)."""
    n = state.game.num_players
    return [private_items(state.observation(s)) for s in range(n)]


def thought_readers(
    seat: int, thought: str, private: Sequence[set[str]], public_text: str
) -> frozenset[int]:
    """The seats that may read `seat`'s thought.

    A thought may name items that only some seats can see ("I hold ⟨8,1⟩"). A seat may
    read it only when it names no private item (`private`: per seat, before the move) of
    any *other* seat, except items the move's own public events name anyway
    (`public_text`).
    """
    everything = set().union(*private)
    # A plain substring test first: most items are not in the thought at all.
    named = {
        item
        for item in everything
        if item in thought and mentions(thought, item) and not mentions(public_text, item)
    }
    if not named:
        return frozenset(range(len(private)))
    readers = {seat}
    for viewer in range(len(private)):
        others = set().union(*(private[s] for s in range(len(private)) if s != viewer))
        if not named & others:
            readers.add(viewer)
    return frozenset(readers)


@dataclass
class Session:
    """One game in memory; see the module docstring for frames.

    Attributes:
        id: the unguessable id clients use.
        game: the game.
        strategies: strategy name per seat (`HUMAN` at a person's seat).
        seed: the match seed (kept from a person playing until the game ends).
        human: the seat a person plays, or None when the session is watched.
        history: every action and chance outcome so far.
        frames: the history length at each frame.
        event_counts: the length of the full event log at each frame.
        decisions: decision `k` leads from frame `k` to frame `k + 1`.
        origin: where the game came from (e.g. a tournament and game index), for display.
        client: the client that started it (see `SessionStore`); address: its address.
    """

    id: str
    game: Game
    strategies: tuple[str, ...]
    seed: int
    human: int | None = None
    history: list[Hashable] = field(default_factory=list)
    frames: list[int] = field(default_factory=list)
    event_counts: list[int] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    origin: str = ""
    client: str = field(default="", repr=False)
    address: str = field(default="", repr=False)
    last_used: float = field(default_factory=time.monotonic)
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    # The live state (at the end of the history) and checkpoints: frame -> clone.
    _head: State | None = field(default=None, repr=False)
    _checkpoints: dict[int, State] = field(default_factory=dict, repr=False)
    _cursor: tuple[int, State] | None = field(default=None, repr=False)
    # The match that plays the game (None for a replayed history).
    _match: Match | None = field(default=None, repr=False)
    _picture_cache: OrderedDict[tuple[int, str, int | None], Any] = field(
        default_factory=OrderedDict, repr=False
    )
    # Decisions before this index have their `thought_for` worked out.
    _readers_done: int = field(default=0, repr=False)

    # --- building -------------------------------------------------------------------

    @property
    def head(self) -> State:
        """The state at the end of the history."""
        assert self._head is not None
        return self._head

    @property
    def last_frame(self) -> int:
        """The index of the latest frame."""
        return len(self.frames) - 1

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.head.is_terminal()

    def _mark_frame(self) -> None:
        frame = len(self.frames)
        self.frames.append(len(self.history))
        self.event_counts.append(len(self.head.events))
        if frame % CHECKPOINT_EVERY == 0:
            self._checkpoints[frame] = self.head.clone()

    def _apply(self, action: Hashable) -> None:
        self.head.apply(action)
        self.history.append(action)

    def _decide(self, seat: int, action: Hashable) -> None:
        """Apply a replayed player's action and record it (the state checks legality)."""
        first = len(self.head.events)
        self._apply(action)
        self._record(TranscriptEntry(seat, action, "", first))

    def _record(self, entry: TranscriptEntry) -> None:
        """Record a decision that was just applied to the head.

        Who may read a thought is left for `ensure_readers`: a watched game makes hundreds
        of decisions at once, and most are never seen from a seat.
        """
        self.history.extend(self.head.history[len(self.history) :])
        readers = None if entry.thought else frozenset(range(self.game.num_players))
        text = self.game.action_to_string(entry.action)
        self.decisions.append(Decision(entry.seat, text, entry.thought, entry.first_event, readers))
        if readers is not None and self._readers_done == len(self.decisions) - 1:
            self._readers_done += 1

    def _run_chance(self) -> None:
        assert self._match is not None
        self._match.run_chance()
        self.history.extend(self.head.history[len(self.history) :])

    def ensure_readers(self, upto: int) -> None:
        """Work out `thought_for` of decisions `0..upto-1` (once; on a private replay)."""
        done = self._readers_done
        upto = min(upto, len(self.decisions))
        if done >= upto:
            return
        start = max(f for f in self._checkpoints if f <= done)
        state = self._checkpoints[start].clone()
        for action in self.history[self.frames[start] : self.frames[done]]:
            state.apply(action)
        events = self.head.events
        for k in range(done, upto):
            dec = self.decisions[k]
            private = seat_items(state) if dec.thought_for is None else None
            for action in self.history[self.frames[k] : self.frames[k + 1]]:
                state.apply(action)
            if private is not None:
                happened = events[dec.first_event : self.event_counts[k + 1]]
                public = " ".join(e.text for e in happened if e.public)
                readers = thought_readers(dec.seat, dec.thought, private, public)
                self.decisions[k] = dataclasses.replace(dec, thought_for=readers)
        self._readers_done = upto

    def advance_agents_from_start(self) -> None:
        """Mark the first frame (after the opening chance moves), then let agents play."""
        self._run_chance()
        self._mark_frame()
        self.advance_agents()

    def advance_agents(self) -> int:
        """Let agents move (with chance in between) until a person's turn or the end.

        Returns:
            How many decisions the agents made.
        """
        match = self._match
        assert match is not None
        made = 0
        while not match.over and match.waiting_for() is None:
            self._record(match.step())
            self._after_move()
            made += 1
        return made

    def _after_move(self) -> None:
        """Mark the frame after a decision: the state once its chance moves are done."""
        self._run_chance()
        self._mark_frame()

    def play(self, seat: int, action_text: str) -> int:
        """Play a person's move, then the agents' moves up to the person's next turn.

        Returns:
            How many decisions were added (the person's and the agents').

        Raises:
            SessionError: not a played session, another seat, not its turn, game over
                (403/409); InputError: unreadable or illegal action (the state is unchanged).
        """
        if self.human is None:
            raise SessionError("this game is watched, not played: nobody can move in it", 409)
        if seat != self.human:
            names = self.game.seat_names
            raise SessionError(
                f"you play {names[self.human]} (seat {self.human}), not "
                f"{names[seat] if 0 <= seat < len(names) else seat}",
                403,
            )
        state = self.head
        if state.is_terminal():
            raise SessionError("the game is over; start a new one", 409)
        if state.current_player != seat:
            whose = self.game.seat_names[state.current_player]
            raise SessionError(f"it is not your turn: {whose} is to move", 409)
        action = self.game.parse_action(action_text)
        assert self._match is not None
        self._record(self._match.apply(action))  # raises IllegalActionError, state unchanged
        self._after_move()
        self._cursor = None
        return 1 + self.advance_agents()

    # --- frames ---------------------------------------------------------------------

    def check_frame(self, frame: int) -> int:
        """`frame` if it exists (negative counts from the end), else a 404 SessionError."""
        last = self.last_frame
        if frame < 0:
            frame += last + 1
        if not 0 <= frame <= last:
            raise SessionError(f"no frame {frame} in this game; frames are 0..{last}", 404)
        return frame

    def state_at(self, frame: int) -> State:
        """The state at a frame (do not modify it: it may be cached)."""
        frame = self.check_frame(frame)
        if frame == self.last_frame:
            return self.head
        cursor = self._cursor
        if cursor is not None and cursor[0] == frame:
            return cursor[1]
        # Start from the nearest checkpoint at or before the frame, or the cursor when it
        # is nearer (stepping forward one frame at a time applies one decision).
        start = max(f for f in self._checkpoints if f <= frame)
        if cursor is not None and start < cursor[0] < frame:
            state = cursor[1]
            start = cursor[0]
        else:
            state = self._checkpoints[start].clone()
        for action in self.history[self.frames[start] : self.frames[frame]]:
            state.apply(action)
        self._cursor = (frame, state)
        return state

    def picture_cached(
        self, frame: int, subject: str, seat: int | None, build: Callable[[], Any]
    ) -> Any:
        """A per-session cache of the few latest pictures (building one may take a while)."""
        key = (frame, subject, seat)
        cache = self._picture_cache
        if key in cache:
            cache.move_to_end(key)
            return cache[key]
        value = build()
        cache[key] = value
        while len(cache) > 64:
            cache.popitem(last=False)
        return value

    def touch(self) -> None:
        """Mark the session as used now (for idle eviction)."""
        self.last_used = time.monotonic()


def check_strategies(game: Game, strategies: Sequence[str], human: int | None) -> tuple[str, ...]:
    """One registered strategy per seat (the person's seat may say `human` or anything).

    Raises:
        InputError: wrong count or an unknown strategy.
    """
    names = list(strategies)
    n = game.num_players
    if len(names) != n:
        raise InputError(
            f"{game} has {n} seats ({', '.join(game.seat_names)}) but {len(names)} "
            f"strategies were given; give one per seat"
        )
    known = strategies_for(game.name)
    for seat, name in enumerate(names):
        if seat == human:
            names[seat] = HUMAN
        elif name not in known:
            raise InputError(
                f"unknown strategy {name!r} for {game.name} at {game.seat_names[seat]}; "
                f"choose one of: {', '.join(known) or '(none registered)'}"
            )
    return tuple(names)


def _new_id() -> str:
    return secrets.token_urlsafe(12)


def watch_session(
    game_text: str, strategies: Sequence[str], seed: int, origin: str = ""
) -> Session:
    """A watched game, played to the end by a `Match` and kept as frames.

    The same (game, strategies, seed) gives the same game as a tournament or the CLI.
    """
    game = load_game(game_text)
    names = check_strategies(game, strategies, None)
    session = Session(_new_id(), game, names, seed, origin=origin)
    session._match = Match(game, names, seed)
    session._head = session._match.state
    session.advance_agents_from_start()
    return session


def replay_session(game_text: str, history: Sequence[Hashable], origin: str = "") -> Session:
    """A watched session of a given history (actions and chance outcomes; no thoughts).

    The history may stop anywhere; its last frame is where it stops.

    Raises:
        IllegalActionError: the history holds an illegal action.
    """
    game = load_game(game_text)
    session = Session(_new_id(), game, ("?",) * game.num_players, 0, origin=origin)
    session._head = game.new_initial_state()
    state = session.head
    actions = iter(history)
    while True:
        while state.current_player == CHANCE:
            outcome = next(actions, None)
            if outcome is None:
                break
            session._apply(outcome)
        if state.current_player == CHANCE:
            break
        session._mark_frame()
        action = next(actions, None)
        if action is None or state.is_terminal():
            break
        session._decide(state.current_player, action)
    return session


def play_session(
    game_text: str, strategies: Sequence[str], human: int, seed: int | None = None
) -> Session:
    """A game a person plays at seat `human` against agents; agents move up to its turn.

    The seed is drawn by the server unless given, and kept from the person until the game
    ends: with the seed, a spectator replay would show the deal.
    """
    game = load_game(game_text)
    if not 0 <= human < game.num_players:
        raise InputError(f"no seat {human} in {game}; seats are 0..{game.num_players - 1}")
    names = check_strategies(game, strategies, human)
    if seed is None:
        seed = secrets.randbelow(2**63)
    session = Session(_new_id(), game, names, seed, human=human)
    session._match = Match(game, names, seed, humans=(human,))
    session._head = session._match.state
    session.advance_agents_from_start()
    return session


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

    Args:
        max_sessions: most sessions held in all.
        idle_seconds: a session unused this long is evicted at the next sweep.
        max_per_client: most sessions one client holds.
        max_played_per_address: most unfinished played games from one address (a client
            that drops its cookie is a new client each time, but keeps its address).
        max_gone: how many ids' reasons for going away are remembered.
    """

    def __init__(
        self,
        max_sessions: int = 200,
        idle_seconds: float = 900.0,
        *,
        max_per_client: int = 20,
        max_played_per_address: int = 50,
        max_gone: int = 4096,
    ) -> None:
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self.max_per_client = max_per_client
        self.max_played_per_address = max_played_per_address
        self.max_gone = max_gone
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._gone: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sessions)

    def add(self, session: Session, client: str = "", address: str = "") -> Session:
        """Store a new session for a client, evicting games to make room (see the class).

        Raises:
            SessionError: no game may be evicted for it (429).
        """
        session.client, session.address = client, address
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
