"""One game in memory: a `Session`, its frames and the moves recorded in it.

A `Session` is one game: its config, the strategy per seat, the seed, the full history
(actions and chance outcomes) and one *frame* per decision point. Frame `k` is the state
before decision `k` (after any chance moves), so frame `k + 1` shows decision `k`'s result;
the last frame is the terminal state, or in a game being played the state now.

States of frames are rebuilt by replaying the history from checkpoints (cheap clones
every `CHECKPOINT_EVERY` frames, further apart in a long game), so a session keeps one live
state and a few clones, not a state per frame. `web.builders` makes sessions;
`web.store.SessionStore` holds them.

A watched game may be played lazily (`ahead`): its agents play only as far as the frames
asked for, plus `ahead` frames, so starting a game costs a few moves instead of the whole
game (most viewers watch a part of it), and the frames are the same as when played at once.

Agents play within the session's `budget` (`web.budget.PlayBudget`): one request plays so
much and no more (a request that could not reach its frame gets a 503, `PlayBudgetError`),
and a session holds so many frames in all.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from epigames.errors import EpigamesError
from epigames.games import CHANCE, Game, Match, State, TranscriptEntry
from epigames.games.picture import KripkePicture
from epigames.games.strategy import NO_THOUGHT, Thought
from epigames.web.budget import UNLIMITED, PlayBudget

#: The strategy name that marks the seat a person plays.
HUMAN = "human"
#: A clone of the state is kept every this many frames, to step back cheaply.
CHECKPOINT_EVERY = 24
#: Most checkpoints a session keeps: past them every other one goes (`Session._mark_frame`).
MAX_CHECKPOINTS = 32
#: Most pictures a session keeps built (building one may take a while).
PICTURE_CACHE = 64
#: A frame whose log tail has at most this many entries, and that replays at most
#: `CHECKPOINT_EVERY` moves, is cheap (`Session.cheap`): about a millisecond to serve.
CHEAP_ENTRIES = 200
#: `Session.to_play` for "the rest of the game", however long it is.
ALL = 1 << 30
#: A watched game started from the web app is played this many frames ahead of the frame
#: asked for (`Session.ahead`): a step forward then plays one move.
AHEAD = 30


class SessionError(EpigamesError):
    """A request about a session that cannot be served; `status` is the HTTP status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class PlayBudgetError(SessionError):
    """A request whose budget ran out before the agents reached its frame (503).

    The moves played so far stay: asking again plays on from `last_frame`.
    """

    def __init__(self, message: str, last_frame: int) -> None:
        super().__init__(message, 503)
        self.last_frame = last_frame


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One recorded move of a session: who moved, what, and why.

    Not `games.strategy.Decision` (what a strategy returns): this is the session's
    record of a move already applied. Its action and thought are the mover's private
    observations; `web.views.log_entries` shows them to the spectator and the mover only.

    Attributes:
        seat: who decided.
        action: the action's text (`game.action_to_string`).
        thought: the agent's reason (empty for a person's move).
        first_event: index into the full event log of the first event it caused.
    """

    seat: int
    action: str
    thought: Thought
    first_event: int


@dataclass
class Session:
    """One game in memory; see the module docstring for frames.

    Attributes:
        id: the unguessable id clients use.
        game: the game.
        strategies: strategy name per seat (`HUMAN` at a person's seat).
        seed: the match seed (kept from a person playing until the game ends).
        human: the seat a person plays, or None when the session is watched or is a
            table's (`web.tables`).
        persons: every seat a person plays (`human` among them): a table has several.
        history: every action and chance outcome so far.
        frames: the history length at each frame.
        event_counts: the length of the full event log at each frame.
        decisions: decision `k` leads from frame `k` to frame `k + 1`.
        origin: where the game came from (e.g. a tournament and game index), for display.
        client: the client that started it (see `SessionStore`); address: its address.
        ahead: in a watched game played lazily, how many frames past the one asked for
            are played (see the module docstring); None: played to the end at once.
        budget: how much one request may play, and how much the session holds in all
            (`SessionStore.add` gives it the server's; by default there is no bound).
    """

    id: str
    game: Game
    strategies: tuple[str, ...]
    seed: int
    human: int | None = None
    persons: frozenset[int] = frozenset()
    history: list[Hashable] = field(default_factory=list)
    frames: list[int] = field(default_factory=list)
    event_counts: list[int] = field(default_factory=list)
    decisions: list[MoveRecord] = field(default_factory=list)
    origin: str = ""
    ahead: int | None = None
    client: str = field(default="", repr=False)
    address: str = field(default="", repr=False)
    last_used: float = field(default_factory=time.monotonic)
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    budget: PlayBudget = field(default=UNLIMITED, repr=False)
    # The live state (at the end of the history) and checkpoints: frame -> clone, one
    # every `_spacing` frames.
    _head: State | None = field(default=None, repr=False)
    _checkpoints: dict[int, State] = field(default_factory=dict, repr=False)
    _spacing: int = field(default=CHECKPOINT_EVERY, repr=False)
    # Why the agents last stopped short of their goal (a budget ran out), or None.
    _short: str | None = field(default=None, repr=False)
    _cursor: tuple[int, State] | None = field(default=None, repr=False)
    # The match that plays the game (None for a replayed history).
    _match: Match | None = field(default=None, repr=False)
    _picture_cache: OrderedDict[tuple[int, str, int | None], KripkePicture] = field(
        default_factory=OrderedDict, repr=False
    )

    def __post_init__(self) -> None:
        if self.human is not None:
            self.persons = self.persons | {self.human}

    @property
    def played(self) -> bool:
        """Whether people play in it (it is not only watched)."""
        return bool(self.persons)

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
        """Whether the game is over (in a lazily played game: played to its end)."""
        return self.head.is_terminal()

    @property
    def complete(self) -> bool:
        """Whether every frame there will be is played (the game is over, or a person is
        to move): asking for any frame then plays nothing."""
        match = self._match
        return match is None or match.over or match.waiting_for() is not None or self.full

    @property
    def full(self) -> bool:
        """Whether the session holds its most frames or events (`budget`): its agents stop
        there, even before the game's end."""
        budget = self.budget
        return (
            self.last_frame >= budget.session_frames
            or len(self.head.events) >= budget.session_events
        )

    def _mark_frame(self) -> None:
        frame = len(self.frames)
        self.frames.append(len(self.history))
        self.event_counts.append(len(self.head.events))
        if frame % self._spacing == 0:
            self._checkpoints[frame] = self.head.clone()
            # A clone copies the log, so checkpoints every few frames would take memory
            # growing with the square of the game's length (1.6 GB for 37,000 Kemps moves).
            # Halving them when there are too many keeps it linear; stepping back in a
            # long game replays more moves instead.
            if len(self._checkpoints) > MAX_CHECKPOINTS:
                self._spacing *= 2
                self._checkpoints = {
                    f: state for f, state in self._checkpoints.items() if f % self._spacing == 0
                }

    def _apply(self, action: Hashable) -> None:
        self.head.apply(action)
        self.history.append(action)

    def _decide(self, seat: int, action: Hashable) -> None:
        """Apply a replayed player's action and record it (the state checks legality)."""
        first = len(self.head.events)
        self._apply(action)
        self._record(TranscriptEntry(seat, action, NO_THOUGHT, first))

    def _record(self, entry: TranscriptEntry) -> None:
        """Record a decision that was just applied to the head."""
        self.history.extend(self.head.history[len(self.history) :])
        text = self.game.action_to_string(entry.action)
        self.decisions.append(MoveRecord(entry.seat, text, entry.thought, entry.first_event))

    def _run_chance(self) -> None:
        assert self._match is not None
        self._match.run_chance()
        self.history.extend(self.head.history[len(self.history) :])

    def drive(self, match: Match) -> None:
        """Let `match` play the game from its start: agents move up to a person's turn.

        The match's state becomes the head; the first frame is marked after the opening
        chance moves, then the agents play until a person's turn or the end (in a lazily
        played game: `ahead` frames).
        """
        self._match = match
        self._head = match.state
        self._run_chance()
        self._mark_frame()
        self.advance_agents(self.ahead)

    def load_history(self, history: Iterable[Hashable]) -> None:
        """Replay a history (actions and chance outcomes; no thoughts) from a new deal.

        The history may stop anywhere; the last frame is where it stops.

        Raises:
            IllegalActionError: the history holds an illegal action.
        """
        self._head = state = self.game.new_initial_state()
        actions = iter(history)
        while True:
            while state.current_player == CHANCE:
                outcome = next(actions, None)
                if outcome is None:
                    break
                self._apply(outcome)
            if state.current_player == CHANCE:
                break
            self._mark_frame()
            action = next(actions, None)
            if action is None or state.is_terminal():
                break
            self._decide(state.current_player, action)

    def advance_agents(self, upto: int | None = None) -> int:
        """Let agents move (with chance in between) until a person's turn or the end.

        They also stop when this call's share of the `budget` runs out (`_short` says why;
        the next call plays on) or the session is `full`.

        Args:
            upto: stop once this frame is played (None: go on to a person's turn or the end).

        Returns:
            How many decisions the agents made.
        """
        match = self._match
        assert match is not None
        made = 0
        meter = self.budget.meter()
        events = len(self.head.events)
        self._short = None
        while not match.over and match.waiting_for() is None and not self.full:
            if upto is not None and self.last_frame >= upto:
                break
            short = meter.spent(made, len(self.head.events) - events)
            if short is not None:
                self._short = short
                break
            self._record(match.step())
            self._after_move()
            made += 1
            meter.moved(made)
        return made

    def to_play(self, frame: int) -> int:
        """How many frames asking for `frame` makes the agents play: in a lazily played
        game up to `ahead` past it; for a negative `frame` (from the end), or in a game
        whose agents a budget stopped before a person's turn, all the rest, counted as
        `ALL`."""
        if self.complete:
            return 0
        if self.ahead is None or frame < 0:
            return ALL
        return max(0, frame + self.ahead - self.last_frame)

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
        if not self.persons:
            raise SessionError("this game is watched, not played: nobody can move in it", 409)
        if seat not in self.persons:
            names = self.game.seat_names
            mine = self.human if self.human is not None else min(self.persons)
            raise SessionError(
                f"you play {names[mine]} (seat {mine}), not "
                f"{names[seat] if 0 <= seat < len(names) else seat}",
                403,
            )
        state = self.head
        if state.is_terminal():
            raise SessionError("the game is over; start a new one", 409)
        if self.full:
            raise SessionError(self._full_text(), 409)
        if state.current_player != seat:
            whose = self.game.seat_names[state.current_player]
            raise SessionError(f"it is not your turn: {whose} is to move", 409)
        action = self.game.parse_action(action_text)
        assert self._match is not None
        self._record(self._match.apply(action))  # raises IllegalActionError, state unchanged
        self._after_move()
        self._cursor = None
        # Past the budget the agents stop; the next frame request plays on to this seat.
        return 1 + self.advance_agents()

    # --- frames ---------------------------------------------------------------------

    def check_frame(self, frame: int) -> int:
        """`frame` if it exists (negative counts from the end), else a 404 SessionError.

        A lazily played game is first played on: `ahead` frames past `frame`, or to its
        end for a negative `frame`, within the `budget`.

        Raises:
            PlayBudgetError: the budget ran out before `frame` was played (503); asking
                again plays on.
            SessionError: no such frame (404).
        """
        if self.to_play(frame):
            start = self.last_frame
            self.advance_agents(None if frame < 0 or self.ahead is None else frame + self.ahead)
            reached = self.complete if frame < 0 else frame <= self.last_frame or self.complete
            if not reached:
                last = self.last_frame
                raise PlayBudgetError(
                    f"played moves {start} to {last} and stopped after {self._short}; "
                    f"the game goes on: ask again to play on from move {last}",
                    last,
                )
        last = self.last_frame
        if frame < 0:
            frame += last + 1
        if not 0 <= frame <= last:
            if frame > last and self.full and not self.finished:
                raise SessionError(self._full_text(), 404)
            raise SessionError(f"no frame {frame} in this game; frames are 0..{last}", 404)
        return frame

    def _full_text(self) -> str:
        budget = self.budget
        return (
            f"this game stops at move {self.last_frame} before its end: the server keeps at "
            f"most {budget.session_frames:,} moves and {budget.session_events:,} events of a "
            "game (`epigames play` plays it whole)"
        )

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

    def cheap(self, frame: int, since: int) -> bool:
        """Whether serving `frame` (log entries from `since` on) is cheap.

        Its state replays at most `CHECKPOINT_EVERY` moves (a long game's checkpoints are
        further apart), and the log holds at most an event count plus a decision per frame.
        """
        return (
            self.event_counts[frame] + frame - since <= CHEAP_ENTRIES
            and self._replays(frame) <= CHECKPOINT_EVERY
        )

    def _replays(self, frame: int) -> int:
        """How many frames `state_at(frame)` replays (a long game's checkpoints are sparse)."""
        if frame == self.last_frame:
            return 0
        start = max(f for f in self._checkpoints if f <= frame)
        cursor = self._cursor
        if cursor is not None and start <= cursor[0] <= frame:
            start = cursor[0]
        return frame - start

    def picture_cached(
        self, frame: int, subject: str, seat: int | None, build: Callable[[], KripkePicture]
    ) -> KripkePicture:
        """A per-session cache of the few latest pictures (building one may take a while)."""
        key = (frame, subject, seat)
        cache = self._picture_cache
        if key in cache:
            cache.move_to_end(key)
            return cache[key]
        value = build()
        cache[key] = value
        while len(cache) > PICTURE_CACHE:
            cache.popitem(last=False)
        return value

    def touch(self) -> None:
        """Mark the session as used now (for idle eviction)."""
        self.last_used = time.monotonic()
