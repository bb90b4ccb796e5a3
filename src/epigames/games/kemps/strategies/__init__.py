"""Kemps strategies: random, and the 2023 report's greedy, kbgreedy and blocking."""

from epigames.games.kemps.strategies import greedy, seedkb, simple

__all__ = ["greedy", "seedkb", "simple"]
