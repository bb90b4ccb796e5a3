"""Web app under load: 50 sessions watching Kwartet, then 50 tables x 4 people, moves pushed.

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

Then the tables workload (`web.tables`): the server started again, as `epigames serve
--tables FILE` would be, holds 50 Klaverjas tables with four person seats each, and a
WebSocket client per seat (200, asyncio, in this process) waits for the pushed status. A
driver moves at a steady rate over all tables: the seat to move asks for its frame with its
token and posts its first legal action; each of the four clients of that table must then
receive the status with the new version once. A push's latency runs from just before the
move is sent to when a client receives it (wall clock, this process). A table whose game
ends is replaced by a new one. The server's memory (`VmRSS`) is sampled every few seconds,
its CPU time read from `/proc` beside the wall clock; a second table checks the goals of
issue 38 (p99 under 200 ms, no error, memory flat).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
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


def _stop_server(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, and SIGKILL if it has not stopped within 10 s."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


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


def run_sessions(console: Console, quick: bool) -> None:
    """Run the sessions load test (50 clients watching games) and print its table."""
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
        _stop_server(proc)
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


# Tables: several people at one game, each move pushed to every seat's WebSocket.


@dataclass(frozen=True, slots=True)
class TablesSetting:
    """The size of a tables run."""

    #: Tables held at once, a person at every seat (and a WebSocket per person).
    tables: int
    #: The game of every table (one that lasts; an ended one is replaced).
    game: str
    #: Moves a second over all tables (a table moves every `tables / rate` s).
    moves_per_second: float
    #: How long moves are made.
    seconds: float
    #: The memory after this many seconds of moves is what "flat" compares the end with.
    warm_up: float
    #: The server's memory is read this often (seconds).
    sample_every: float


#: The issue's run: 50 tables x 4 people for 10 minutes; a move every 2 s at each table, so
#: a 4-deal Klaverjas match (132 moves) ends and is replaced about twice a table.
FULL = TablesSetting(50, "klaverjas(deals=4)", 25.0, 600.0, 60.0, 5.0)
#: `--quick`: 10 tables, one-deal matches (33 moves, replaced once or twice), 25 s.
QUICK = TablesSetting(10, "klaverjas(deals=1)", 20.0, 25.0, 5.0, 1.0)
#: A push not received this long after its move was sent is missing.
PUSH_TIMEOUT = 10.0
#: The goals of issue 38: push p99 under this (seconds), and memory "flat": the end at
#: most this share or this many MB (the larger) above the memory after the warm-up.
GOAL_P99 = 0.2
FLAT_SHARE, FLAT_MB = 0.10, 20.0


@dataclass
class TablesReport:
    """What a tables run measured: a `Stats` per kind of request and for the pushes.

    Attributes:
        pushes: per move, per client of its table, the time from just before the move
            was sent to when the client received the status with the move's version;
            its errors are missing, duplicate and out-of-order pushes and disconnects.
        reasons: every error by what it was.
        memory: the server's RSS (MB) every `sample_every` s, by seconds since the moves
            began (the first at 0, the last after the moves ended).
        server_cpu: the server's CPU seconds while the moves were made; `client_cpu` the
            same for this process (the 4 x `tables` clients and the driver); `wall` the
            time it took.
    """

    setting: TablesSetting
    opened: Stats = field(default_factory=Stats)
    frames: Stats = field(default_factory=Stats)
    moves: Stats = field(default_factory=Stats)
    pushes: Stats = field(default_factory=Stats)
    reasons: Counter[str] = field(default_factory=Counter)
    games_finished: int = 0
    rss_start: float = float("nan")
    memory: list[tuple[float, float]] = field(default_factory=list)
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    wall: float = 0.0
    load: tuple[float, float] = (float("nan"), float("nan"))

    def fail(self, stats: Stats, reason: str, seconds: float | None = None) -> None:
        """Count an error of `stats` (with its latency, if it had one) and its reason."""
        if seconds is None:
            stats.errors += 1
        else:
            stats.add(seconds, False)
        self.reasons[reason] += 1

    @property
    def errors(self) -> int:
        return sum(self.reasons.values())

    @property
    def moves_made(self) -> int:
        """Moves the server accepted (200)."""
        return len(self.moves.latencies) - self.moves.errors

    @property
    def pushes_expected(self) -> int:
        return 4 * self.moves_made

    @property
    def pushes_received(self) -> int:
        return len(self.pushes.latencies)

    @property
    def rss_after_warm_up(self) -> float:
        later = [mb for t, mb in self.memory if t >= self.setting.warm_up]
        return later[0] if later else float("nan")

    @property
    def rss_end(self) -> float:
        return self.memory[-1][1] if self.memory else float("nan")

    @property
    def flat(self) -> bool:
        warm = self.rss_after_warm_up
        return self.rss_end - warm <= max(FLAT_SHARE * warm, FLAT_MB)

    def growth_per_minute(self) -> float:
        """The least-squares slope (MB a minute) of the memory after the warm-up."""
        points = [(t, mb) for t, mb in self.memory if t >= self.setting.warm_up]
        if len(points) < 2:
            return float("nan")
        mt = sum(t for t, _ in points) / len(points)
        mm = sum(mb for _, mb in points) / len(points)
        var = sum((t - mt) ** 2 for t, _ in points)
        return 60 * sum((t - mt) * (mb - mm) for t, mb in points) / var if var else 0.0

    def goals(self) -> list[tuple[str, str, bool]]:
        """(goal, what was measured, met) for each goal of the issue."""
        p99 = self.pushes.quantile(0.99)
        received, expected = self.pushes_received, self.pushes_expected
        warm, end = self.rss_after_warm_up, self.rss_end
        return [
            (f"push p99 < {1000 * GOAL_P99:.0f} ms", f"{_ms(p99)} ms", p99 < GOAL_P99),
            ("0 errors", f"{self.errors:,}", self.errors == 0),
            ("every push received", f"{received:,} of {expected:,}", received == expected),
            (
                f"memory flat (the end within {FLAT_SHARE:.0%} or {FLAT_MB:.0f} MB of "
                "after the warm-up)",
                f"{warm:.0f} → {end:.0f} MB",
                self.flat,
            ),
        ]


@dataclass
class Report:
    """What `run` measured (the sessions workload only prints its table)."""

    tables: TablesReport


@dataclass
class _Seat:
    """A person's WebSocket and what it received: (version, time), None once closed."""

    socket: Any
    inbox: asyncio.Queue[tuple[int, float] | None]
    listener: asyncio.Task[None]


@dataclass
class _Board:
    """One open table as the driver knows it."""

    id: str
    tokens: dict[int, str]
    version: int
    to_move: int
    finished: bool
    seats: list[_Seat] = field(default_factory=list)
    #: Per seat, how much of the log it has (a frame asks only for what is new).
    log_length: dict[int, int] = field(default_factory=dict)


async def _listen(socket: Any, inbox: asyncio.Queue[tuple[int, float] | None]) -> None:
    """Put each status the socket receives (its version and when) into `inbox`."""
    from websockets.exceptions import ConnectionClosed

    try:
        async for message in socket:
            received = time.perf_counter()
            inbox.put_nowait((int(json.loads(message)["version"]), received))
    except ConnectionClosed:
        pass
    finally:
        inbox.put_nowait(None)


async def _close_board(board: _Board) -> None:
    for seat in board.seats:
        await seat.socket.close()
        await seat.listener
    board.seats.clear()


async def _request(
    conn: Connection, method: str, target: str, payload: Any = None
) -> tuple[Reply | None, float]:
    started = time.perf_counter()
    try:
        reply: Reply | None = await conn.request(method, target, payload)
    except (OSError, ConnectionError):
        conn.close()
        reply = None
    return reply, time.perf_counter() - started


async def _open_board(
    conn: Connection, port: int, game: str, seed: int, report: TablesReport
) -> _Board | None:
    """Open a table with a person at every seat and connect a WebSocket for each; None
    (and an error counted) if that failed."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    body = {"game": game, "seats": ["person"] * 4, "seed": seed}
    reply, seconds = await _request(conn, "POST", "/api/tables", body)
    if reply is None or reply.status != 201:
        why = "no answer" if reply is None else f"HTTP {reply.status}"
        report.fail(report.opened, f"open a table: {why}", seconds)
        return None
    info = reply.json()
    tokens = {t["seat"]: t["token"] for t in info["tokens"]}
    board = _Board(info["table"], tokens, info["version"], info["to_move"], info["finished"])
    board.log_length = dict.fromkeys(tokens, 0)
    started = time.perf_counter()
    for token in tokens.values():
        url = f"ws://127.0.0.1:{port}/api/tables/{board.id}/ws?token={token}"
        try:
            socket = await connect(url, proxy=None, open_timeout=3 * PUSH_TIMEOUT)
        except (OSError, TimeoutError, WebSocketException) as exc:
            report.fail(report.opened, f"WebSocket not connected ({type(exc).__name__})")
            await _close_board(board)
            return None
        inbox: asyncio.Queue[tuple[int, float] | None] = asyncio.Queue()
        board.seats.append(_Seat(socket, inbox, asyncio.create_task(_listen(socket, inbox))))
        try:
            hello = await asyncio.wait_for(inbox.get(), PUSH_TIMEOUT)
        except TimeoutError:
            hello = None
        if hello is None or hello[0] != board.version:
            report.fail(report.opened, "no status (or the wrong one) on connecting")
            await _close_board(board)
            return None
    report.opened.add(seconds + time.perf_counter() - started, True)
    return board


async def _pushed(seat: _Seat, version: int, sent: float, report: TablesReport) -> bool:
    """Wait for `seat` to receive the status with `version` and time it; False (and an
    error counted) if it came not, came twice or the socket closed."""
    while True:
        left = sent + PUSH_TIMEOUT - time.perf_counter()
        try:
            got = await asyncio.wait_for(seat.inbox.get(), max(left, 0.0))
        except TimeoutError:
            report.fail(report.pushes, f"push missing after {PUSH_TIMEOUT:.0f} s")
            return False
        if got is None:
            report.fail(report.pushes, "WebSocket closed by the server")
            return False
        if got[0] == version:
            report.pushes.add(got[1] - sent, True)
            return True
        if got[0] < version:  # one received before: a duplicate; wait on for the new one
            report.fail(report.pushes, "duplicate push")
            continue
        report.fail(report.pushes, "push skipped a version")
        return False


async def _move(conn: Connection, board: _Board, report: TablesReport) -> bool:
    """The seat to move asks for its frame and plays its first legal action; every client
    of the table must receive the new status. False if something failed (counted)."""
    seat = board.to_move
    token = board.tokens.get(seat)
    if token is None:
        report.fail(report.moves, f"the table is at no person's turn ({seat})")
        return False
    since = board.log_length[seat]
    target = f"/api/tables/{board.id}/frames/-1?token={token}&since={since}"
    reply, seconds = await _request(conn, "GET", target)
    if reply is None or reply.status != 200:
        report.fail(report.frames, f"frame: {'no answer' if reply is None else reply.status}")
        return False
    report.frames.add(seconds, True)
    frame = reply.json()
    board.log_length[seat] = frame["log_length"]
    if not frame["legal_actions"]:
        report.fail(report.frames, "no legal action for the seat to move")
        return False
    body = {"token": token, "action": frame["legal_actions"][0]}
    sent = time.perf_counter()
    reply, seconds = await _request(conn, "POST", f"/api/tables/{board.id}/moves", body)
    if reply is None or reply.status != 200:
        report.fail(report.moves, f"move: {'no answer' if reply is None else reply.status}")
        return False
    report.moves.add(seconds, True)
    info = reply.json()
    if info["version"] != board.version + 1:
        report.fail(report.moves, "the move's version is not the next one")
    board.version, board.to_move, board.finished = (
        info["version"], info["to_move"], info["finished"]
    )  # fmt: skip
    pushed = [await _pushed(s, board.version, sent, report) for s in board.seats]
    return all(pushed)


async def _drive_table(
    n: int, port: int, board: _Board | None, begin: float, report: TablesReport
) -> None:
    """Table `n`'s share of the moves, one every `tables / rate` s from its slot after
    `begin`; a new table in place of one whose game ended or went wrong."""
    setting = report.setting
    conn = Connection("127.0.0.1", port)
    period = setting.tables / setting.moves_per_second
    next_at = begin + n * period / setting.tables
    stop = begin + setting.seconds
    games = 1
    try:
        while time.perf_counter() < stop:
            if board is None or board.finished:
                if board is not None:
                    report.games_finished += 1
                    await _close_board(board)
                board = await _open_board(conn, port, setting.game, 1000 * n + games, report)
                games += 1
                if board is None:
                    await asyncio.sleep(1.0)
                    continue
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            now = time.perf_counter()
            if now >= stop:
                break
            # A steady rate: behind by more than a move, the table does not rush to catch up.
            next_at = max(next_at + period, now)
            if not await _move(conn, board, report):
                await _close_board(board)
                board = None
    finally:
        if board is not None:
            await _close_board(board)
        conn.close()


async def _sample_memory(pid: int, begin: float, stop: float, report: TablesReport) -> None:
    while (now := time.perf_counter()) < stop:
        report.memory.append((now - begin, _rss_mb(pid)))
        await asyncio.sleep(min(report.setting.sample_every, stop - now))


async def _drive_tables(port: int, pid: int, report: TablesReport) -> None:
    """Open the tables, then make moves over all of them for `setting.seconds`."""
    setting = report.setting
    conns = [Connection("127.0.0.1", port) for _ in range(setting.tables)]
    try:
        boards = await asyncio.gather(
            *(_open_board(c, port, setting.game, 1000 * n, report) for n, c in enumerate(conns))
        )
    finally:
        for c in conns:
            c.close()
    cpu, own = _cpu_seconds(pid), time.process_time()
    begin = time.perf_counter()
    sampler = asyncio.create_task(_sample_memory(pid, begin, begin + setting.seconds, report))
    await asyncio.gather(*(_drive_table(n, port, b, begin, report) for n, b in enumerate(boards)))
    await sampler
    report.wall = time.perf_counter() - begin
    report.server_cpu = _cpu_seconds(pid) - cpu
    report.client_cpu = time.process_time() - own
    report.memory.append((report.wall, _rss_mb(pid)))


def _cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start_tables_server(port: int, tables: Path) -> subprocess.Popen[bytes]:
    """`epigames serve --tables FILE`, as it is deployed (the collector frozen at start)."""
    cmd = [sys.executable, "-c", "from epigames.cli import main; main()", "serve"]
    cmd += ["--port", str(port), "--tables", str(tables)]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def tables_table(report: TablesReport) -> str:
    """The Markdown table of a tables run: a row per kind of request and for the pushes."""
    head = ["tables", "count", "per s", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors"]
    lines = ["| " + " | ".join(head) + " |", "|---" + "|--:" * (len(head) - 1) + "|"]
    rows = [
        ("open a table (POST, 4 WebSockets)", report.opened),
        ("frame of the seat to move (GET)", report.frames),
        ("move (POST, to its answer)", report.moves),
        ("push (each client, from the move sent)", report.pushes),
    ]
    for label, s in rows:
        count = len(s.latencies)
        # Tables are opened at the start, before the clock runs, and then when one ends.
        rate = "" if s is report.opened or not report.wall else f"{count / report.wall:,.1f}"
        cells = [label, f"{count:,}", rate]
        cells += [_ms(s.quantile(q)) for q in (*QUANTILES, 1.0)]
        cells.append(str(s.errors))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def goals_table(report: TablesReport) -> str:
    """The Markdown table of the issue's goals: measured, and met or not."""
    lines = ["| goal | measured | met |", "|---|--:|---|"]
    for goal, measured, met in report.goals():
        lines.append(f"| {goal} | {measured} | {'met' if met else 'not met'} |")
    return "\n".join(lines)


def run_tables(console: Console, quick: bool) -> TablesReport:
    """Run the tables workload and print its tables; what it measured."""
    setting = QUICK if quick else FULL
    report = TablesReport(setting)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="epigames-bench-") as folder:
        port = _free_port()
        proc = _start_tables_server(port, Path(folder) / "tables.sqlite")
        try:
            _wait_ready(port, proc)
            report.rss_start = _rss_mb(proc.pid)
            console.print(
                f"web bench, tables: {setting.tables} tables of {setting.game}, a person and "
                f"a WebSocket at each of the 4 seats; {setting.moves_per_second:g} moves/s "
                f"over all tables for {setting.seconds:.0f} s (memory after "
                f"{setting.warm_up:.0f} s is the warm-up's); server pid {proc.pid}",
                highlight=False,
            )
            asyncio.run(_drive_tables(port, proc.pid, report))
            report.load = (load, os.getloadavg()[0])
        finally:
            _stop_server(proc)
    _print_tables(console, report)
    return report


def _print_tables(console: Console, report: TablesReport) -> None:
    for text in (tables_table(report), goals_table(report)):
        console.print(text, markup=False, highlight=False, soft_wrap=True)
    moves = report.moves_made
    per_move = 1000 * report.server_cpu / moves if moves else float("nan")
    peak = max((mb for _, mb in report.memory), default=float("nan"))
    console.print(
        f"{moves:,} moves in {report.wall:.1f} s ({moves / report.wall:.1f}/s), "
        f"{report.pushes_received:,} pushes received of {report.pushes_expected:,}; "
        f"{report.games_finished} games played to the end and replaced · server CPU "
        f"{report.server_cpu:.1f} s in {report.wall:.1f} s of wall clock "
        f"({report.server_cpu / report.wall:.0%} of a core, {per_move:.1f} ms a move); "
        f"the clients' process {report.client_cpu:.1f} s · server memory (RSS, MB): at "
        f"start {report.rss_start:.0f}, after the warm-up {report.rss_after_warm_up:.0f}, "
        f"at most {peak:.0f}, at the end {report.rss_end:.0f} "
        f"({report.growth_per_minute():+.1f} MB a minute after the warm-up) · load average "
        f"(1 min) {report.load[0]:.1f} at the start, {report.load[1]:.1f} at the end, on "
        f"{os.cpu_count()} cores",
        highlight=False,
    )
    if report.reasons:
        console.print(
            "errors: " + ", ".join(f"{n} × {why}" for why, n in report.reasons.most_common()),
            highlight=False,
        )


def run(console: Console, quick: bool) -> Report:
    """Run both workloads, sessions then tables, and print their tables."""
    run_sessions(console, quick)
    return Report(run_tables(console, quick))
