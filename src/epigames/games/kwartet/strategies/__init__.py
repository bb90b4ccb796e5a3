"""Kwartet strategies: `random`, the reports' rules, and our `expert`.

Importing this package registers them all: `random`; from the 2020 report `greedy`,
`silent`, `mixed`; from the 2023 Mesa report `owner`, `defensive`, `aggressive`; ours,
`expert`. Every knowledge-based one reads the seat's exact `CardKnowledge` (what the
seat knows follows from the public log and its own hand, nothing is kept by hand).
"""

from epigames.games.kwartet.strategies import expert, report, simple
from epigames.games.kwartet.strategies.expert import Expert
from epigames.games.kwartet.strategies.reading import Reading
from epigames.games.kwartet.strategies.report import (
    Aggressive,
    Defensive,
    Greedy,
    Mixed,
    Owner,
    Silent,
)
from epigames.games.kwartet.strategies.simple import RandomAsker

__all__ = [
    "Aggressive",
    "Defensive",
    "Expert",
    "Greedy",
    "Mixed",
    "Owner",
    "RandomAsker",
    "Reading",
    "Silent",
    "expert",
    "report",
    "simple",
]
