"""Routes of games in memory: start one (watched, played, or from a tournament), describe
it, close it, read its frames, and make a person's moves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from epigames.errors import InputError
from epigames.games import load_game
from epigames.web import views
from epigames.web.builders import play_session, watch_session
from epigames.web.routes.common import (
    Body,
    Name,
    Perspective,
    Seed,
    Store,
    Text,
    Tournaments,
    client_of,
)
from epigames.web.session import AHEAD, HUMAN, Session, SessionError
from epigames.web.store import SessionStore

router = APIRouter(prefix="/api/sessions")

#: Games are played through here, two at a time, off the event loop and apart from the
#: threads serving frames: a burst of new games (tens of ms of CPU each) queues here
#: instead of sharing the interpreter with every frame request at once.
_BUILDER = ThreadPoolExecutor(max_workers=2, thread_name_prefix="epigames-builder")


async def _built(build: Callable[[], Session]) -> Session:
    """The session `build` makes, made on the builder thread."""
    return await asyncio.wrap_future(_BUILDER.submit(build))


class NewSession(Body):
    """Start a game: watched (no `human_seat`) or played by a person at `human_seat`."""

    game: Text = Field(examples=["kwartet(players=4,kinds=13)"])
    strategies: list[Name] = Field(min_length=1, max_length=8)
    seed: Seed | None = None
    human_seat: int | Name | None = None


class TournamentGame(Body):
    """Watch game `index` of a stored tournament."""

    db: Name
    name: Name
    index: int = Field(ge=0, le=2**31)


class Move(Body):
    """A person's move: the seat it plays and the action's text."""

    seat: int | Name
    action: Text


def _session_info(store: SessionStore, sid: str) -> dict[str, Any]:
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
            # Digits, not a number: a browser's JSON number loses them past 2^53.
            "seed": None if playing else str(session.seed),
            "origin": session.origin,
        }


@router.post("", status_code=201)
async def new_session(body: NewSession, request: Request, store: Store) -> dict[str, Any]:
    """Start a watched game (played as far as it is watched) or a game a person plays.

    A watched game's agents play `AHEAD` frames past the last frame asked for (frame -1:
    to the end), so `last_frame` grows as it is watched until `finished`. A played game's
    seed is the server's: with the seed a player could replay the deal offline and read
    the other hands. It is shown once the game is over.
    """
    if body.human_seat is None:
        seed = body.seed if body.seed is not None else 0
        session = await _built(
            lambda: watch_session(
                body.game, body.strategies, seed, ahead=AHEAD, budget=store.budget
            )
        )
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
        session = await _built(
            lambda: play_session(body.game, strategies, seat, budget=store.budget)
        )
    store.add(session, *client_of(request))
    return _session_info(store, session.id)


@router.post("/from-tournament", status_code=201)
async def session_from_tournament(
    body: TournamentGame, request: Request, store: Store, tournaments: Tournaments
) -> dict[str, Any]:
    """Watch a stored tournament game: replayed from its seed and strategies."""

    def build() -> Session:
        game, strategies, seed = tournaments.game(body.db, body.name, body.index)
        origin = f"{body.db} · {body.name} · game {body.index}"
        return watch_session(
            game, strategies, seed, origin=origin, ahead=AHEAD, budget=store.budget
        )

    session = await _built(build)
    store.add(session, *client_of(request))
    return _session_info(store, session.id)


@router.get("/{sid}")
def session_info(sid: str, store: Store) -> dict[str, Any]:
    """A game's summary: game, seats, frames, the person's seat."""
    return _session_info(store, sid)


@router.delete("/{sid}")
def close_session(sid: str, store: Store) -> dict[str, Any]:
    """Close a game and free its memory."""
    if not store.remove(sid):
        raise SessionError(f"no game {sid!r}: {store.why_gone(sid)}", 404)
    return {"closed": sid}


@router.get("/{sid}/frames/{frame}")
async def frame(
    sid: str,
    frame: int,
    store: Store,
    perspective: Perspective = None,
    since: Annotated[int, Query(ge=0)] = 0,
    guide: bool = False,
) -> dict[str, Any]:
    """One frame from a perspective (`spectator`, a seat number or a seat name).

    With `guide`, every log entry also says in plain words what it shows (`explain`).
    A frame not played yet is played first, within the server's budget per request
    (`web.budget`): past it the answer is 503 with `last_frame`, how far the game got, and
    asking again plays on.
    """
    # A step forward is well under a millisecond of work, less than the hop to a worker
    # thread costs: it is served here on the event loop. Anything more (`Session.cheap`),
    # or a session busy on another thread, goes to a worker thread.
    session = store.get(sid)
    if session.lock.acquire(blocking=False):
        try:
            seat = views.seen_as(session, perspective)
            # A lazily played game plays one move for a step forward: cheap too.
            if session.to_play(frame) <= 1 and session.cheap(session.check_frame(frame), since):
                return views.frame_json(session, frame, seat, since, guide)
        finally:
            session.lock.release()
    return await run_in_threadpool(_frame, store, sid, frame, perspective, since, guide)


def _frame(
    store: SessionStore, sid: str, frame: int, perspective: str | None, since: int, guide: bool
) -> dict[str, Any]:
    with store.using(sid) as session:
        seat = views.seen_as(session, perspective)
        return views.frame_json(session, frame, seat, since, guide)


@router.post("/{sid}/moves")
def move(sid: str, body: Move, store: Store) -> dict[str, Any]:
    """A person's move; then the agents move until the person's turn or the end (within
    the budget per request: past it, the next frame asked for plays on)."""
    with store.using(sid) as session:
        seat = session.game.seat_index(body.seat)
        added = session.play(seat, body.action)
        return {
            "added": added,
            "last_frame": session.last_frame,
            "finished": session.finished,
        }
