"""One client cannot take the server from the others: caps per client, clear 404s and 429s,
server-chosen seeds for played games, capped and cancellable tournament jobs, no paths."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from epigames.games import play_match
from epigames.web import views
from epigames.web.app import create_app
from epigames.web.builders import play_session, watch_session
from epigames.web.middleware import CLIENT_COOKIE
from epigames.web.session import SessionError
from epigames.web.store import SessionStore
from tests.web.conftest import new_game

TOY = {"game": "webtoy", "strategies": ["passer"] * 3}
KW = "kwartet(players=4,kinds=3)"


def detail(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    text: str = response.json()["detail"]
    return text


@pytest.fixture
def app_factory(db_dir: Path) -> Iterator[Callable[..., Any]]:
    """`make(**create_app options)`: an app whose lifespan runs for the test."""
    clients: list[TestClient] = []

    def make(**options: Any) -> Any:
        app = create_app(db_dir, **options)
        client = TestClient(app)
        client.__enter__()
        clients.append(client)
        return app

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def until(condition: Callable[[], bool], what: str, seconds: float = 120) -> None:
    """Poll until `condition()` holds; fail after a generous deadline (no ordering by sleep)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


# --- sessions per client ------------------------------------------------------------------


def test_a_client_making_1000_games_leaves_another_clients_played_game_alive(
    app_factory: Callable[..., Any],
) -> None:
    app = app_factory(max_sessions=40, max_per_client=10)
    alice, bob = TestClient(app), TestClient(app)
    played = new_game(bob, **TOY, human_seat=0)
    sid = played["session"]
    first = new_game(alice, **TOY)["session"]
    for k in range(1000):
        # Watched and played games alike: the client's own cap evicts its own games.
        new_game(alice, **TOY, **({"human_seat": 1} if k % 3 == 0 else {}))
    assert bob.get(f"/api/sessions/{sid}").status_code == 200
    assert "its client started more than 10 games" in detail(bob.get(f"/api/sessions/{first}"), 404)
    # Clients that drop the cookie are new clients each time: they fill the server, and
    # the least recently used games go, but never a game a person is playing.
    for _ in range(100):
        stranger = TestClient(app)
        new_game(stranger, **TOY)
    assert app.state.sessions.max_sessions >= len(app.state.sessions)
    moved = bob.post(f"/api/sessions/{sid}/moves", json={"seat": 0, "action": "pass"})
    assert moved.status_code == 200, moved.text
    assert bob.get(f"/api/sessions/{sid}").json()["finished"] is True
    # Once over, it is an ordinary game again: the next flood may evict it.
    for _ in range(40):
        new_game(TestClient(app), **TOY)
    assert "evicted to make room: the server holds at most 40 games" in detail(
        bob.get(f"/api/sessions/{sid}"), 404
    )


def test_every_404_for_a_gone_game_names_its_cause(db_dir: Path) -> None:
    with TestClient(create_app(db_dir, max_per_client=2)) as c:
        one = new_game(c, **TOY)["session"]
        assert c.delete(f"/api/sessions/{one}").status_code == 200
        assert detail(c.get(f"/api/sessions/{one}"), 404) == (
            f"no game {one!r}: it was closed; start a new one"
        )
        assert "it was closed" in detail(c.delete(f"/api/sessions/{one}"), 404)
        assert "no game was started with this id" in detail(c.get("/api/sessions/nope"), 404)
        assert "no game was started with this id" in detail(
            c.get("/api/sessions/nope/frames/0"), 404
        )
        ids = [new_game(c, **TOY)["session"] for _ in range(3)]
        assert "its client started more than 2 games" in detail(
            c.get(f"/api/sessions/{ids[0]}"), 404
        )
    store = SessionStore(idle_seconds=60)
    old = store.add(watch_session("webtoy", ["passer"] * 3, 1), "a")
    old.last_used = time.monotonic() - 61
    assert store.sweep() == 1
    with pytest.raises(SessionError, match="evicted after 60 s unused") as err:
        store.get(old.id)
    assert err.value.status == 404
    # The record of gone ids is bounded.
    small = SessionStore(max_gone=3)
    gone = [small.add(watch_session("webtoy", ["passer"] * 3, s)).id for s in range(5)]
    for sid in gone:
        small.remove(sid)
    assert "no game was started" in small.why_gone(gone[0])
    assert small.why_gone(gone[-1]) == "it was closed"


def test_a_client_over_its_cap_loses_its_watched_games_before_its_played_ones() -> None:
    store = SessionStore(max_per_client=3)
    playing = store.add(play_session("webtoy", ["passer"] * 3, human=0), "a")
    watched = [store.add(watch_session("webtoy", ["passer"] * 3, s), "a") for s in range(2)]
    store.add(watch_session("webtoy", ["passer"] * 3, 9), "a")
    assert store.get(playing.id) is playing
    with pytest.raises(SessionError, match="more than 3 games"):
        store.get(watched[0].id)


def test_a_server_full_of_played_games_refuses_new_ones_with_429(db_dir: Path) -> None:
    with TestClient(create_app(db_dir, max_sessions=3)) as first:
        clients = [first, *(TestClient(first.app) for _ in range(3))]
        ids = [new_game(c, **TOY, human_seat=0)["session"] for c in clients[:3]]
        response = clients[3].post("/api/sessions", json=TOY)
        assert "3 games that people are playing" in detail(response, 429)
        assert all(clients[0].get(f"/api/sessions/{sid}").status_code == 200 for sid in ids)
    store = SessionStore(max_played_per_address=2)
    for client in ("a", "b"):
        store.add(play_session("webtoy", ["passer"] * 3, human=0), client, "10.0.0.1")
    with pytest.raises(SessionError, match="already plays 2 unfinished games") as err:
        store.add(play_session("webtoy", ["passer"] * 3, human=0), "c", "10.0.0.1")
    assert err.value.status == 429
    store.add(play_session("webtoy", ["passer"] * 3, human=0), "d", "10.0.0.2")


def test_the_server_sets_a_client_cookie_once(client: TestClient) -> None:
    first = client.get("/api/health")
    token = first.cookies.get(CLIENT_COOKIE)
    assert token and "HttpOnly" in first.headers["set-cookie"]
    assert "set-cookie" not in client.get("/api/health").headers
    client.cookies.set(CLIENT_COOKIE, "bad value!")
    assert client.get("/api/health").cookies.get(CLIENT_COOKIE) not in (None, token)


# --- seeds of played games ------------------------------------------------------------------


def test_a_played_game_gets_the_servers_seed_shown_when_it_ends(client: TestClient) -> None:
    refused = client.post("/api/sessions", json={**TOY, "human_seat": 0, "seed": 7})
    text = detail(refused, 422)
    assert "gets its seed from the server" in text and "leave out seed" in text
    assert client.get("/api/health").json()["sessions"] == 0
    info = new_game(client, **TOY, human_seat=0)
    sid = info["session"]
    assert info["seed"] is None
    frame = client.get(f"/api/sessions/{sid}/frames/-1", params={"perspective": 0}).json()
    assert "seed" not in frame
    client.post(f"/api/sessions/{sid}/moves", json={"seat": 0, "action": "pass"})
    end = client.get(f"/api/sessions/{sid}").json()
    assert end["finished"] and end["seed"].isdigit()
    # A watched game keeps the client's seed.
    assert new_game(client, **TOY, seed=7)["seed"] == "7"


def test_a_63_bit_seed_keeps_every_digit(client: TestClient) -> None:
    """Seeds travel as digits: a browser's JSON numbers would round this one to …4000."""
    seed = "3639414737155584003"
    info = new_game(client, **TOY, seed=seed)
    assert info["seed"] == seed
    frame = client.get(f"/api/sessions/{info['session']}/frames/0").json()
    assert frame["seed"] == seed
    assert client.app.state.sessions.get(info["session"]).seed == int(seed)  # type: ignore[attr-defined]


# --- tournament jobs ------------------------------------------------------------------------


class Gate:
    """A match function that plays `free` games, then holds every game until opened."""

    def __init__(self, free: int) -> None:
        self.free = free
        self.calls = 0
        self.held = threading.Event()
        self.open = threading.Event()
        self._lock = threading.Lock()

    def __call__(self, game: str, strategies: Sequence[str], seed: int) -> Any:
        with self._lock:
            self.calls += 1
            hold = self.calls > self.free
        if hold:
            self.held.set()
            assert self.open.wait(120), "the test never opened the gate"
        return play_match(game, strategies, seed)


def job_state(client: TestClient, job_id: str) -> dict[str, Any]:
    response = client.get(f"/api/jobs/{job_id}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def start_job(client: TestClient, db: str, status: int = 202, **extra: Any) -> dict[str, Any]:
    body = {"db": db, "name": "t", "game": KW, "strategies": ["random"] * 4, "games": 60}
    response = client.post("/api/tournaments", json={**body, **extra})
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    return data


def test_jobs_are_capped_and_a_cancelled_job_keeps_its_games(
    app_factory: Callable[..., Any],
) -> None:
    pytest.importorskip("duckdb")
    app = app_factory(max_jobs=2, max_jobs_per_client=1)
    gate = Gate(free=5)
    app.state.tournaments.match = gate
    alice, bob, carol = TestClient(app), TestClient(app), TestClient(app)

    job = start_job(alice, "a.duckdb")
    assert gate.held.wait(120), "the job never reached its held game"
    assert "you already run 1 tournament" in detail(
        alice.post(
            "/api/tournaments",
            json={"db": "x.duckdb", "game": KW, "strategies": ["random"] * 4, "games": 4},
        ),
        429,
    )
    other = start_job(bob, "b.duckdb")
    assert "the server already runs 2 tournaments" in start_job(carol, "c.duckdb", 429)["detail"]
    assert "started by another client" in detail(bob.delete(f"/api/jobs/{job['id']}"), 403)
    assert "no tournament job" in detail(alice.delete("/api/jobs/nope"), 404)

    cancelling = alice.delete(f"/api/jobs/{job['id']}").json()
    assert cancelling["state"] == "cancelling"
    gate.open.set()  # the held game ends; the job stops before the next one
    until(lambda: job_state(alice, job["id"])["state"] != "cancelling", "the cancel")
    cancelled = job_state(alice, job["id"])
    assert cancelled["state"] == "cancelled", cancelled
    until(lambda: job_state(bob, other["id"])["state"] == "done", "the other job")
    files = {f["db"]: f for f in alice.get("/api/tournaments").json()["files"]}
    stored = files["a.duckdb"]["tournaments"][0]["stored"]
    assert 1 <= stored == cancelled["done"] < 60
    # Cancelling an ended job changes nothing; starting it again resumes it.
    assert alice.delete(f"/api/jobs/{job['id']}").json()["state"] == "cancelled"
    again = start_job(alice, "a.duckdb")
    until(lambda: job_state(alice, again["id"])["state"] == "done", "the resumed job")
    assert gate.calls < 5 + 1 + 60 + 60  # the resumed job played only the missing games
    summary = alice.get("/api/tournaments/a.duckdb/t").json()
    assert summary["games"] == 60


def test_no_response_names_a_server_path(
    app_factory: Callable[..., Any], db_dir: Path, tmp_path: Path
) -> None:
    pytest.importorskip("duckdb")
    app = app_factory()
    c = TestClient(app)
    (db_dir / "junk.duckdb").write_text("not a database")
    texts = []
    job = start_job(c, "t.duckdb", games=8)
    until(lambda: job_state(c, job["id"])["state"] == "done", "the job")
    failed = start_job(c, "junk.duckdb", games=4)
    until(lambda: job_state(c, failed["id"])["state"] == "failed", "the failing job")
    for response in (
        c.get("/api/tournaments"),
        c.get(f"/api/jobs/{job['id']}"),
        c.get(f"/api/jobs/{failed['id']}"),
        c.get("/api/tournaments/t.duckdb/t"),
        c.get("/api/tournaments/t.duckdb/t/games"),
        c.get("/api/tournaments/junk.duckdb/t"),
        c.get("/api/tournaments/none.duckdb/t"),
        c.post("/api/sessions/from-tournament", json={"db": "t.duckdb", "name": "t", "index": 2}),
    ):
        assert response.status_code < 500, response.text
        texts.append(response.text)
    listing = c.get("/api/tournaments").json()
    assert listing["db_dir"] == db_dir.name
    assert job_state(c, failed["id"])["error"]
    for text in texts:
        for path in {str(tmp_path), str(tmp_path.resolve()), str(db_dir)}:
            assert path not in text, text


# --- unexpected errors ----------------------------------------------------------------------


def test_an_unexpected_error_is_a_logged_json_500(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    sid = new_game(client, **TOY, seed=1)["session"]

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom at /secret/place")

    monkeypatch.setattr(views, "frame_json", broken)
    with caplog.at_level(logging.ERROR, logger="epigames.web"):
        response = client.get(f"/api/sessions/{sid}/frames/0")
    assert response.status_code == 500
    assert response.json() == {"detail": "internal error: the server logged it; please report it"}
    assert any("boom" in (r.exc_text or "") for r in caplog.records)
    # The server goes on answering.
    assert client.get(f"/api/sessions/{sid}").status_code == 200
