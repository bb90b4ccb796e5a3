"""The FastAPI application: a JSON API under `/api` and the static front end at `/`.

Errors are JSON `{"detail": "a sentence"}`: bad input is 422, a request for another seat
403, out of turn or a finished game 409, unknown things 404, oversized bodies 413, too
many games or tournaments 429. An unexpected exception is logged and answered with a JSON
500 (never a dropped connection). Clients are told apart by a cookie the server sets
(`epigames_client`) together with their address; games and tournament jobs are capped
per client.
"""

from __future__ import annotations

import logging
import re
import secrets
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from epigames import __version__
from epigames.errors import EpigamesError, InputError
from epigames.games import game_class, load_game, registered_games, strategies_for
from epigames.games.picture import HasPictures
from epigames.web import views
from epigames.web.builders import MAX_SEED, play_session, watch_session
from epigames.web.session import HUMAN, SessionError
from epigames.web.store import SessionStore
from epigames.web.tournaments import MAX_WEB_GAMES, TournamentDir

#: Largest request body accepted, in bytes.
MAX_BODY = 16 * 1024
STATIC = Path(__file__).parent / "static"
#: The cookie that tells clients apart (with their address); not a secret or a login.
CLIENT_COOKIE = "epigames_client"
_CLIENT_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")

log = logging.getLogger("epigames.web")

Text = Annotated[str, Field(min_length=1, max_length=200)]
Name = Annotated[str, Field(min_length=1, max_length=40)]
Seed = Annotated[int, Field(ge=0, le=MAX_SEED)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewSession(_Body):
    """Start a game: watched (no `human_seat`) or played by a person at `human_seat`."""

    game: Text = Field(examples=["kwartet(players=4,kinds=13)"])
    strategies: list[Name] = Field(min_length=1, max_length=8)
    seed: Seed | None = None
    human_seat: int | Name | None = None


class TournamentGame(_Body):
    """Watch game `index` of a stored tournament."""

    db: Name
    name: Name
    index: int = Field(ge=0, le=2**31)


class Move(_Body):
    """A person's move: the seat it plays and the action's text."""

    seat: int | Name
    action: Text


class FormulaQuery(_Body):
    """A formula about one subject's picture at one frame."""

    frame: int
    subject: Name
    perspective: Name | None = None
    formula: str = Field(min_length=1, max_length=1000)


class NewTournament(_Body):
    """A small tournament to play into a results file of the `--db-dir`."""

    db: Name
    name: Name = "web"
    game: Text
    strategies: list[Name] = Field(min_length=1, max_length=8)
    games: int = Field(ge=1, le=MAX_WEB_GAMES)
    seed: Seed = 20240401


class BodyLimit:
    """ASGI middleware: refuse bodies over `limit` bytes with 413 (also when streamed)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(send)
            return
        # Bodies here are small: read the whole body first (stopping at the limit), so an
        # oversized streamed body is refused before the app sees any of it.
        messages: list[Message] = []
        seen = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            seen += len(message.get("body", b""))
            if seen > self.limit:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break
        replay = iter(messages)

        async def buffered() -> Message:
            return next(replay, None) or await receive()

        await self.app(scope, buffered, send)

    async def _refuse(self, send: Send) -> None:
        response = JSONResponse(
            {"detail": f"request body too large: at most {self.limit} bytes"}, status_code=413
        )
        await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:  # pragma: no cover - JSONResponse never reads
    return {"type": "http.disconnect"}


class ServerTiming:
    """ASGI middleware: a `Server-Timing: app;dur=MS` header on every response.

    The time from receiving the request to starting the response, measured in the server:
    the load benchmark reads it to tell server work from client and network overhead.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                ms = 1000 * (time.perf_counter() - started)
                headers = [
                    *message.get("headers", []),
                    (b"server-timing", f"app;dur={ms:.2f}".encode()),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, timed_send)


class ClientCookie:
    """ASGI middleware: give each client a random cookie, and the request its value.

    The value is `scope["state"]["client_token"]` (so `request.state.client_token`); a
    request without a well-formed cookie gets a new one, set on its response.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        header = dict(scope.get("headers") or []).get(b"cookie", b"")
        token = cookie_parser(header.decode("latin-1")).get(CLIENT_COOKIE, "")
        fresh = not _CLIENT_TOKEN.fullmatch(token)
        if fresh:
            token = secrets.token_urlsafe(16)
        scope.setdefault("state", {})["client_token"] = token

        async def send_cookie(message: Message) -> None:
            if fresh and message["type"] == "http.response.start":
                cookie = f"{CLIENT_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax"
                headers = [*message.get("headers", []), (b"set-cookie", cookie.encode())]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_cookie)


class CatchAll:
    """ASGI middleware: an unexpected exception becomes a logged JSON 500.

    Starlette's own handler for `Exception` answers and then re-raises, and the server
    drops the (kept-alive) connection on that; this one answers and keeps it.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception:
            log.exception("unexpected error in %s %s", scope.get("method"), scope.get("path"))
            if started:  # too late for a response of our own
                raise
            response = JSONResponse(
                {"detail": "internal error: the server logged it; please report it"},
                status_code=500,
            )
            await response(scope, _no_receive, send)


def client_of(request: Request) -> tuple[str, str]:
    """The client's key (its cookie and address) and its address."""
    address = request.client.host if request.client is not None else ""
    token = getattr(request.state, "client_token", "")
    return f"{address} {token}", address


def _sweeper(store: SessionStore, stop: threading.Event, every: float) -> None:
    """Evict idle sessions now and then, even when no request comes."""
    while not stop.wait(every):
        store.sweep()


def create_app(
    db_dir: str | Path | None = None,
    *,
    max_sessions: int = 200,
    idle_seconds: float = 900.0,
    max_per_client: int = 20,
    max_jobs: int = 2,
    max_jobs_per_client: int = 1,
) -> FastAPI:
    """Build the app.

    Args:
        db_dir: a directory of tournament result files (`*.duckdb`) for the tournaments
            page; None for none.
        max_sessions: most games held in memory (see `SessionStore` for which go first).
        idle_seconds: a game unused this long is evicted.
        max_per_client: most games one client holds (its least recently used go first).
        max_jobs: most tournaments running at once...
        max_jobs_per_client: ...and for one client.
    """
    store = SessionStore(
        max_sessions=max_sessions, idle_seconds=idle_seconds, max_per_client=max_per_client
    )
    tournaments = TournamentDir(
        Path(db_dir) if db_dir is not None else None,
        max_jobs=max_jobs,
        max_jobs_per_client=max_jobs_per_client,
    )
    stop = threading.Event()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        every = max(1.0, min(60.0, idle_seconds / 4))
        threading.Thread(target=_sweeper, args=(store, stop, every), daemon=True).start()
        yield
        stop.set()

    app = FastAPI(title="epigames", version=__version__, docs_url="/api/docs", lifespan=lifespan)
    app.state.sessions = store
    app.state.tournaments = tournaments

    # Messages from the tournament store may name files by path: `scrub` takes it out.
    @app.exception_handler(SessionError)
    async def _session_error(request: Request, exc: SessionError) -> JSONResponse:
        return JSONResponse({"detail": tournaments.scrub(str(exc))}, status_code=exc.status)

    @app.exception_handler(InputError)
    async def _input_error(request: Request, exc: InputError) -> JSONResponse:
        return JSONResponse({"detail": tournaments.scrub(str(exc))}, status_code=422)

    @app.exception_handler(EpigamesError)
    async def _other_error(request: Request, exc: EpigamesError) -> JSONResponse:
        log.error("error in %s %s: %s", request.method, request.url.path, exc, exc_info=exc)
        return JSONResponse({"detail": tournaments.scrub(str(exc))}, status_code=500)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
        return JSONResponse({"detail": "bad request: " + "; ".join(parts)}, status_code=422)

    # --- games --------------------------------------------------------------------

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """A trivial endpoint (the benchmark's baseline); also how many games are held."""
        return {"ok": True, "version": __version__, "sessions": len(store)}

    @app.get("/api/games")
    def games() -> list[dict[str, Any]]:
        """Every registered game: parameters (defaults, ranges) and strategies."""
        out = []
        for name in registered_games():
            cls = game_class(name)
            game = load_game(name)
            out.append(
                {
                    "name": name,
                    "doc": (cls.__doc__ or "").strip().splitlines()[0],
                    "params": [
                        {
                            "name": p.name,
                            "type": p.type.__name__,
                            "default": p.default,
                            "min": p.min,
                            "max": p.max,
                            "choices": list(p.choices) if p.choices else None,
                            "help": p.help,
                        }
                        for p in cls.params
                    ],
                    "strategies": strategies_for(name),
                    "seat_names": list(game.seat_names),
                    "pictures": isinstance(game.new_initial_state(), HasPictures),
                }
            )
        return out

    @app.get("/api/game")
    def describe_game(spec: Annotated[str, Query(max_length=200)]) -> dict[str, Any]:
        """A game string's canonical form, seats and strategies (422 when it is bad)."""
        game = load_game(spec)
        return {
            "game": str(game),
            "name": game.name,
            "seat_names": list(game.seat_names),
            "strategies": strategies_for(game.name),
        }

    # --- sessions -----------------------------------------------------------------

    def _session_info(sid: str) -> dict[str, Any]:
        with store.using(sid) as session:
            playing = session.human is not None and not session.finished
            return {
                "session": session.id,
                "game": str(session.game),
                "game_name": session.game.name,
                "seat_names": list(session.game.seat_names),
                "human": session.human,
                "last_frame": session.last_frame,
                "finished": session.finished,
                "seed": None if playing else session.seed,
                "origin": session.origin,
            }

    @app.post("/api/sessions", status_code=201)
    def new_session(body: NewSession, request: Request) -> dict[str, Any]:
        """Start a watched game (played to the end at once) or a game a person plays.

        A played game's seed is the server's: with the seed a player could replay the
        deal offline and read the other hands. It is shown once the game is over.
        """
        if body.human_seat is None:
            seed = body.seed if body.seed is not None else 0
            session = watch_session(body.game, body.strategies, seed)
        else:
            if body.seed is not None:
                raise InputError(
                    "a game you play gets its seed from the server (with the seed you could "
                    "replay the deal and see the other hands); leave out seed: it is shown "
                    "when the game is over"
                )
            game = load_game(body.game)
            seat = game.seat_index(body.human_seat)
            strategies = [HUMAN if s == seat else n for s, n in enumerate(body.strategies)]
            session = play_session(body.game, strategies, seat)
        store.add(session, *client_of(request))
        return _session_info(session.id)

    @app.post("/api/sessions/from-tournament", status_code=201)
    def session_from_tournament(body: TournamentGame, request: Request) -> dict[str, Any]:
        """Watch a stored tournament game: replayed from its seed and strategies."""
        game, strategies, seed = tournaments.game(body.db, body.name, body.index)
        origin = f"{body.db} · {body.name} · game {body.index}"
        session = watch_session(game, strategies, seed, origin=origin)
        store.add(session, *client_of(request))
        return _session_info(session.id)

    @app.get("/api/sessions/{sid}")
    def session_info(sid: str) -> dict[str, Any]:
        """A game's summary: game, seats, frames, the person's seat."""
        return _session_info(sid)

    @app.delete("/api/sessions/{sid}")
    def close_session(sid: str) -> dict[str, Any]:
        """Close a game and free its memory."""
        if not store.remove(sid):
            raise SessionError(f"no game {sid!r}: {store.why_gone(sid)}", 404)
        return {"closed": sid}

    @app.get("/api/sessions/{sid}/frames/{frame}")
    def frame(
        sid: str,
        frame: int,
        perspective: Annotated[str | None, Query(max_length=40)] = None,
        since: Annotated[int, Query(ge=0)] = 0,
    ) -> dict[str, Any]:
        """One frame from a perspective (`spectator`, a seat number or a seat name)."""
        with store.using(sid) as session:
            seat = views.seen_as(session, perspective)
            return views.frame_json(session, frame, seat, since)

    @app.get("/api/sessions/{sid}/frames/{frame}/picture")
    def picture(
        sid: str,
        frame: int,
        subject: Annotated[str, Query(min_length=1, max_length=40)],
        perspective: Annotated[str | None, Query(max_length=40)] = None,
    ) -> dict[str, Any]:
        """The Kripke model of one subject (a card, the cup) at a frame."""
        with store.using(sid) as session:
            seat = views.seen_as(session, perspective)
            result = views.picture_json(views.get_picture(session, frame, subject, seat))
            result["frame"] = session.check_frame(frame)
            return result

    @app.get("/api/sessions/{sid}/frames/{frame}/matrix")
    def matrix(
        sid: str,
        frame: int,
        perspective: Annotated[str | None, Query(max_length=40)] = None,
    ) -> dict[str, Any]:
        """The knowledge matrix: subjects × possible holders, probability per agent."""
        with store.using(sid) as session:
            seat = views.seen_as(session, perspective)
            return views.matrix_json(session, frame, seat)

    @app.post("/api/sessions/{sid}/formula")
    def formula(sid: str, body: FormulaQuery) -> dict[str, Any]:
        """Evaluate a formula on a subject's picture; syntax errors are 422 with a caret."""
        with store.using(sid) as session:
            seat = views.seen_as(session, body.perspective)
            pic = views.get_picture(session, body.frame, body.subject, seat)
            return views.formula_json(pic, body.formula)

    @app.post("/api/sessions/{sid}/moves")
    def move(sid: str, body: Move) -> dict[str, Any]:
        """A person's move; then the agents move until the person's turn or the end."""
        with store.using(sid) as session:
            seat = session.game.seat_index(body.seat)
            added = session.play(seat, body.action)
            return {
                "added": added,
                "last_frame": session.last_frame,
                "finished": session.finished,
            }

    # --- tournaments --------------------------------------------------------------

    @app.get("/api/tournaments")
    def list_tournaments() -> dict[str, Any]:
        """The result files of `--db-dir` and their tournaments."""
        if tournaments.root is None:
            return {"db_dir": None, "files": [], "jobs": []}
        jobs = [j.to_dict() for j in list(tournaments.jobs.values())]
        # The directory by name only: no response names a server path.
        name = tournaments.root.name or "results"
        return {"db_dir": name, "files": tournaments.listing(), "jobs": jobs}

    @app.get("/api/tournaments/{db}/{name}")
    def tournament_summary(db: str, name: str) -> dict[str, Any]:
        """A tournament's summary with 95% intervals, and its plot names."""
        return tournaments.summary(db, name)

    @app.get("/api/tournaments/{db}/{name}/games")
    def tournament_games(
        db: str,
        name: str,
        offset: Annotated[int, Query(ge=0)] = 0,
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
    ) -> dict[str, Any]:
        """A page of a tournament's stored games."""
        return tournaments.games(db, name, offset, limit)

    @app.get("/api/tournaments/{db}/{name}/plots/{plot}.svg")
    def tournament_plot(db: str, name: str, plot: str) -> FileResponse:
        """One plot of a tournament as SVG."""
        return FileResponse(tournaments.plot(db, name, plot), media_type="image/svg+xml")

    @app.post("/api/tournaments", status_code=202)
    def start_tournament(body: NewTournament, request: Request) -> dict[str, Any]:
        """Start a small tournament in the background; poll `/api/jobs/{id}`."""
        job = tournaments.start(
            body.db,
            body.name,
            body.game,
            body.strategies,
            body.games,
            body.seed,
            client=client_of(request)[0],
        )
        return job.to_dict()

    @app.get("/api/jobs/{job_id}")
    def job(job_id: str) -> dict[str, Any]:
        """A job's progress: done, total, state (running, cancelling, done, cancelled, failed)."""
        return tournaments.job(job_id).to_dict()

    @app.delete("/api/jobs/{job_id}")
    def cancel_job(job_id: str, request: Request) -> dict[str, Any]:
        """Cancel a tournament job this client started.

        The job stops before its next game and keeps the games stored so far; its state
        is cancelling, then cancelled.
        """
        return tournaments.cancel(job_id, client_of(request)[0]).to_dict()

    # --- the front end --------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # The last added is the outermost: CatchAll sits right outside the exception handlers.
    app.add_middleware(CatchAll)
    app.add_middleware(ClientCookie)
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(ServerTiming)
    app.state.started = time.time()
    return app
