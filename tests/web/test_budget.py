"""Each request plays a bounded part of a game: past its budget a 503 says how far the game
got, the next request plays on, and a session holds a bounded number of frames.

The budgets here count moves, not time, so what each request plays is fixed.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from epigames.games import Match, State, load_game, replay
from epigames.games.kemps.rules import KempsState
from epigames.web import session as session_module
from epigames.web.app import create_app
from epigames.web.budget import PlayBudget
from epigames.web.builders import play_session, watch_session
from epigames.web.session import AHEAD, CHECKPOINT_EVERY, PlayBudgetError

RANDOM_KEMPS = {"game": "kemps", "strategies": ["random"] * 3, "seed": 0}


def moves_only(**limits: Any) -> PlayBudget:
    """A budget of moves and events alone (no CPU time: what a request plays is fixed)."""
    return PlayBudget(cpu_seconds=math.inf, **limits)


@pytest.fixture
def small() -> Iterator[TestClient]:
    """The app with 500 moves per request and 1,800 frames per game."""
    with TestClient(create_app(budget=moves_only(frames=500, session_frames=1800))) as c:
        yield c


def test_the_end_of_a_long_game_is_played_over_several_requests(small: TestClient) -> None:
    sid = small.post("/api/sessions", json=RANDOM_KEMPS).json()["session"]
    reached = []
    while (r := small.get(f"/api/sessions/{sid}/frames/-1")).status_code == 503:
        body = r.json()
        assert r.headers["retry-after"] == "0"
        assert "500 moves, the most one request plays" in body["detail"]
        assert f"ask again to play on from move {body['last_frame']}" in body["detail"]
        reached.append(body["last_frame"])
    assert reached == [AHEAD + 500, AHEAD + 1000, AHEAD + 1500]
    # Random Kemps agents go on to the turn cap; the game is kept up to 1,800 frames.
    end = r.json()
    assert r.status_code == 200 and end["frame"] == end["last_frame"] == 1800
    assert not end["finished"]
    r = small.get(f"/api/sessions/{sid}/frames/1801")
    assert r.status_code == 404
    assert "the server keeps at most 1,800 moves and 100,000 events of a game" in r.json()["detail"]
    assert small.get(f"/api/sessions/{sid}/frames/1200").status_code == 200
    # The frames are those of the game played in one go.
    session = small.app.state.sessions.get(sid)  # type: ignore[attr-defined]
    match = Match("kemps", ["random"] * 3, 0)
    for _ in range(1800):
        match.step()
    match.run_chance()
    assert session.history == match.state.history


def test_a_jump_far_ahead_is_budgeted_too(small: TestClient) -> None:
    sid = small.post("/api/sessions", json=RANDOM_KEMPS).json()["session"]
    r = small.get(f"/api/sessions/{sid}/frames/1000")
    assert r.status_code == 503 and r.json()["last_frame"] == AHEAD + 500
    assert small.get(f"/api/sessions/{sid}/frames/1000").json()["frame"] == 1000


def test_a_stopping_server_plays_no_more(small: TestClient) -> None:
    sid = small.post("/api/sessions", json=RANDOM_KEMPS).json()["session"]
    small.app.state.stopping.set()  # type: ignore[attr-defined]
    r = small.get(f"/api/sessions/{sid}/frames/-1")
    assert r.status_code == 503
    assert r.json() == {
        "detail": f"played moves {AHEAD} to {AHEAD} and stopped after the server is "
        f"stopping; the game goes on: ask again to play on from move {AHEAD}",
        "last_frame": AHEAD,
    }
    assert small.get(f"/api/sessions/{sid}/frames/{AHEAD}").status_code == 200


def test_agents_stopped_after_a_persons_move_play_on_at_the_next_request() -> None:
    # One move per request: after South's move the others play one move a request.
    game = "kemps"
    session = play_session(game, ["greedy"] * 3, human=0, seed=1, budget=moves_only(frames=1))
    assert session.head.current_player == 0
    assert session.play(0, "done") == 2  # South's move and one of West's
    requests = 1
    while True:
        try:
            session.check_frame(-1)
            break
        except PlayBudgetError as err:
            assert err.last_frame == session.last_frame == 2 + requests
            requests += 1
    assert session.head.current_player == 0 and requests > 2
    match = Match(game, session.strategies, 1, humans=(0,))
    match.advance()
    match.apply(load_game(game).parse_action("done"))
    match.advance()
    assert session.history == match.state.history


def seen(state: State) -> tuple[object, ...]:
    """A Kemps state's log, hands, table and turn."""
    assert isinstance(state, KempsState)
    view = state.observation(0)
    return state.current_player, tuple(e.text for e in state.events), state.hands(), view.table


def test_a_long_game_keeps_few_checkpoints_and_rebuilds_every_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(session_module, "MAX_CHECKPOINTS", 4)
    session = watch_session("kemps", ["random"] * 3, 5, ahead=AHEAD)
    session.check_frame(600)
    assert len(session._checkpoints) <= 4
    assert session._spacing >= 8 * CHECKPOINT_EVERY
    frames = [*range(0, session.last_frame + 1, 37), session.last_frame, 599, 598, 300, 1, 0]
    for frame in frames:
        expected = replay(session.game, session.history[: session.frames[frame]])
        assert seen(session.state_at(frame)) == seen(expected), frame
    # A frame far from a checkpoint is no longer served on the event loop.
    assert not session.cheap(session._spacing - 1, session.event_counts[session._spacing - 1])


def test_a_meter_says_what_ran_out() -> None:
    meter = PlayBudget(cpu_seconds=0.01).meter()
    assert meter.spent(0, 0) is None
    assert meter.spent(10_000, 0) == "10,000 moves, the most one request plays"
    assert meter.spent(0, 40_000) == "40,000 events, the most one request adds"
    while (why := meter.spent(0, 0)) is None:
        sum(range(10_000))
    assert why == "0.01 s of CPU time, the most one request spends playing"
