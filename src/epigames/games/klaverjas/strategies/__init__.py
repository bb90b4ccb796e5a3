"""Klaverjas strategies: `random`, the 2017 tactics (`tactics2017` on the 2017 inference,
`tactics` on exact knowledge) and a Monte-Carlo player (`mc`)."""

from epigames.games.klaverjas.strategies import mc, simple, tactics
from epigames.games.klaverjas.strategies.mc import MonteCarloPlayer
from epigames.games.klaverjas.strategies.simple import RandomPlayer
from epigames.games.klaverjas.strategies.tactics import Tactics, Tactics2017

__all__ = [
    "MonteCarloPlayer",
    "RandomPlayer",
    "Tactics",
    "Tactics2017",
    "mc",
    "simple",
    "tactics",
]
