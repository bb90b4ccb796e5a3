"""What the routers share: the app's stores as dependencies, the client, body field types."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from epigames.web.builders import MAX_SEED
from epigames.web.store import SessionStore
from epigames.web.tournaments import TournamentDir

Text = Annotated[str, Field(min_length=1, max_length=200)]
Name = Annotated[str, Field(min_length=1, max_length=40)]
Seed = Annotated[int, Field(ge=0, le=MAX_SEED)]
#: The `perspective` query parameter: `spectator`, a seat number or a seat name.
Perspective = Annotated[str | None, Query(max_length=40)]


class Body(BaseModel):
    """A request body: unknown fields are refused (422), not ignored."""

    model_config = ConfigDict(extra="forbid")


# The dependencies are async so that FastAPI calls them on the event loop, not in a
# worker thread per request.
async def session_store(request: Request) -> SessionStore:
    """The app's games (`create_app` keeps them in `app.state.sessions`)."""
    store: SessionStore = request.app.state.sessions
    return store


async def tournament_dir(request: Request) -> TournamentDir:
    """The app's results directory and jobs (`app.state.tournaments`)."""
    tournaments: TournamentDir = request.app.state.tournaments
    return tournaments


Store = Annotated[SessionStore, Depends(session_store)]
Tournaments = Annotated[TournamentDir, Depends(tournament_dir)]


def client_of(request: Request) -> tuple[str, str]:
    """The client's key (its cookie and address) and its address."""
    address = request.client.host if request.client is not None else ""
    token = getattr(request.state, "client_token", "")
    return f"{address} {token}", address
