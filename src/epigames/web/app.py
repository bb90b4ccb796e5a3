"""The FastAPI application: a JSON API under `/api` and the static front end at `/`.

`create_app` assembles the routers of `web.routes` (an `APIRouter` per area), the middleware of
`web.middleware` and the error handlers. Errors are JSON `{"detail": "a sentence"}`: bad
input is 422, a request for another seat 403, out of turn or a finished game 409, unknown
things 404, oversized bodies 413, too many games or tournaments 429, a request that
played its budget's worth of moves before reaching its frame 503 (with `last_frame`: ask
again to play on; `web.budget`). An unexpected exception is logged and answered with a
JSON 500 (never a dropped connection). Clients are told apart by a cookie the server sets
(`epigames_client`) together with their address; games and tournament jobs are capped per
client. `serve` runs the app and stops it, plays in progress included, on SIGTERM.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from types import FrameType
from typing import Unpack

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from epigames import __version__
from epigames.errors import EpigamesError, InputError
from epigames.web.middleware import MAX_BODY, BodyLimit, CatchAll, ClientCookie, ServerTiming, log
from epigames.web.routes import meta, pictures, sessions, tables, tournaments
from epigames.web.session import PlayBudgetError, SessionError
from epigames.web.store import SessionStore, StoreLimits
from epigames.web.tables import TableStore
from epigames.web.tournaments import TournamentDir

STATIC = Path(__file__).parent / "static"
#: Requests still running this long after SIGTERM or SIGINT are cut off. Plays stop at
#: once (`PlayBudget.stop`); this bounds anything else, such as a large Kripke picture.
SHUTDOWN_SECONDS = 3


def _sweeper(store: SessionStore, stop: threading.Event, every: float) -> None:
    """Evict idle sessions now and then, even when no request comes."""
    while not stop.wait(every):
        store.sweep()


#: How often the tables' turn clocks are looked at, in seconds.
CLOCK_TICK = 1.0


def _clock(tables: TableStore, stop: threading.Event) -> None:
    """Play the moves of people whose turn clock ran out, even when no request comes."""
    while not stop.wait(CLOCK_TICK):
        try:
            tables.expire(time.time())
        except Exception:  # the clock must outlive one table's failure
            log.exception("a table's turn clock failed")


def _add_error_handlers(app: FastAPI, results: TournamentDir) -> None:
    """Errors as JSON `{"detail": …}` with their status (see the module docstring)."""

    # Messages from the tournament store may name files by path: `scrub` takes it out.
    @app.exception_handler(SessionError)
    async def _session_error(request: Request, exc: SessionError) -> JSONResponse:
        if isinstance(exc, PlayBudgetError):
            # The client plays on by asking again; `last_frame` lets it show how far it got.
            body = {"detail": str(exc), "last_frame": exc.last_frame}
            return JSONResponse(body, status_code=exc.status, headers={"Retry-After": "0"})
        return JSONResponse({"detail": results.scrub(str(exc))}, status_code=exc.status)

    @app.exception_handler(InputError)
    async def _input_error(request: Request, exc: InputError) -> JSONResponse:
        return JSONResponse({"detail": results.scrub(str(exc))}, status_code=422)

    @app.exception_handler(EpigamesError)
    async def _other_error(request: Request, exc: EpigamesError) -> JSONResponse:
        log.error("error in %s %s: %s", request.method, request.url.path, exc, exc_info=exc)
        return JSONResponse({"detail": results.scrub(str(exc))}, status_code=500)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
        return JSONResponse({"detail": "bad request: " + "; ".join(parts)}, status_code=422)


def create_app(
    db_dir: str | Path | None = None,
    *,
    tables_db: str | Path | None = None,
    max_jobs: int = 2,
    max_jobs_per_client: int = 1,
    **limits: Unpack[StoreLimits],
) -> FastAPI:
    """Build the app.

    Args:
        db_dir: a directory of tournament result files (`*.duckdb`) for the tournaments
            page; None for none.
        tables_db: the SQLite file of the tables people play together (`web.tables`), made
            if missing; None keeps them in memory only.
        max_jobs: most tournaments running at once...
        max_jobs_per_client: ...and for one client.
        limits: the games' limits, with `SessionStore`'s defaults: `max_sessions` (most
            games held in memory; see `SessionStore` for which go first), `idle_seconds`
            (a game unused this long is evicted), `max_per_client` (most games one
            client holds: its least recently used go first), `max_played_per_address`,
            `max_gone`, and `budget` (how much one request may play of a game: a
            `web.budget.PlayBudget`; its `stop` is `app.state.stopping`).
    """
    store = SessionStore(**limits)
    results = TournamentDir(
        Path(db_dir) if db_dir is not None else None,
        max_jobs=max_jobs,
        max_jobs_per_client=max_jobs_per_client,
    )
    table_store = TableStore(tables_db)
    stop = threading.Event()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        every = max(1.0, min(60.0, store.idle_seconds / 4))
        threading.Thread(target=_sweeper, args=(store, stop, every), daemon=True).start()
        threading.Thread(target=_clock, args=(table_store, stop), daemon=True).start()
        yield
        stop.set()
        store.budget.stop.set()
        table_store.close()

    app = FastAPI(title="epigames", version=__version__, docs_url="/api/docs", lifespan=lifespan)
    # The routers' dependencies (`web.routes.common`) read these.
    app.state.sessions = store
    app.state.tournaments = results
    app.state.tables = table_store
    # Set when the server is told to stop (`serve`): every play in progress stops then.
    app.state.stopping = store.budget.stop
    _add_error_handlers(app, results)
    # The routers' routes go in themselves, not by `app.include_router`: since FastAPI
    # 0.137 that keeps one lazy wrapper per router in `app.routes`, and whatever walks
    # `app.routes` for `APIRoute`s (tests/web/test_fuzz.py fuzzes each) would find none.
    # The routes are shared by every app and know none, so `app.dependency_overrides` does
    # not reach them: set `app.state.sessions` or `app.state.tournaments` instead.
    for area in (meta, sessions, pictures, tables, tournaments):
        app.router.routes.extend(area.router.routes)

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


def serve(app: FastAPI, host: str, port: int) -> None:
    """Run `app` with uvicorn until SIGINT or SIGTERM.

    uvicorn waits for the requests running when told to stop: the signal first sets
    `app.state.stopping`, so a request playing a long game answers at its next move, and
    what still runs after `SHUTDOWN_SECONDS` is cut off.
    """
    import uvicorn

    stopping: threading.Event = app.state.stopping

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            stopping.set()
            super().handle_exit(sig, frame)

    # What is loaded by now (modules, the app) lives as long as the process: keep the
    # collector from walking it again and again (see `web.budget`).
    gc.collect()
    gc.freeze()
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )
    Server(config).run()
