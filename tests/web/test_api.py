"""The JSON API: every endpoint, with good and bad input."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from epigames.games import load_game
from epigames.web.app import create_app
from epigames.web.builders import watch_session
from epigames.web.middleware import MAX_BODY
from epigames.web.session import AHEAD
from epigames.web.store import SessionStore
from tests.web.conftest import new_game, played_game

KW = "kwartet(players=4,kinds=4)"


def frame(client: TestClient, sid: object, k: int, perspective: object = None) -> dict[str, Any]:
    params = {} if perspective is None else {"perspective": str(perspective)}
    response = client.get(f"/api/sessions/{sid}/frames/{k}", params=params)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def detail(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    text: str = response.json()["detail"]
    return text


# --- games ---------------------------------------------------------------------------


def test_health_and_games(client: TestClient) -> None:
    health = client.get("/api/health")
    assert health.json()["ok"] is True
    assert health.headers["server-timing"].startswith("app;dur=")
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert {"kwartet", "webtoy"} <= set(games)
    kinds = next(p for p in games["kwartet"]["params"] if p["name"] == "kinds")
    assert (kinds["default"], kinds["min"], kinds["max"]) == (13, 2, 13)
    assert "random" in games["kwartet"]["strategies"]
    assert games["webtoy"]["pictures"] is True


def test_describe_game(client: TestClient) -> None:
    data = client.get("/api/game", params={"spec": "kwartet(players=3)"}).json()
    assert data["seat_names"] == ["South", "Northwest", "Northeast"]
    assert "out of range" in detail(
        client.get("/api/game", params={"spec": "kwartet(players=9)"}), 422
    )
    assert "unknown game 'chess'" in detail(client.get("/api/game", params={"spec": "chess"}), 422)


def test_index_and_static(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "epigames" in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/nope.js").status_code == 404


# --- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"game": "chess", "strategies": ["random"] * 4}, "unknown game 'chess'"),
        ({"game": "kwartet(kinds=99)", "strategies": ["random"] * 4}, "kinds=99 is out of range"),
        ({"game": "kwartet(", "strategies": ["random"] * 4}, "cannot read game"),
        ({"game": KW, "strategies": ["random"] * 3}, "4 seats"),
        ({"game": KW, "strategies": ["random", "gredy", "random", "random"]}, "'gredy'"),
        ({"game": KW, "strategies": ["random"] * 4, "seed": -1}, "seed"),
        ({"game": KW, "strategies": ["random"] * 4, "seed": "abc"}, "seed"),
        ({"game": KW, "strategies": ["random"] * 4, "seed": 2**64}, "seed"),
        ({"game": KW, "strategies": ["random"] * 4, "human_seat": "Mars"}, "no seat 'Mars'"),
        ({"game": KW, "strategies": ["random"] * 4, "colour": "red"}, "colour"),
        ({"strategies": ["random"] * 4}, "game: Field required"),
        ({"game": "x" * 500, "strategies": ["random"] * 4}, "game"),
    ],
)
def test_bad_new_session(client: TestClient, body: dict[str, Any], needle: str) -> None:
    assert needle in detail(client.post("/api/sessions", json=body), 422)
    assert client.get("/api/health").json()["sessions"] == 0


def test_oversized_requests(client: TestClient) -> None:
    big = b'{"game": "' + b"x" * (MAX_BODY + 10) + b'"}'
    response = client.post(
        "/api/sessions", content=big, headers={"content-type": "application/json"}
    )
    assert "too large" in detail(response, 413)

    def chunks() -> Any:  # no content-length: the body is streamed
        for _ in range(40):
            yield b" " * 1024

    response = client.post(
        "/api/sessions", content=chunks(), headers={"content-type": "application/json"}
    )
    assert "too large" in detail(response, 413)
    long_formula = {"frame": 0, "subject": "A", "formula": "p&" * 600}
    assert "formula" in detail(client.post("/api/sessions/x/formula", json=long_formula), 422)


def test_unknown_session_and_frame(client: TestClient) -> None:
    assert "no game 'nope'" in detail(client.get("/api/sessions/nope/frames/0"), 404)
    info = new_game(client, game=KW, strategies=["random"] * 4, seed=5)
    sid = info["session"]
    last = frame(client, sid, -1)["frame"]  # the end: the watched game is played out
    assert "no frame" in detail(client.get(f"/api/sessions/{sid}/frames/{last + 1}"), 404)
    assert "no frame" in detail(client.get(f"/api/sessions/{sid}/frames/{last + 10**6}"), 404)
    assert "no seat 'Mars'" in detail(
        client.get(f"/api/sessions/{sid}/frames/0", params={"perspective": "Mars"}), 422
    )
    assert "no seat '7'" in detail(
        client.get(f"/api/sessions/{sid}/frames/0", params={"perspective": "7"}), 422
    )


# --- watching ---------------------------------------------------------------------------


def test_watch_matches_play_match(client: TestClient) -> None:
    from epigames.games import play_match

    info = new_game(client, game=KW, strategies=["random"] * 4, seed=11)
    result = play_match(KW, ["random"] * 4, 11)
    # Played as far as it is watched: `AHEAD` frames at the start, the rest on demand.
    assert result.moves > AHEAD
    assert info["last_frame"] == AHEAD and info["finished"] is False
    end = frame(client, info["session"], -1)
    info = client.get(f"/api/sessions/{info['session']}").json()
    assert info["last_frame"] == end["frame"] == result.moves and info["finished"] is True
    assert end["terminal"] and end["returns"] == list(result.returns)
    decisions = [e for e in end["log"] if e["type"] == "decision"]
    assert [d["thought"] for d in decisions] == [t.thought.text for t in result.transcript]
    events = [e["text"] for e in end["log"] if e["type"] == "event"]
    assert events == [e.text for e in result.events]


def test_frames_step_back_and_forth_consistently(client: TestClient) -> None:
    info = new_game(client, game=KW, strategies=["random"] * 4, seed=3)
    sid = info["session"]
    last = frame(client, sid, -1)["frame"]  # played out, so `last_frame` stays put below
    forward = [frame(client, sid, k, 1) for k in range(last + 1)]
    order = list(range(last, -1, -1))
    random.Random(0).shuffle(order)
    for k in order:
        assert frame(client, sid, k, 1) == forward[k]
    # The log only grows: `since` sends the new entries only.
    whole = forward[5]["log"]
    part = client.get(
        f"/api/sessions/{sid}/frames/5", params={"perspective": "1", "since": 3}
    ).json()
    assert part["log_start"] == 3 and part["log"] == whole[3:]


def test_seat_perspective_shows_only_own_hand(client: TestClient) -> None:
    info = new_game(client, game=KW, strategies=["random"] * 4, seed=8)
    spectator = frame(client, info["session"], 2)
    assert set(spectator["table"]["views"]) == {"0", "1", "2", "3"}
    west = frame(client, info["session"], 2, "West")
    assert set(west["table"]["views"]) == {"1"}
    assert west["table"]["views"]["1"]["hand"] == spectator["table"]["views"]["1"]["hand"]
    dealt = [e for e in west["log"] if e["type"] == "event" and e["kind"] == "dealt"]
    assert [e["data"]["seat"] for e in dealt] == [1]


def test_a_seat_sees_only_its_own_decisions_and_thoughts(client: TestClient) -> None:
    """Another seat's move shows only as "moved": its label and thought are its own."""
    info = new_game(client, game="webtoy", strategies=["passer", "shower", "passer"], seed=1)
    sid = info["session"]
    spectator = [e for e in frame(client, sid, -1)["log"] if e["type"] == "decision"]
    assert spectator and all(d["thought"] and d["action"] for d in spectator)
    for seat in range(3):
        log = frame(client, sid, -1, seat)["log"]
        decisions = [e for e in log if e["type"] == "decision"]
        assert [d["seat"] for d in decisions] == [d["seat"] for d in spectator]
        for d, full in zip(decisions, spectator, strict=True):
            if d["seat"] == seat:
                assert d == full
            else:
                assert d["thought"] == d["action"] == ""


def test_close_session(client: TestClient) -> None:
    info = new_game(client, game=KW, strategies=["random"] * 4)
    sid = info["session"]
    assert client.delete(f"/api/sessions/{sid}").json() == {"closed": sid}
    assert "no game" in detail(client.get(f"/api/sessions/{sid}"), 404)
    assert "no game" in detail(client.delete(f"/api/sessions/{sid}"), 404)


def test_sessions_are_bounded_and_idle_ones_evicted(db_dir: Any) -> None:
    with TestClient(create_app(db_dir, max_sessions=2)) as c:
        first = new_game(c, game=KW, strategies=["random"] * 4)["session"]
        second = new_game(c, game=KW, strategies=["random"] * 4)["session"]
        c.get(f"/api/sessions/{first}")  # now `second` is the least recently used
        new_game(c, game=KW, strategies=["random"] * 4)
        assert c.get(f"/api/sessions/{first}").status_code == 200
        assert "evicted" in detail(c.get(f"/api/sessions/{second}"), 404)
        assert c.get("/api/health").json()["sessions"] == 2
    store = SessionStore(max_sessions=10, idle_seconds=60)
    old = store.add(watch_session(KW, ["random"] * 4, 1))
    fresh = store.add(watch_session(KW, ["random"] * 4, 2))
    old.last_used = time.monotonic() - 61
    assert store.sweep() == 1 and len(store) == 1
    assert store.get(fresh.id) is fresh


def test_closed_games_free_their_memory(client: TestClient) -> None:
    import gc
    import tracemalloc

    def cycle() -> None:
        ids = [new_game(client, game=KW, strategies=["random"] * 4, seed=s)["session"]
               for s in range(10)]  # fmt: skip
        for sid in ids:
            for k in (0, 5, 3):
                frame(client, sid, k, "spectator")
            assert client.delete(f"/api/sessions/{sid}").status_code == 200

    cycle()  # warm caches (game strings, events) first
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        cycle()
        gc.collect()
        after, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak - before > 200_000  # ten games did take memory...
    assert after - before < (peak - before) / 5  # ...and closing them gave it back


# --- playing -------------------------------------------------------------------------


def test_play_a_whole_game_through_the_api(client: TestClient) -> None:
    info = played_game(client, game="kwartet(players=4,kinds=3)", strategies=["random"] * 4,
                       human_seat="North")  # fmt: skip
    sid = info["session"]
    assert info["human"] == 2 and info["seed"] is None
    rng = random.Random(4)
    moves = 0
    while True:
        now = frame(client, sid, -1, 2)
        if now["finished"]:
            break
        assert "seed" not in now
        assert now["current_player"] == 2 and now["legal_actions"]
        response = client.post(
            f"/api/sessions/{sid}/moves",
            json={"seat": 2, "action": rng.choice(now["legal_actions"])},
        )
        assert response.status_code == 200, response.text
        moves += 1
    assert moves > 0
    end = frame(client, sid, -1)  # after the game the spectator view is open
    assert end["terminal"] and end["seed"].isdigit()
    assert "game is over" in detail(
        client.post(f"/api/sessions/{sid}/moves", json={"seat": 2, "action": "ask 0 1.1"}), 409
    )


def test_bad_moves_change_nothing(client: TestClient) -> None:
    info = played_game(client, game=KW, strategies=["random"] * 4, human_seat=0)
    sid = info["session"]
    before = frame(client, sid, -1, 0)
    assert before["current_player"] == 0
    post = client.post
    url = f"/api/sessions/{sid}/moves"
    assert "you play South" in detail(post(url, json={"seat": 1, "action": "ask 0 1.1"}), 403)
    assert "no seat 'Mars'" in detail(post(url, json={"seat": "Mars", "action": "x"}), 422)
    assert "cannot read card 'fly'" in detail(post(url, json={"seat": 0, "action": "fly"}), 422)
    assert "illegal action" in detail(post(url, json={"seat": 0, "action": "ask 0 1.1"}), 422)
    assert "action" in detail(post(url, json={"seat": 0}), 422)
    assert "you play South" in detail(
        client.get(f"/api/sessions/{sid}/frames/0", params={"perspective": "spectator"}), 403
    )
    assert "you play South" in detail(
        client.get(f"/api/sessions/{sid}/frames/0", params={"perspective": "1"}), 403
    )
    assert frame(client, sid, -1, 0) == before
    watched = new_game(client, game=KW, strategies=["random"] * 4)["session"]
    assert "watched" in detail(
        post(f"/api/sessions/{watched}/moves", json={"seat": 0, "action": "ask 1 1.1"}), 409
    )


def test_out_of_turn_is_refused(client: TestClient) -> None:
    from epigames.web.builders import play_session
    from epigames.web.session import SessionError

    session = play_session("webtoy", ["passer", "passer", "passer"], human=1, seed=3)
    session.head.apply("pass")  # the person's turn passes without it (as if by a race)
    with pytest.raises(SessionError, match="not your turn: Cy is to move") as err:
        session.play(1, "pass")
    assert err.value.status == 409


# --- pictures, matrix, formulas ---------------------------------------------------------


def toy(client: TestClient) -> Any:
    info = new_game(client, game="webtoy", strategies=["passer", "shower", "passer"], seed=1)
    return info["session"]


def test_picture_spectator_and_seat(client: TestClient) -> None:
    sid = toy(client)
    url = f"/api/sessions/{sid}/frames/0/picture"
    spectator = client.get(url, params={"subject": "A"}).json()
    assert spectator["true_world"] is not None
    assert [w["true"] for w in spectator["worlds"]].count(True) == 1
    assert {a["name"] for a in spectator["agents"]} == {"Ann", "Bob", "Cy"}
    holder = spectator["true_world"]
    other = next(s for s in (0, 1, 2) if ["Ann", "Bob", "Cy"][s] != holder)
    seat = client.get(url, params={"subject": "A", "perspective": other}).json()
    assert seat["true_world"] is None and holder in [w["name"] for w in seat["worlds"]]
    assert set(seat["worlds"][0]["probabilities"]) == {["Ann", "Bob", "Cy"][other]}
    assert "no subject 'Z'" in detail(client.get(url, params={"subject": "Z"}), 422)


def test_worlds_disappear_after_an_announcement(client: TestClient) -> None:
    sid = toy(client)  # Bob shows his card at decision 1
    url = f"/api/sessions/{sid}/frames/{{k}}/picture"
    shown = next(
        e["data"]["card"] for e in frame(client, sid, -1)["log"] if e.get("kind") == "shown"
    )
    before = client.get(url.format(k=1), params={"subject": shown, "perspective": 0}).json()
    after = client.get(url.format(k=2), params={"subject": shown, "perspective": 0}).json()
    assert len(after["worlds"]) < len(before["worlds"])
    assert after["true_world"] == "Bob"


def test_matrix(client: TestClient) -> None:
    sid = toy(client)
    m = client.get(f"/api/sessions/{sid}/frames/0/matrix").json()
    assert [r["subject"] for r in m["rows"]] == ["A", "B", "C"]
    assert set(m["agents"]) == {"Ann", "Bob", "Cy"}
    mine = client.get(f"/api/sessions/{sid}/frames/0/matrix", params={"perspective": 0}).json()
    assert mine["agents"] == ["Ann"]
    for row in mine["rows"]:
        assert abs(sum(row["probabilities"]["Ann"].values()) - 1) < 1e-9


def test_formula_answers_and_errors(client: TestClient) -> None:
    sid = toy(client)
    pic = client.get(f"/api/sessions/{sid}/frames/0/picture", params={"subject": "A"}).json()
    holder = pic["true_world"]
    atom = f'"holds({holder},A)"'
    url = f"/api/sessions/{sid}/formula"
    body = {"frame": 0, "subject": "A", "formula": f"K_{holder} {atom}"}
    yes = client.post(url, json=body).json()
    assert yes["holds"] is True and holder not in yes["false_worlds"]
    other = next(n for n in ("Ann", "Bob", "Cy") if n != holder)
    no = client.post(url, json={**body, "formula": f"K_{other} {atom}"}).json()
    assert no["holds"] is False and holder in no["false_worlds"]
    caret = detail(client.post(url, json={**body, "formula": "K_Ann (p &"}), 422)
    assert "^" in caret and "line 1" in caret
    assert "unknown agent 'Zed'" in detail(
        client.post(url, json={**body, "formula": "K_Zed p"}), 422
    )
    assert "no subject" in detail(client.post(url, json={**body, "subject": "Q"}), 422)


def test_kwartet_pictures_or_a_clear_404(client: TestClient) -> None:
    info = new_game(client, game=KW, strategies=["random"] * 4, seed=2)
    sid = info["session"]
    state = load_game(KW).new_initial_state()
    response = client.get(f"/api/sessions/{sid}/frames/0/picture", params={"subject": "⟨1,1⟩"})
    if hasattr(state, "picture"):
        assert response.status_code == 200, response.text
        assert response.json()["true_world"] is not None
    else:
        assert "draws no Kripke pictures" in detail(response, 404)
