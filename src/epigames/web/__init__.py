"""The web app: watch any game, see every agent's Kripke model, play, browse tournaments.

`create_app()` builds the FastAPI application (JSON API under `/api`, the static front end
at `/`); `epigames serve` runs it with uvicorn. FastAPI and uvicorn come with the `web`
extra.
"""

from epigames.web.session import HUMAN, Session, SessionError
from epigames.web.store import SessionStore

__all__ = ["HUMAN", "Session", "SessionError", "SessionStore", "create_app"]


def __getattr__(name: str) -> object:
    # FastAPI is an optional dependency: import it only when the app is asked for.
    if name == "create_app":
        from epigames.web.app import create_app

        return create_app
    raise AttributeError(name)
