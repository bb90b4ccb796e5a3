"""Frames served on the event loop (a cheap step) or on a worker thread are the same JSON."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from epigames.web import views
from epigames.web.session import CHEAP_ENTRIES, CHECKPOINT_EVERY

GAME = "kwartet(players=4,kinds=13)"


def test_cheap_and_costly_frames_answer_as_frame_json(client: TestClient) -> None:
    """Stepping forward from each perspective (cheap steps), then a jump to the end and the
    whole log from there (costly): every answer is `views.frame_json` of that request."""
    body = {"game": GAME, "strategies": ["random"] * 4, "seed": 3}
    sid = client.post("/api/sessions", json=body).json()["session"]
    session = client.app.state.sessions.get(sid)  # type: ignore[attr-defined]
    last = session.last_frame
    assert last > 2 * CHECKPOINT_EVERY
    cheap = costly = 0
    for perspective in (None, 1):
        requests = [(k, 0 if k == 0 else None) for k in range(12)]  # since: what came before
        requests += [(last, 0), (last - 30, 0), (5, 2)]
        have = 0
        for k, since in requests:
            since = have if since is None else since
            if session.cheap(k, perspective, since):
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
