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

#: How the strategies are placed at the seats. `DUPLICATE` seats them as `ROTATE` does and
#: plays each block of the rotation (one seating per team position) on the same cards.
ROTATE = "rotate"
FIXED = "fixed"
DUPLICATE = "duplicate"
SEAT_SCHEMES = (ROTATE, FIXED, DUPLICATE)

#: A game's teams (`Game.teams`): tuples of seats that play together, in seat order.
Teams = tuple[tuple[int, ...], ...]


def solo_teams(players: int) -> Teams:
    """Every seat a team of its own: the teams of a game without partners."""
    return tuple((seat,) for seat in range(players))


def game_seed(tournament_seed: int, index: int) -> int:
    """The seed of game `index`: child `index` of `SeedSequence(tournament_seed)`.

    `SeedSequence(s).spawn(n)[i]` is `SeedSequence(s, spawn_key=(i,))`; building that child
    directly gives the same numbers without spawning (and holding) `n` objects. The
    result is a 63-bit integer, so it fits DuckDB's BIGINT and any match seed argument.
    """
    child = np.random.SeedSequence(tournament_seed, spawn_key=(index,))
    low, high = (int(x) for x in child.generate_state(2, np.uint32))
    return ((high << 32) | low) & ((1 << 63) - 1)


def duplicate_block(teams: Teams) -> int:
    """How many games of a `DUPLICATE` tournament share one seed: one per team (per seat
    without partners), so that each block puts each team's strategies at each team once."""
    return len(teams)


def seed_index(index: int, scheme: str, teams: Teams | None) -> int:
    """Which child of the tournament's `SeedSequence` game `index` plays with.

    Its own, except in a `DUPLICATE` tournament (whose `teams` are given), where the
    games of a block (`duplicate_block`) share the block's: a game's seed fixes its
    chance moves (the deal), so every seating of the block gets the same cards.
    """
    if scheme != DUPLICATE or teams is None:
        return index
    return index // duplicate_block(teams)


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


@lru_cache(maxsize=16)
def team_rotation_cycle(teams: Teams) -> tuple[tuple[int, ...], ...]:
    """The seatings of a team game, in the order games use them: partners stay together.

    A seating `order` puts at seat `s` the strategy that seat `order[s]` has in the
    line-up. The strategies of one team's seats (its *group*) always move together to a
    single team; a group never splits. With `k` teams of `m` seats each:

    - the team permutations `p` come from `rotation_cycle(k)`: team `j` gets the group of
      team `p[j]`;
    - within its team, a group is shifted cyclically by `r` (the same for every team):
      member `i` of team `j` gets the strategy of member `(i + r) mod m` of team `p[j]`;
    - the cycle walks the blocks of `k` team permutations of `rotation_cycle(k)`, each
      block once for every shift `r = 0..m-1`, so it has `k!·m` entries.

    So every `k` consecutive games (from a multiple of `k`) put each group at each team
    once, every `k·m` games put each strategy at each seat once, and the whole cycle uses
    each team permutation `m` times. With every seat its own team (`m = 1`) this is
    exactly `rotation_cycle(k)`, the seating of a game without partners.

    Raises:
        ValueError: teams of different sizes (groups could not change teams), or teams
            that do not hold the seats `0..n-1` each once.
    """
    sizes = {len(team) for team in teams}
    if len(sizes) != 1:
        raise ValueError(f"teams {teams} differ in size; only equal teams can swap places")
    seats = sorted(seat for team in teams for seat in team)
    if seats != list(range(len(seats))):
        raise ValueError(f"teams {teams} do not hold the seats 0..{len(seats) - 1} once each")
    (size,) = sizes
    count = len(teams)
    permutations = rotation_cycle(count)
    cycle: list[tuple[int, ...]] = []
    for start in range(0, len(permutations), count):
        block = permutations[start : start + count]
        for shift in range(size):
            for perm in block:
                order = [0] * len(seats)
                for j, team in enumerate(teams):
                    source = teams[perm[j]]
                    for i, seat in enumerate(team):
                        order[seat] = source[(i + shift) % size]
                cycle.append(tuple(order))
    return tuple(cycle)


def seat_strategies(
    strategies: Sequence[str], index: int, scheme: str, teams: Teams | None = None
) -> tuple[str, ...]:
    """The strategy at each seat in game `index`.

    Args:
        strategies: the tournament's strategies, one per seat in the fixed arrangement.
        index: the game index, `0..N-1`.
        scheme: `"fixed"` (seat `s` always plays `strategies[s]`), or `"rotate"` and
            `"duplicate"` (game `index` uses entry `index mod len(cycle)` of the cycle:
            `rotation_cycle` of the seats, or `team_rotation_cycle(teams)` when some team
            has several seats).
        teams: the game's teams (`Game.teams`); None or one seat per team for a game
            without partners.
    """
    if scheme == FIXED:
        return tuple(strategies)
    if teams is None or all(len(team) == 1 for team in teams):
        cycle = rotation_cycle(len(strategies))
    else:
        cycle = team_rotation_cycle(tuple(tuple(team) for team in teams))
        if len(cycle[0]) != len(strategies):
            raise ValueError(
                f"{len(strategies)} strategies for the {len(cycle[0])} seats of {teams}"
            )
    order = cycle[index % len(cycle)]
    return tuple(strategies[i] for i in order)


def cycle_sizes(teams: Teams) -> tuple[int, int, int]:
    """The tournament sizes `(k, k·m, k!·m)` that balance rotated seats, for `k` teams of `m`.

    After a multiple of `k` games each team's strategies played for each team equally
    often, of `k·m` each strategy sat at each seat equally often, of `k!·m` every seating
    of `team_rotation_cycle` occurred equally often. Without partners: `(n, n, n!)`.
    """
    count, size = len(teams), max((len(team) for team in teams), default=1)
    return count, count * size, math.factorial(count) * size
