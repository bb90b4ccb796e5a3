"""OpenSpiel's bots at an epigames table: the `openspiel:` strategy plugin.

`openspiel:ismcts` is OpenSpiel's information-set MCTS
(`open_spiel.python.algorithms.ismcts.ISMCTSBot`) playing one seat of a `Match`, with
parameters in the game-string syntax: `openspiel:ismcts(simulations=200,worlds=8)`.
`pyproject.toml` declares `PLUGIN` in the `epigames.strategies` entry point group, so
`make_strategy` finds it in every process without the games layer importing this one.

This module only names, parses and checks the bots (listing strategies stays fast and
works without OpenSpiel); `epigames.adapters.ismcts` is the bot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from epigames.errors import InputError
from epigames.games.core import game_class
from epigames.games.params import (
    GameStringError,
    Param,
    UnknownParameterError,
    split_game_string,
)
from epigames.games.strategy import Strategy

__all__ = ["PARAMS", "PLUGIN", "PREFIX", "ISMCTSSettings", "OpenSpielBots", "parse_settings"]

#: The strategy names of this plugin start with it: `openspiel:ismcts`.
PREFIX = "openspiel"


@dataclass(frozen=True, slots=True)
class ISMCTSSettings:
    """The search's parameters (`openspiel:ismcts(simulations=…,…)`; defaults in `PARAMS`).

    Attributes:
        simulations: simulations per decision (OpenSpiel's `max_simulations`).
        worlds: states drawn from the seat's information per decision; the simulations
            go round them (OpenSpiel's `max_world_samples`). Each draw replays the game,
            so a few draws shared by many simulations keep a decision cheap.
        horizon: random moves per rollout before its returns are read (0: to the end).
            Kemps and Klaverjas games last hundreds to thousands of moves, and the returns
            so far (quartets, points) already say who is doing well.
        uct_c: UCT's exploration constant, in units of the game's range of returns
            (`Game.returns_range`), so that it means the same in every game.
    """

    simulations: int
    worlds: int
    horizon: int
    uct_c: float


#: The parameters of `openspiel:ismcts`, with their defaults and ranges.
PARAMS = (
    Param("simulations", int, 100, min=1, max=1_000_000, help="simulations per decision"),
    Param("worlds", int, 8, min=1, max=1_000_000, help="states drawn per decision"),
    Param("horizon", int, 20, min=0, max=10_000_000, help="random moves per rollout; 0: all"),
    Param("uct_c", float, 0.1, min=0.0, max=1000.0, help="exploration, in returns ranges"),
)


def parse_settings(spec: str) -> ISMCTSSettings:
    """Read `ismcts` or `ismcts(simulations=200,…)` (the name after `openspiel:`).

    Raises:
        UnknownStrategyError: not a name this plugin knows.
        GameStringError, UnknownParameterError: a malformed spec or a bad parameter.
    """
    full = f"{PREFIX}:{spec}"
    try:
        name, pairs = split_game_string(spec)
    except GameStringError:
        raise GameStringError(
            f"cannot read strategy {full!r}; expected {PREFIX}:NAME or {PREFIX}:NAME(key=value,...)"
        ) from None
    if name not in _BOTS:
        raise InputError(
            f"unknown OpenSpiel bot {name!r} in {full!r}; choose one of: "
            f"{', '.join(f'{PREFIX}:{b}' for b in _BOTS)}"
        )
    by_name = {p.name: p for p in PARAMS}
    values: dict[str, Any] = {p.name: p.default for p in PARAMS}
    for key, text in pairs:
        param = by_name.get(key)
        if param is None:
            raise UnknownParameterError(
                f"unknown parameter {key!r} in {full!r}; choose from: {', '.join(by_name)}"
            )
        values[key] = param.parse(text, full)
    return ISMCTSSettings(**values)


def _need_open_spiel(full: str) -> None:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        raise InputError(
            f"strategy {full!r} needs OpenSpiel, which is not installed; "
            "install it with: pip install 'epigames[rl]'"
        ) from None


_BOTS: dict[str, str] = {"ismcts": "OpenSpiel's information-set MCTS"}


class OpenSpielBots:
    """The `openspiel:` strategy plugin (a `games.strategy.StrategyPlugin`)."""

    def names(self, game_name: str) -> Sequence[str]:
        """Every bot, for every game: `ismcts`."""
        return list(_BOTS)

    def check(self, game_name: str, spec: str) -> None:
        """Raise unless `spec` is a bot with good parameters and OpenSpiel is installed."""
        game_class(game_name)
        parse_settings(spec)
        _need_open_spiel(f"{PREFIX}:{spec}")

    def describe(self, game_name: str, name: str) -> str:
        """One sentence on a bot, for menus."""
        bot = name.partition("(")[0].strip()
        return f"{_BOTS[bot]}: searches sampled deals from what it has seen (needs OpenSpiel)."

    def make(self, game_name: str, spec: str, rng: random.Random) -> Strategy:
        """An IS-MCTS strategy drawing from `rng` (it learns the game from its first view)."""
        self.check(game_name, spec)
        from epigames.adapters.ismcts import ISMCTSStrategy

        return ISMCTSStrategy(rng, parse_settings(spec))


#: The plugin `pyproject.toml` names for the `openspiel` prefix.
PLUGIN = OpenSpielBots()
