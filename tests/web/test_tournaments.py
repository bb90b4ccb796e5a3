"""The tournaments endpoints: start a small tournament, list, summarise, plot, watch a game."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from epigames.games import play_match
from epigames.web.app import create_app

pytest.importorskip("duckdb", reason="the tournaments page needs the 'tournament' extra")

GAME = "kwartet(players=4,kinds=3)"


def detail(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    text: str = response.json()["detail"]
    return text


def run_job(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tournaments", json=body)
    assert response.status_code == 202, response.text
    job: dict[str, Any] = response.json()
    deadline = time.monotonic() + 120
    while job["state"] == "running":
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
        job = client.get(f"/api/jobs/{job['id']}").json()
    return job


def test_tournament_round_trip(client: TestClient, db_dir: Path) -> None:
    assert client.get("/api/tournaments").json()["files"] == []
    job = run_job(
        client, db="t.duckdb", name="small", game=GAME, strategies=["random"] * 4, games=24, seed=5
    )
    assert job["state"] == "done" and job["done"] == job["total"] == 24, job
    listing = client.get("/api/tournaments").json()
    [entry] = listing["files"]
    assert entry["db"] == "t.duckdb" and entry["tournaments"][0]["stored"] == 24
    summary = client.get("/api/tournaments/t.duckdb/small").json()
    assert summary["games"] == 24 and summary["complete"] is True
    line = summary["strategies"][0]
    assert line["win_low"] <= line["win_rate"] <= line["win_high"]
    assert len(summary["seats"]) == 4 and summary["plots"]
    plot = client.get(f"/api/tournaments/t.duckdb/small/plots/{summary['plots'][0]}.svg")
    assert plot.status_code == 200 and plot.text.lstrip().startswith("<?xml")
    games = client.get("/api/tournaments/t.duckdb/small/games", params={"limit": 5}).json()
    assert games["total"] == 24 and len(games["games"]) == 5
    row = games["games"][3]
    # Watching a stored game replays it from its seed and seats: same returns.
    body = {"db": "t.duckdb", "name": "small", "index": row["index"]}
    info = client.post("/api/sessions/from-tournament", json=body).json()
    assert "game 3" in info["origin"]
    end = client.get(f"/api/sessions/{info['session']}/frames/-1").json()
    assert end["returns"] == row["returns"]
    assert end["returns"] == list(play_match(GAME, row["strategies"], row["seed"]).returns)


def test_tournament_bad_input(client: TestClient, db_dir: Path) -> None:
    post = client.post
    good = {"db": "t.duckdb", "game": GAME, "strategies": ["random"] * 4, "games": 4}
    assert "bad results file name" in detail(
        post("/api/tournaments", json={**good, "db": "../evil.duckdb"}), 422
    )
    assert "games" in detail(post("/api/tournaments", json={**good, "games": 10**6}), 422)
    assert "unknown strategy 'gredy'" in detail(
        post("/api/tournaments", json={**good, "strategies": ["gredy"] * 4}), 422
    )
    assert "4 seats" in detail(
        post("/api/tournaments", json={**good, "strategies": ["random"]}), 422
    )
    assert "seats" in detail(post("/api/tournaments", json={**good, "seats": "shuffled"}), 422)
    assert "no results file 'none.duckdb'" in detail(
        client.get("/api/tournaments/none.duckdb/x"), 404
    )
    assert "bad results file name" in detail(client.get("/api/tournaments/x.txt/x"), 422)
    assert "no tournament job" in detail(client.get("/api/jobs/nope"), 404)
    run_job(client, **{**good, "name": "a"})
    assert "no tournament 'b'" in detail(client.get("/api/tournaments/t.duckdb/b"), 404)
    assert "no stored game 99" in detail(
        post("/api/sessions/from-tournament", json={"db": "t.duckdb", "name": "a", "index": 99}),
        404,
    )
    assert "no plot 'pie'" in detail(client.get("/api/tournaments/t.duckdb/a/plots/pie.svg"), 404)
    (db_dir / "junk.duckdb").write_text("not a database")
    files = {f["db"]: f for f in client.get("/api/tournaments").json()["files"]}
    assert files["junk.duckdb"]["error"]


def test_without_db_dir() -> None:
    with TestClient(create_app()) as c:
        assert c.get("/api/tournaments").json() == {"db_dir": None, "files": [], "jobs": []}
        assert "without --db-dir" in detail(c.get("/api/tournaments/a.duckdb/x"), 404)


def test_a_tournament_on_duplicate_seats(client: TestClient) -> None:
    """The page may start a tournament on duplicate seats; its summary compares the
    strategies on the same cards."""
    body = {"db": "d.duckdb", "name": "dup", "game": GAME, "games": 8, "seed": 3}
    job = run_job(
        client, **body, strategies=["random", "greedy", "random", "greedy"], seats="duplicate"
    )
    assert job["state"] == "done", job
    summary = client.get("/api/tournaments/d.duckdb/dup").json()
    assert summary["tournament"]["seat_scheme"] == "duplicate"
    [diff] = summary["differences"]
    assert diff["label"] == "random − greedy" and diff["blocks"] == 2
    games = client.get("/api/tournaments/d.duckdb/dup/games").json()["games"]
    # The four games of a block share their seed: the same cards for every seating.
    assert len({g["seed"] for g in games[:4]}) == 1 and games[4]["seed"] != games[0]["seed"]
