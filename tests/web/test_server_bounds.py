"""`epigames serve` as its own process: a huge game is refused, long plays stay within the
server's budget and memory, and SIGTERM stops the server while a play runs.

Timings (the health check's latency while a game is played, how long SIGTERM takes) are
measured and printed, not asserted: the assertions are on what does not depend on the
machine's load: the answers, the server's peak memory, and that it exits on SIGTERM.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the server test needs the 'web' extra")

#: The most memory (peak RSS) the server may have used in this test.
MAX_RSS_MB = 300


@dataclass
class Server:
    """A running `epigames serve` process and a way to talk to it."""

    proc: subprocess.Popen[bytes]
    port: int
    health_ms: list[float] = field(default_factory=list)

    def request(
        self, method: str, path: str, body: object = None, conn: Any = None
    ) -> tuple[int, Any]:
        own = conn is None
        conn = conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        try:
            data = None if body is None else json.dumps(body)
            headers = {} if body is None else {"content-type": "application/json"}
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            if own:
                conn.close()

    def memory_mb(self, key: str) -> float:
        """`VmRSS` (now) or `VmHWM` (the peak) of the server, in MB."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
        raise AssertionError(f"no {key} in /proc/{self.proc.pid}/status")

    def cpu_seconds(self) -> float:
        """The server's CPU time so far (user and system)."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start(*options: str) -> Server:
    """Start the server (with `options`) and wait until it answers (another port if this
    one was taken)."""
    for _ in range(5):
        port = _free_port()
        cmd = [sys.executable, "-c", "from epigames.cli import main; main()", "serve"]
        proc = subprocess.Popen(
            [*cmd, "--port", str(port), *options],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        server = Server(proc, port)
        # Started when it answers; a server that could not bind its port has exited.
        while proc.poll() is None:
            try:
                if server.request("GET", "/api/health")[0] == 200:
                    return server
            except OSError:
                time.sleep(0.1)
    raise AssertionError(f"the server did not start: {proc.stderr.read().decode()}")  # type: ignore[union-attr]


@pytest.fixture
def server() -> Iterator[Server]:
    server = _start()
    yield server
    if server.proc.poll() is None:
        server.proc.kill()
        server.proc.wait()


class HealthPoller:
    """Asks `/api/health` over and over from another thread, timing each answer."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.stop = threading.Event()
        self.statuses: list[int] = []
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=600)
        while not self.stop.is_set():
            start = time.perf_counter()
            status, _ = self.server.request("GET", "/api/health", conn=conn)
            self.server.health_ms.append((time.perf_counter() - start) * 1000)
            self.statuses.append(status)
            self.stop.wait(0.02)
        conn.close()

    def __enter__(self) -> HealthPoller:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


def play_to_the_end(server: Server, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Start a watched game and ask for its last frame until it comes, as the page does.

    Returns how many answers were the budget's 503 and the last frame.
    """
    status, info = server.request("POST", "/api/sessions", body)
    assert status == 201, info
    url = f"/api/sessions/{info['session']}/frames/-1"
    partial, reached = 0, info["last_frame"]
    while True:
        status, frame = server.request("GET", url)
        if status == 200:
            return partial, frame
        assert status == 503, frame
        assert frame["last_frame"] > reached and "ask again to play on" in frame["detail"]
        partial, reached = partial + 1, frame["last_frame"]


def test_long_plays_are_bounded_and_sigterm_stops_the_server(server: Server) -> None:
    start_mb = server.memory_mb("VmRSS")
    huge = {"game": "kemps(max_turns=1000000000)", "strategies": ["random"] * 3, "seed": 0}
    status, body = server.request("POST", "/api/sessions", huge)
    assert (status, body) == (
        422,
        {"detail": "kemps: max_turns=1000000000 is out of range 1..100000"},
    )

    # Default Kemps, as the page sets it up: the default agents end the game at once.
    kemps = next(g for g in server.request("GET", "/api/games")[1] if g["name"] == "kemps")
    default = {"game": "kemps", "strategies": [kemps["default_strategy"]] * 3, "seed": 0}
    partial, end = play_to_the_end(server, default)
    assert (partial, end["finished"]) == (0, True)

    with HealthPoller(server) as poller:
        # Random agents play Kemps to the 2023 program's turn cap (about 37,000 moves) and,
        # at the largest cap, past the most frames the server keeps of a game.
        begun = time.perf_counter()
        report_cap = {**huge, "game": "kemps(max_turns=10000)"}
        partial, end = play_to_the_end(server, report_cap)
        random_s = time.perf_counter() - begun
        assert partial >= 1 and end["finished"] and end["last_frame"] > 30_000
        most = {**huge, "game": "kemps(max_turns=100000)"}
        partial, end = play_to_the_end(server, most)
        assert partial >= 1 and not end["finished"] and end["last_frame"] == 50_000
    assert poller.statuses and set(poller.statuses) == {200}
    peak_mb = server.memory_mb("VmHWM")

    # SIGTERM while a client plays a game to its end: once the server is busy playing
    # (its CPU time grows), the signal stops the play and then the server.
    _, info = server.request("POST", "/api/sessions", most)
    player = threading.Thread(target=_keep_playing, args=(server, info["session"]), daemon=True)
    cpu = server.cpu_seconds()
    player.start()
    while server.cpu_seconds() < cpu + 0.3 and player.is_alive():
        time.sleep(0.01)
    sent = time.perf_counter()
    server.proc.send_signal(signal.SIGTERM)
    try:
        code = server.proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        code = None
    stop_s = time.perf_counter() - sent
    health = sorted(server.health_ms)
    print(
        f"\nserver RSS at start {start_mb:.0f} MB, peak {peak_mb:.0f} MB; random Kemps to the "
        f"end {random_s:.1f} s; /api/health while playing: {len(health)} answers, median "
        f"{statistics.median(health):.1f} ms, max {health[-1]:.1f} ms; SIGTERM to exit "
        f"{stop_s:.2f} s (exit code {code})"
    )
    assert code is not None, "the server did not stop within 60 s of SIGTERM"
    assert code in (0, -signal.SIGTERM)
    assert peak_mb < MAX_RSS_MB


def _keep_playing(server: Server, sid: str) -> None:
    """Ask for the last frame over and over, as the page does, until the server is gone."""
    try:
        while server.request("GET", f"/api/sessions/{sid}/frames/-1")[0] == 503:
            pass
    except OSError:
        pass  # the server stopped
