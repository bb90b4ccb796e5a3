"""Blufpoker strategies: the report's naive ones, its knowledge agent, and our `bayes`.

Importing this package registers them all (`roll/bid/call` names, `knowledge`, `bayes`,
`random`).
"""

from epigames.games.blufpoker.strategies import bayes, knowledge, naive, random_play
from epigames.games.blufpoker.strategies.base import BlufpokerStrategy
from epigames.games.blufpoker.strategies.bayes import BayesAgent
from epigames.games.blufpoker.strategies.knowledge import KnowledgeAgent
from epigames.games.blufpoker.strategies.naive import Naive

__all__ = [
    "BayesAgent",
    "BlufpokerStrategy",
    "KnowledgeAgent",
    "Naive",
    "bayes",
    "knowledge",
    "naive",
    "random_play",
]
