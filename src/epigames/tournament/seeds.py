"""Game seeds and seat assignments: pure functions of the tournament seed and game index.

Everything a game needs besides the game string is derived from `(tournament seed, game
index)` alone, so the results of a tournament do not depend on how its games are split
over workers, backends or resumed runs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

#: How the strategies are placed at the seats.
ROTATE = "rotate"
FIXED = "fixed"
SEAT_SCHEMES = (ROTATE, FIXED)


def game_seed(tournament_seed: int, index: int) -> int:
    """The seed of game `index`: child `index` of `SeedSequence(tournament_seed)`.

    `SeedSequence(s).spawn(n)[i]` is `SeedSequence(s, spawn_key=(i,))`; building that child
    directly gives the same numbers without spawning (and holding) `n` objects. The
    result is a 63-bit integer, so it fits DuckDB's BIGINT and any match seed argument.
    """
    child = np.random.SeedSequence(tournament_seed, spawn_key=(index,))
    low, high = (int(x) for x in child.generate_state(2, np.uint32))
    return ((high << 32) | low) & ((1 << 63) - 1)


@lru_cache(maxsize=16)
def rotation_cycle(players: int) -> tuple[tuple[int, ...], ...]:
    """Every permutation of `range(players)` once, in the order games use them.

    The `players!` permutations are grouped by cyclic rotation: each block of `players`
    consecutive entries holds one base permutation (starting with 0) and its rotations.
    So every block puts each strategy at each seat exactly once, and a tournament whose
    size is a multiple of `players` (not only of `players!`) is already seat-balanced.
    """
    cycle: list[tuple[int, ...]] = []
    for rest in itertools.permutations(range(1, players)):
        base = (0, *rest)
        for shift in range(players):
            cycle.append(tuple(base[(seat + shift) % players] for seat in range(players)))
    return tuple(cycle)


def seat_strategies(strategies: Sequence[str], index: int, scheme: str) -> tuple[str, ...]:
    """The strategy at each seat in game `index`.

    Args:
        strategies: the tournament's strategies, one per seat in the fixed arrangement.
        index: the game index, `0..N-1`.
        scheme: `"fixed"` (seat `s` always plays `strategies[s]`) or `"rotate"` (game
            `index` uses permutation `index mod players!` of `rotation_cycle`).
    """
    if scheme == FIXED:
        return tuple(strategies)
    cycle = rotation_cycle(len(strategies))
    order = cycle[index % len(cycle)]
    return tuple(strategies[i] for i in order)


def balanced_sizes(players: int) -> tuple[int, int]:
    """`(players, players!)`: sizes after which rotated seats are balanced per strategy and
    per permutation respectively."""
    return players, math.factorial(players)
