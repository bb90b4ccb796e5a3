"""A table on `epigames serve` as its own process: moves pushed over a real WebSocket, and
the server killed with SIGKILL mid-game, started again, and the game going on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_server_bounds import Server, _start

websockets = pytest.importorskip("websockets.sync.client", reason="the 'web' extra")

GAME = "kwartet(players=3,kinds=4)"


def frame(server: Server, tid: str, token: str) -> dict[str, Any]:
    status, data = server.request("GET", f"/api/tables/{tid}/frames/-1?token={token}")
    assert status == 200, data
    return data  # type: ignore[no-any-return]


def move(server: Server, tid: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The seat to move plays its first legal action."""
    status, info = server.request("GET", f"/api/tables/{tid}?token={tokens[min(tokens)]}")
    seat = info["to_move"]
    action = frame(server, tid, tokens[seat])["legal_actions"][0]
    status, after = server.request(
        "POST", f"/api/tables/{tid}/moves", {"token": tokens[seat], "action": action}
    )
    assert status == 200, after
    return after  # type: ignore[no-any-return]


def test_pushed_moves_and_a_killed_server_that_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite"
    first = _start("--tables", str(db))
    try:
        status, table = first.request(
            "POST",
            "/api/tables",
            {"game": GAME, "seats": ["person", "person", "greedy"], "seed": 4},
        )
        assert status == 201, table
        tid = table["table"]
        tokens = {t["seat"]: t["token"] for t in table["tokens"]}
        url = f"ws://127.0.0.1:{first.port}/api/tables/{tid}/ws?token={tokens[1]}"
        with websockets.connect(url, open_timeout=600) as socket:
            hello = json.loads(socket.recv(timeout=600))
            assert hello["seat"] == 1 and hello["version"] == 0
            for n in range(1, 4):
                after = move(first, tid, tokens)
                pushed = json.loads(socket.recv(timeout=600))
                assert pushed["version"] == n and pushed["last_frame"] == after["last_frame"]
        before = frame(first, tid, tokens[0])
    finally:
        first.proc.kill()  # SIGKILL: no shutdown of any kind
        first.proc.wait()
    second = _start("--tables", str(db))
    try:
        again = frame(second, tid, tokens[0])
        assert again["last_frame"] == before["last_frame"] and again["log"] == before["log"]
        assert again["table"] == before["table"]
        url = f"ws://127.0.0.1:{second.port}/api/tables/{tid}/ws?token={tokens[1]}"
        with websockets.connect(url, open_timeout=600) as socket:
            back = json.loads(socket.recv(timeout=600))
            assert back["last_frame"] == before["last_frame"]
            move(second, tid, tokens)
            assert json.loads(socket.recv(timeout=600))["last_frame"] > before["last_frame"]
    finally:
        second.proc.kill()
        second.proc.wait()
