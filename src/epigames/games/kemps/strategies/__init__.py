"""Kemps strategies: random, and the 2023 report's greedy, kbgreedy and blocking."""

from epigames.games.kemps.strategies import greedy, simple

__all__ = ["greedy", "simple"]
