"""Klaverjas strategies: `random` (uniform over the legal cards and trump calls)."""

from epigames.games.klaverjas.strategies import simple
from epigames.games.klaverjas.strategies.simple import RandomPlayer

__all__ = ["RandomPlayer", "simple"]
