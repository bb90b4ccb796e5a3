"""A cheap stand-in for `play_match`, for benchmarks and tests of the tournament machinery.

It plays no game: returns, winners and length are drawn from the seed (and a fixed
strength per strategy name), so results are deterministic in the arguments, like a real
match, at a cost of microseconds. Never use it for results about games.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SyntheticResult:
    """The fields of a match result a tournament keeps."""

    returns: tuple[float, ...]
    winners: tuple[int, ...]
    moves: int


def strength(name: str) -> int:
    """A fixed bonus per strategy name (0..2); names starting with `strong` get 3."""
    if name.startswith("strong"):
        return 3
    return zlib.crc32(name.encode()) % 3


def synthetic_match(game_string: str, strategy_names: Sequence[str], seed: int) -> SyntheticResult:
    """A fake match: each seat scores `randint(0, 4) + strength(name)`; ties happen."""
    rng = random.Random(seed)
    returns = tuple(float(rng.randint(0, 4) + strength(n)) for n in strategy_names)
    best = max(returns)
    winners = tuple(s for s, r in enumerate(returns) if r == best)
    return SyntheticResult(returns, winners, rng.randint(20, 200))


def busy_match(game_string: str, strategy_names: Sequence[str], seed: int) -> SyntheticResult:
    """`synthetic_match` plus about a millisecond of pure-Python work (for speed-ups)."""
    total = 0
    for i in range(5_000):
        total += i * i % 7
    result = synthetic_match(game_string, strategy_names, seed)
    return SyntheticResult(result.returns, result.winners, result.moves + total % 1)
