"""Routes of tables (`web.tables`): several people at one game, each with a seat token.

A request names its seat by its token (a query parameter, or the body of a move): the
answer is what that seat may see, as `frame_json` gives it from the seat's perspective.
The spectators' token sees the public perspective (`views.PUBLIC`) while the game runs.
Once it is over, every token sees everything. Changes are pushed over a WebSocket (`/ws`),
with a long poll (`/changes`) where a WebSocket cannot connect; both send the table's
public status only.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from epigames.web import views
from epigames.web.routes import pictures
from epigames.web.routes.common import Body, Name, Seed, Text
from epigames.web.session import SessionError
from epigames.web.tables import CLOCK_SECONDS, Table, TableStore

router = APIRouter(prefix="/api/tables")

#: The longest a long poll waits for a change before it answers with the status as is.
POLL_SECONDS = 20.0

Token = Annotated[str, Query(min_length=8, max_length=64)]


async def table_store(request: Request) -> TableStore:
    """The app's tables (`create_app` keeps them in `app.state.tables`)."""
    store: TableStore = request.app.state.tables
    return store


Tables = Annotated[TableStore, Depends(table_store)]


class NewTable(Body):
    """A table: per seat, a strategy name or `person`."""

    game: Text = Field(examples=["klaverjas"])
    seats: list[Name] = Field(min_length=1, max_length=8)
    seed: Seed | None = None
    clock: Annotated[int, Field(ge=CLOCK_SECONDS[0], le=CLOCK_SECONDS[1])] | None = None


class TableMove(Body):
    """A person's move at a table: the seat's token and the action's text."""

    token: Annotated[str, Field(min_length=8, max_length=64)]
    action: Text


class TableAgent(Body):
    """A seat handed to an agent: a seat's token, the strategy, and which seat (the
    token's own, or another person seat that is away)."""

    token: Annotated[str, Field(min_length=8, max_length=64)]
    strategy: Name
    seat: Annotated[int, Field(ge=0, le=7)] | None = None


class TableToken(Body):
    """A seat's token."""

    token: Annotated[str, Field(min_length=8, max_length=64)]


class TableFormula(Body):
    """A formula about one subject's picture at a frame, from a seat token's view."""

    token: Annotated[str, Field(min_length=8, max_length=64)]
    frame: int
    subject: Name
    formula: str = Field(min_length=1, max_length=1000)


class TableAsk(Body):
    """A formula about the game state at a frame, from a seat token's view."""

    token: Annotated[str, Field(min_length=8, max_length=64)]
    frame: int
    formula: str = Field(min_length=1, max_length=1000)


def _seen(tables: TableStore, tid: str, token: str) -> tuple[Table, int | None]:
    """The table and the perspective a token gives: its seat (`views.PUBLIC` for the
    spectators' token), everything once the game is over."""
    table = tables.get(tid)
    seat = table.viewer(token)
    if table.session.finished:
        return table, None
    return table, views.PUBLIC if seat is None else seat


def _pictured(tables: TableStore, tid: str, token: str) -> tuple[Table, int | None]:
    """`_seen` for what only a seat has: pictures, the matrix and formulas.

    Raises:
        SessionError: the spectators' token while the game runs (403).
    """
    table, seat = _seen(tables, tid, token)
    if seat == views.PUBLIC:
        raise SessionError(
            "spectators see the public information only while the game runs: "
            "no Kripke picture, matrix or formula until it ends",
            403,
        )
    return table, seat


def _seat_info(table: Table, seat: int | None) -> dict[str, Any]:
    """The status, with the seat the token plays (None for a spectator)."""
    name = None if seat is None else table.session.game.seat_names[seat]
    return {**table.status(), "seat": seat, "seat_name": name}


@router.post("", status_code=201)
async def new_table(body: NewTable, tables: Tables) -> dict[str, Any]:
    """Open a table; the answer holds each person seat's token, to hand to its player,
    and the spectators' token (`watch`)."""
    table, tokens, watch = await run_in_threadpool(
        tables.create, body.game, body.seats, body.seed, body.clock
    )
    names = table.session.game.seat_names
    return {
        **table.status(),
        "tokens": [{"seat": s, "seat_name": names[s], "token": t} for s, t in tokens.items()],
        "watch": watch,
    }


@router.get("/{tid}")
def table_info(tid: str, token: Token, tables: Tables) -> dict[str, Any]:
    """The table's status and the token's seat (None for a spectator)."""
    table = tables.get(tid)
    return _seat_info(table, table.viewer(token))


@router.get("/{tid}/frames/{frame}")
def table_frame(
    tid: str,
    frame: int,
    token: Token,
    tables: Tables,
    since: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """One frame as the token's seat sees it (the whole game once it is over)."""
    # Once the game is over, everyone may see everything: the hands, every thought.
    table, perspective = _seen(tables, tid, token)
    with table.session.lock:
        return views.frame_json(table.session, frame, perspective, since)


@router.get("/{tid}/frames/{frame}/picture")
def table_picture(
    tid: str,
    frame: int,
    token: Token,
    subject: Annotated[str, Query(min_length=1, max_length=40)],
    tables: Tables,
) -> dict[str, Any]:
    """A subject's Kripke picture as the token's seat sees it."""
    table, seat = _pictured(tables, tid, token)
    with table.session.lock:
        return pictures.picture_answer(table.session, frame, subject, seat)


@router.get("/{tid}/frames/{frame}/matrix")
def table_matrix(tid: str, frame: int, token: Token, tables: Tables) -> dict[str, Any]:
    """The knowledge matrix as the token's seat sees it."""
    table, seat = _pictured(tables, tid, token)
    with table.session.lock:
        return views.matrix_json(table.session, frame, seat)


@router.post("/{tid}/formula")
def table_formula(tid: str, body: TableFormula, tables: Tables) -> dict[str, Any]:
    """A formula on a subject's picture, from the token's seat."""
    table, seat = _pictured(tables, tid, body.token)
    with table.session.lock:
        return pictures.formula_answer(table.session, body.frame, body.subject, body.formula, seat)


@router.post("/{tid}/ask")
def table_ask(tid: str, body: TableAsk, tables: Tables) -> dict[str, Any]:
    """A formula about the state: what the token's seat can tell (the truth once over)."""
    table, seat = _pictured(tables, tid, body.token)
    with table.session.lock:
        return pictures.ask_answer(table.session, body.frame, body.formula, seat)


@router.post("/{tid}/moves")
def table_move(tid: str, body: TableMove, tables: Tables) -> dict[str, Any]:
    """The token's seat moves; the agents then play to a person's turn."""
    table = tables.play(tid, body.token, body.action)
    return _seat_info(table, table.seat_of(body.token))


@router.get("/{tid}/coach")
def table_coach(
    tid: str,
    token: Token,
    strategy: Annotated[str, Query(min_length=1, max_length=80)],
    tables: Tables,
) -> dict[str, Any]:
    """What `strategy` would play at the token's seat now, and why: from its view only."""
    return tables.coach(tid, token, strategy)


@router.post("/{tid}/agent")
def table_agent(tid: str, body: TableAgent, tables: Tables) -> dict[str, Any]:
    """An agent plays the token's seat from now on (its person leaves the table), or
    another person seat whose person is away."""
    table = tables.hand_over(tid, body.token, body.strategy, body.seat)
    return _seat_info(table, table.seat_of(body.token))


@router.post("/{tid}/back")
def table_back(tid: str, body: TableToken, tables: Tables) -> dict[str, Any]:
    """The token's person plays its seat again."""
    table = tables.take_back(tid, body.token)
    return _seat_info(table, table.seat_of(body.token))


@router.get("/{tid}/changes")
async def table_changes(
    tid: str,
    token: Token,
    tables: Tables,
    after: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """The status once the version differs from `after` (or after `POLL_SECONDS` as it is).

    A client that saw the table before a server restart may be ahead: it is answered at once.
    """
    table = tables.get(tid)
    seat = table.viewer(token)
    table.polled(seat)
    await table.wait(after, POLL_SECONDS)
    table.polled(seat)
    return _seat_info(table, seat)


@router.websocket("/{tid}/ws")
async def table_socket(websocket: WebSocket, tid: str, token: str = "") -> None:
    """Push the status on connect and after every change, until the client goes."""
    tables: TableStore = websocket.app.state.tables
    try:
        table = tables.get(tid)
        seat = table.viewer(token)
    except SessionError as exc:
        await websocket.close(code=4403 if exc.status == 403 else 4404, reason=str(exc))
        return
    # Counted before the client hears back: once connected, its seat is not away.
    table.connected(seat, +1)
    try:
        await websocket.accept()
        await _push(websocket, table, seat)
    finally:
        table.connected(seat, -1)


async def _push(websocket: WebSocket, table: Table, seat: int | None) -> None:
    """Send the status now and after every change until the client goes."""
    # The client sends nothing we need, but reading is how its going away is noticed.
    gone = asyncio.ensure_future(_drain(websocket))
    version = -1
    try:
        while not gone.done():
            if table.version > version:
                info = _seat_info(table, seat)
                version = info["version"]
                await websocket.send_json(info)
            change = asyncio.ensure_future(table.wait(version, POLL_SECONDS))
            await asyncio.wait({gone, change}, return_when=asyncio.FIRST_COMPLETED)
            change.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass  # the client went while we were sending
    finally:
        gone.cancel()


async def _drain(websocket: WebSocket) -> None:
    """Read (and drop) what the client sends until it disconnects."""
    try:
        while True:
            await websocket.receive_text()
    except (WebSocketDisconnect, RuntimeError):
        return
