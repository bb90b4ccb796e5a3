"""Frames served on the event loop (a cheap step) or on a worker thread are the same JSON."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from epigames.web import views
from epigames.web.builders import watch_session
from epigames.web.session import AHEAD, CHEAP_ENTRIES, CHECKPOINT_EVERY

GAME = "kwartet(players=4,kinds=13)"


def test_cheap_and_costly_frames_answer_as_frame_json(client: TestClient) -> None:
    """Stepping forward from each perspective (cheap steps), then a jump to the end and the
    whole log from there (costly): every answer is `views.frame_json` of that request."""
    body = {"game": GAME, "strategies": ["random"] * 4, "seed": 3}
    sid = client.post("/api/sessions", json=body).json()["session"]
    session = client.app.state.sessions.get(sid)  # type: ignore[attr-defined]
    assert client.get(f"/api/sessions/{sid}/frames/-1").status_code == 200  # played out
    last = session.last_frame
    assert last > 2 * CHECKPOINT_EVERY
    cheap = costly = 0
    for perspective in (None, 1):
        requests = [(k, 0 if k == 0 else None) for k in range(12)]  # since: what came before
        requests += [(last, 0), (last - 30, 0), (5, 2)]
        have = 0
        for k, since in requests:
            since = have if since is None else since
            if session.cheap(k, since):
                cheap += 1
            else:
                costly += 1
            params = {"perspective": "spectator" if perspective is None else perspective}
            got = client.get(f"/api/sessions/{sid}/frames/{k}", params={**params, "since": since})
            assert got.status_code == 200, got.text
            with session.lock:
                want = views.frame_json(session, k, perspective, since)
            assert got.json() == json.loads(json.dumps(want))
            have = got.json()["log_length"]
    assert cheap >= 20 and costly >= 2  # both ways were taken
    # A whole 13-kind game's log is beyond what is served on the event loop.
    assert session.event_counts[last] + last > CHEAP_ENTRIES


LAZY_GAMES = [
    ("kwartet(players=4,kinds=13)", ["expert", "greedy", "random", "silent"]),
    ("blufpoker", ["knowledge", "random", "bayes"]),
    ("klaverjas(deals=2)", ["tactics", "random", "tactics2017", "random"]),
    ("kemps(max_turns=60)", ["kbgreedy", "greedy", "tom"]),
]


@pytest.mark.parametrize(("game", "strategies"), LAZY_GAMES)
def test_a_lazily_played_game_shows_the_frames_of_one_played_at_once(
    client: TestClient, game: str, strategies: list[str]
) -> None:
    """A watched game from the API is played only `AHEAD` frames past the frame asked for:
    stepping, jumping back and forth and asking for the end (-1) give the frames of the same
    game played to its end at once, from every perspective (all but the growing
    `last_frame` and `finished`)."""
    body = {"game": game, "strategies": strategies, "seed": 4}
    info = client.post("/api/sessions", json=body).json()
    lazy = client.app.state.sessions.get(info["session"])  # type: ignore[attr-defined]
    eager = watch_session(game, strategies, 4)
    end = eager.last_frame
    assert end > AHEAD + 12, "choose a longer game: this one is played at once"
    assert info["last_frame"] == lazy.last_frame == AHEAD and not info["finished"]
    requests = [*range(8), end // 2, 3, end // 2 + 1, end - 2, -1, 0]
    since, expected = 0, AHEAD
    for k in requests:
        for perspective in (None, 0, 1):
            params = {"perspective": "spectator" if perspective is None else perspective}
            got = client.get(f"/api/sessions/{info['session']}/frames/{k}", params=params)
            assert got.status_code == 200, got.text
            data = got.json()
            want = json.loads(json.dumps(views.frame_json(eager, k, perspective, since)))
            for key in ("session", "last_frame", "finished"):
                del data[key], want[key]
            assert data == want, (game, k, perspective)
        expected = end if k < 0 else min(end, max(expected, k + AHEAD))
        assert lazy.last_frame == expected, k
