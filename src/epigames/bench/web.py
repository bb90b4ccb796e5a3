"""Web app under load: 50 browser-like sessions stepping through Kwartet games, vs a health check.

The server runs as a separate process (uvicorn, one worker) on a loopback port. Each of
the 50 clients holds one keep-alive connection and its own cookie, as a browser tab does
(HTTP/1.1 by `h11` over asyncio streams: light enough that the clients' own CPU, on the
same machine, stays small beside the server's); they arrive over the first second. First
the baseline: the clients call the trivial `/api/health` endpoint; then each client
repeatedly starts a watched `kwartet(kinds=13)` game and steps through 20 to 60 of its
frames from a random perspective, asking only for new log entries as the browser does,
with a step back now and then. The clients never pause (closed loop, as if every viewer
played at top speed), so a latency includes the queue in the server. Both phases run for
a bounded time. The table (Markdown, as docs/web.md shows it) gives per kind of request
its count, requests/s, p50/p95/p99 latency seen by the clients and p50/p99 inside the
server (`Server-Timing`), errors, and the CPU one request of that kind costs, measured
one at a time before the load (the app called as ASGI in-process); then the load average
and the server's memory: at start, after each round of load and after its games are closed.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console

CLIENTS = 50
GAME = "kwartet(players=4,kinds=13)"
PERSPECTIVES = ("spectator", "0", "1", "2", "3")
#: The clients arrive over this many seconds (people do not all press Watch at once).
RAMP = 1.0
#: A client watches this many frames of a game (at most), then starts another.
WATCHED = (20, 60)
#: The latency quantiles the table shows.
QUANTILES = (0.5, 0.95, 0.99)


@dataclass
class Stats:
    """Latencies (seconds) and errors of one kind of request."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    #: Server-side times (seconds) from the `Server-Timing` header.
    server: list[float] = field(default_factory=list)

    def add(self, seconds: float, ok: bool, server: float | None = None) -> None:
        self.latencies.append(seconds)
        self.errors += not ok
        if server is not None:
            self.server.append(server)

    def quantile(self, q: float, server: bool = False) -> float:
        values = self.server if server else self.latencies
        if not values:
            return float("nan")
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass(frozen=True, slots=True)
class Reply:
    """A response: status, headers (lower-case names) and body."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Connection:
    """One keep-alive HTTP/1.1 connection with its own cookie, as a browser tab holds."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.cookie = ""
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, target: str, payload: Any = None) -> Reply:
        """Send one request and read its response (connecting first if need be)."""
        import h11

        if self._streams is None:
            self._streams = await asyncio.open_connection(self.host, self.port)
            self._h11 = h11.Connection(h11.CLIENT)
        reader, writer = self._streams
        body = b"" if payload is None else json.dumps(payload).encode()
        headers = [("host", self.host), ("content-length", str(len(body)))]
        if payload is not None:
            headers.append(("content-type", "application/json"))
        if self.cookie:
            headers.append(("cookie", self.cookie))
        conn = self._h11
        data = conn.send(h11.Request(method=method, target=target, headers=headers)) or b""
        data += (conn.send(h11.Data(data=body)) or b"") if body else b""
        writer.write(data + (conn.send(h11.EndOfMessage()) or b""))
        status, got, chunks = 0, {}, []
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                received = await reader.read(1 << 16)
                if not received:
                    raise ConnectionError("the server closed the connection")
                conn.receive_data(received)
            elif isinstance(event, h11.Response):
                status = event.status_code
                got = {k.decode().lower(): v.decode("latin-1") for k, v in event.headers}
            elif isinstance(event, h11.Data):
                chunks.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                break
        conn.start_next_cycle()
        if "set-cookie" in got:
            self.cookie = got["set-cookie"].split(";", 1)[0]
        return Reply(status, got, b"".join(chunks))

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _server_seconds(headers: dict[str, str]) -> float | None:
    timing = headers.get("server-timing", "")
    return float(timing.split("dur=")[1]) / 1000 if "dur=" in timing else None


async def _timed(
    conn: Connection, stats: Stats, method: str, target: str, payload: Any = None
) -> Reply | None:
    started = time.perf_counter()
    try:
        reply = await conn.request(method, target, payload)
    except (OSError, ConnectionError):  # a refused or broken connection counts as an error
        conn.close()
        stats.add(time.perf_counter() - started, False)
        return None
    ok = reply.status < 400
    stats.add(time.perf_counter() - started, ok, _server_seconds(reply.headers))
    return reply if ok else None


Send = Callable[[str, str, Any], Awaitable["Reply | None"]]


async def _browse(send: Send, n: int, stop: float, sessions: set[str]) -> None:
    """One client's load: start a game and step through it as the browser does; again."""
    rng = random.Random(n)
    game = 0
    while time.perf_counter() < stop:
        sid = await _play_one(send, n * 1000 + game, rng, stop)
        game += 1
        if sid is not None:
            sessions.add(sid)


async def _play_one(send: Send, seed: int, rng: random.Random, stop: float) -> str | None:
    """Start a game and step through some of it from a random perspective; its id."""
    body = {"game": GAME, "strategies": ["random"] * 4, "seed": seed}
    created = await send("start game", "POST /api/sessions", body)
    if created is None:
        return None
    info = created.json()
    sid: str = info["session"]
    last: int = info["last_frame"]
    perspective = rng.choice(PERSPECTIVES)
    end = min(last, rng.randint(*WATCHED))
    have = 0
    frame = 0
    while frame <= end and time.perf_counter() < stop:
        back = frame > 2 and rng.random() < 0.1
        target = frame - 2 if back else frame
        query = f"perspective={perspective}&since={0 if back else have}"
        r = await send("step", f"GET /api/sessions/{sid}/frames/{target}?{query}", None)
        if r is not None and not back:
            have = r.json()["log_length"]
        frame += 1
    return sid


async def _clients(
    port: int,
    seconds: float,
    stats: dict[str, Stats],
    work: Callable[[Send, int, float], Awaitable[None]],
) -> float:
    """Run `work` on `CLIENTS` connections for about `seconds` (client `n` arriving
    `n * RAMP / CLIENTS` s late); the time it took."""
    conns = [Connection("127.0.0.1", port) for _ in range(CLIENTS)]

    def sender(conn: Connection) -> Send:
        async def send(kind: str, request: str, payload: Any) -> Reply | None:
            method, target = request.split(" ", 1)
            return await _timed(conn, stats[kind], method, target, payload)

        return send

    async def arrive(n: int, conn: Connection, stop: float) -> None:
        await asyncio.sleep(n * RAMP / CLIENTS)
        await work(sender(conn), n, stop)

    started = time.perf_counter()
    try:
        stop = started + seconds
        await asyncio.gather(*(arrive(n, c, stop) for n, c in enumerate(conns)))
    finally:
        for c in conns:
            c.close()
    return time.perf_counter() - started


async def _close_all(port: int, sessions: set[str]) -> int:
    conn = Connection("127.0.0.1", port)
    errors = 0
    try:
        for sid in sessions:
            r = await conn.request("DELETE", f"/api/sessions/{sid}")
            # 404: evicted already (the store is bounded), which is what it is for.
            errors += r.status not in (200, 404)
    finally:
        conn.close()
    return errors


async def _health(send: Send, n: int, stop: float) -> None:
    while time.perf_counter() < stop:
        await send("health", "GET /api/health", None)


def _cpu_per_request(games: int) -> dict[str, float]:
    """CPU seconds per request of each kind, one request at a time in this process.

    The app with its middleware, called directly as ASGI (no HTTP parsing, no client) as
    one client of the load drives it, for `games` games after one to warm up (the first
    request of a route builds its handling).
    """
    from epigames.web.app import create_app

    app = create_app()
    cpu: dict[str, list[float]] = {"health": [], "start game": [], "step": []}

    async def send(kind: str, request: str, payload: Any) -> Reply | None:
        method, target = request.split(" ", 1)
        path, _, query = target.partition("?")
        body = b"" if payload is None else json.dumps(payload).encode()
        scope = {
            "type": "http", "http_version": "1.1", "method": method, "scheme": "http",
            "path": path, "raw_path": path.encode(), "query_string": query.encode(),
            "root_path": "", "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
            "headers": [(b"host", b"bench"), (b"content-length", str(len(body)).encode()),
                        (b"content-type", b"application/json")],
        }  # fmt: skip
        sent: list[MutableMapping[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def respond(message: MutableMapping[str, Any]) -> None:
            sent.append(message)

        started = time.process_time()
        await app(scope, receive, respond)
        cpu[kind].append(time.process_time() - started)
        status = sent[0]["status"]
        content = b"".join(m.get("body", b"") for m in sent[1:])
        return Reply(status, {}, content) if status < 400 else None

    async def drive() -> None:
        for n in range(games + 1):
            if n == 1:
                for times in cpu.values():
                    times.clear()
            await send("health", "GET /api/health", None)
            await _play_one(send, n, random.Random(n), float("inf"))

    asyncio.run(drive())
    return {kind: sum(v) / len(v) for kind, v in cpu.items() if v}


def _start_server(port: int) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable, "-m", "uvicorn", "--factory", "epigames.web.app:create_app",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
    ]  # fmt: skip
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _wait_ready(port: int, proc: subprocess.Popen[bytes]) -> None:
    async def ping() -> bool:
        conn = Connection("127.0.0.1", port)
        try:
            return (await conn.request("GET", "/api/health")).status == 200
        except OSError:
            return False
        finally:
            conn.close()

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise RuntimeError(f"the server exited: {err[-500:]}")
        if asyncio.run(ping()):
            return
        time.sleep(0.1)
    raise RuntimeError("the server did not start within 60 s")


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:,.1f}"


def table(stats: dict[str, Stats], elapsed: dict[str, float], cpu: dict[str, float]) -> str:
    """The Markdown table of a run: a row per kind of request and one for all game requests."""
    head = ["requests", "count", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors",
            "server p50", "server p99", "CPU ms"]  # fmt: skip
    lines = ["| " + " | ".join(head) + " |", "|---" + "|--:" * (len(head) - 1) + "|"]
    game = [s for kind, s in stats.items() if kind != "health"]
    together = Stats(
        [x for s in game for x in s.latencies],
        sum(s.errors for s in game),
        [x for s in game for x in s.server],
    )
    rows = [*stats.items(), ("all game requests", together)]
    for kind, s in rows:
        seconds = elapsed.get(kind, elapsed["start game"])
        cells = [kind, f"{len(s.latencies):,}", f"{len(s.latencies) / seconds:,.0f}"]
        cells += [_ms(s.quantile(q)) for q in QUANTILES]
        cells.append(str(s.errors))
        cells += [_ms(s.quantile(q, server=True)) for q in (0.5, 0.99)]
        cells.append(_ms(cpu[kind]) if kind in cpu else "")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def run(console: Console, quick: bool) -> None:
    """Run the load test and print its table."""
    seconds = 6.0 if quick else 40.0
    baseline_seconds = 2.0 if quick else 6.0
    cpu = _cpu_per_request(2 if quick else 10)
    port = _free_port()
    proc = _start_server(port)
    load = [os.getloadavg()[0]]
    try:
        _wait_ready(port, proc)
        rss_start = _rss_mb(proc.pid)
        console.print(
            f"web bench: {CLIENTS} clients, {GAME}, server pid {proc.pid} on port {port}; "
            f"baseline {baseline_seconds:.0f} s, then two rounds of {seconds / 2:.0f} s load, "
            "each followed by closing its games",
            highlight=False,
        )
        stats = {"health": Stats(), "start game": Stats(), "step": Stats()}
        elapsed = {"health": asyncio.run(_clients(port, baseline_seconds, stats, _health))}
        memory = [("at start", rss_start)]
        load_time = 0.0
        started_games = 0
        close_errors = 0
        for round_ in (1, 2):
            sessions: set[str] = set()

            async def browse(send: Send, n: int, stop: float) -> None:
                await _browse(send, 1000 * round_ + n, stop, sessions)  # noqa: B023

            load_time += asyncio.run(_clients(port, seconds / 2, stats, browse))
            started_games += len(sessions)
            memory.append((f"after load {round_}", _rss_mb(proc.pid)))
            close_errors += asyncio.run(_close_all(port, sessions))
            time.sleep(0.5)
            memory.append((f"after closing {round_}", _rss_mb(proc.pid)))
        load.append(os.getloadavg()[0])
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    elapsed["start game"] = elapsed["step"] = load_time
    console.print(table(stats, elapsed, cpu), markup=False, highlight=False, soft_wrap=True)
    console.print(
        f"load average (1 min) {load[0]:.1f} at the start, {load[-1]:.1f} at the end, on "
        f"{os.cpu_count()} cores · server memory (RSS, MB): "
        + ", ".join(f"{label} {mb:.0f}" for label, mb in memory)
        + f" · {started_games} games started (at most 200 held), {close_errors} errors closing",
        highlight=False,
    )
    console.print(
        "p50/p95/p99: seen by the clients, closed loop (the 50 clients never pause), so they "
        "include the queue in the one server process; server p50/p99: from the request to "
        "its response inside the server (Server-Timing); CPU ms: one request at a time, "
        "the app called in-process (no HTTP parsing).",
        highlight=False,
    )
