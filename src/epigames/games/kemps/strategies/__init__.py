"""Kemps strategies: random, the 2023 report's greedy, kbgreedy and blocking, and `tom`."""

from epigames.games.kemps.strategies import greedy, seedkb, simple, tom

__all__ = ["greedy", "seedkb", "simple", "tom"]
