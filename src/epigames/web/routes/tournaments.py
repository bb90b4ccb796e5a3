"""Routes of the tournaments page: result files, summaries, stored games, plots, and the
small tournaments started from the page (jobs).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse
from pydantic import Field

from epigames.web.routes.common import Body, Name, Seed, Text, Tournaments, client_of
from epigames.web.tournaments import MAX_WEB_GAMES

router = APIRouter(prefix="/api")


class NewTournament(Body):
    """A small tournament to play into a results file of the `--db-dir`."""

    db: Name
    name: Name = "web"
    game: Text
    strategies: list[Name] = Field(min_length=1, max_length=8)
    games: int = Field(ge=1, le=MAX_WEB_GAMES)
    seed: Seed = 20240401
    #: How the strategies sit (`tournament.SEAT_SCHEMES`): rotated, fixed, or rotated with
    #: each block of the rotation on the same cards.
    seats: Literal["rotate", "fixed", "duplicate"] = "rotate"


@router.get("/tournaments")
def list_tournaments(tournaments: Tournaments) -> dict[str, Any]:
    """The result files of `--db-dir` and their tournaments."""
    if tournaments.root is None:
        return {"db_dir": None, "files": [], "jobs": []}
    jobs = [j.to_dict() for j in list(tournaments.jobs.values())]
    # The directory by name only: no response names a server path.
    name = tournaments.root.name or "results"
    return {"db_dir": name, "files": tournaments.listing(), "jobs": jobs}


@router.get("/tournaments/{db}/{name}")
def tournament_summary(db: str, name: str, tournaments: Tournaments) -> dict[str, Any]:
    """A tournament's summary with 95% intervals, and its plot names."""
    return tournaments.summary(db, name)


@router.get("/tournaments/{db}/{name}/games")
def tournament_games(
    db: str,
    name: str,
    tournaments: Tournaments,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> dict[str, Any]:
    """A page of a tournament's stored games."""
    return tournaments.games(db, name, offset, limit)


@router.get("/tournaments/{db}/{name}/plots/{plot}.svg")
def tournament_plot(db: str, name: str, plot: str, tournaments: Tournaments) -> FileResponse:
    """One plot of a tournament as SVG."""
    return FileResponse(tournaments.plot(db, name, plot), media_type="image/svg+xml")


@router.post("/tournaments", status_code=202)
def start_tournament(
    body: NewTournament, request: Request, tournaments: Tournaments
) -> dict[str, Any]:
    """Start a small tournament in the background; poll `/api/jobs/{id}`."""
    job = tournaments.start(
        body.db,
        body.name,
        body.game,
        body.strategies,
        body.games,
        body.seed,
        seats=body.seats,
        client=client_of(request)[0],
    )
    return job.to_dict()


@router.get("/jobs/{job_id}")
def job(job_id: str, tournaments: Tournaments) -> dict[str, Any]:
    """A job's progress: done, total, state (running, cancelling, done, cancelled, failed)."""
    return tournaments.job(job_id).to_dict()


@router.delete("/jobs/{job_id}")
def cancel_job(job_id: str, request: Request, tournaments: Tournaments) -> dict[str, Any]:
    """Cancel a tournament job this client started.

    The job stops before its next game and keeps the games stored so far; its state
    is cancelling, then cancelled.
    """
    return tournaments.cancel(job_id, client_of(request)[0]).to_dict()
