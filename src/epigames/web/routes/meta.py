"""Routes about the server and its games: health, the registered games, a game string."""

from __future__ import annotations

import inspect
from typing import Annotated, Any

from fastapi import APIRouter, Query

from epigames import __version__
from epigames.games import (
    game_class,
    load_game,
    registered_games,
    strategy_choices,
    strategy_description,
)
from epigames.games.picture import HasPictures
from epigames.web.routes.common import Store

router = APIRouter(prefix="/api")


@router.get("/health")
async def health(store: Store) -> dict[str, Any]:
    """A trivial endpoint (the benchmark's baseline); also how many games are held."""
    return {"ok": True, "version": __version__, "sessions": len(store)}


@router.get("/games")
def games() -> list[dict[str, Any]]:
    """Every registered game: parameters (defaults, ranges), strategies, the default one."""
    out = []
    for name in registered_games():
        cls = game_class(name)
        game = load_game(name)
        showcase, agents = cls.showcase_match()
        choices = strategy_choices(name)
        out.append(
            {
                "name": name,
                "doc": (cls.__doc__ or "").strip().splitlines()[0],
                # The docstring's first paragraph, for the start page's tile.
                "about": " ".join(
                    inspect.cleandoc(cls.__doc__ or "").split("\n\n")[0].replace("`", "").split()
                ),
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
                "strategies": choices,
                # One sentence per strategy, for every menu that offers them.
                "strategy_about": {s: strategy_description(name, s) for s in choices},
                # The agent the page seats by default: one whose games end (`Game`).
                "default_strategy": cls.default_strategy,
                # A short game that shows the agents at their best: the form's defaults,
                # the start page's and the guided games' setting (`Game.showcase`).
                "showcase": {
                    "game": str(showcase),
                    "params": {p.name: getattr(showcase, p.attr) for p in cls.params},
                    "strategies": list(agents),
                },
                "seat_names": list(game.seat_names),
                "pictures": isinstance(game.new_initial_state(), HasPictures),
            }
        )
    return out


@router.get("/game")
def describe_game(spec: Annotated[str, Query(max_length=200)]) -> dict[str, Any]:
    """A game string's canonical form, seats and strategies (422 when it is bad)."""
    game = load_game(spec)
    return {
        "game": str(game),
        "name": game.name,
        "seat_names": list(game.seat_names),
        "strategies": strategy_choices(game.name),
    }
