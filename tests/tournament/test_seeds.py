"""Seeds and seat rotation."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from epigames.tournament import FIXED, ROTATE, game_seed, rotation_cycle, seat_strategies


def test_game_seed_is_the_spawned_child() -> None:
    children = np.random.SeedSequence(12345).spawn(50)
    for i in (0, 1, 17, 49):
        low, high = children[i].generate_state(2, np.uint32)
        assert game_seed(12345, i) == ((int(high) << 32) | int(low)) & (2**63 - 1)


def test_game_seeds_differ_and_are_stable() -> None:
    seeds = [game_seed(1, i) for i in range(2000)]
    assert len(set(seeds)) == 2000
    assert game_seed(1, 5) != game_seed(2, 5)
    assert all(0 <= s < 2**63 for s in seeds)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rotation_cycle_has_every_permutation_once(players: int) -> None:
    cycle = rotation_cycle(players)
    assert sorted(cycle) == sorted(itertools.permutations(range(players)))


@pytest.mark.parametrize("players", [3, 4])
def test_every_block_puts_each_strategy_at_each_seat_once(players: int) -> None:
    names = [f"s{i}" for i in range(players)]
    for block in range(5):
        games = [seat_strategies(names, block * players + j, ROTATE) for j in range(players)]
        for seat in range(players):
            assert sorted(g[seat] for g in games) == names


def test_rotation_is_balanced_over_a_full_cycle() -> None:
    names = ["a", "b", "c", "d"]
    counts = Counter(
        (seat, s) for i in range(48) for seat, s in enumerate(seat_strategies(names, i, ROTATE))
    )
    assert set(counts.values()) == {12}
    perms = Counter(seat_strategies(names, i, ROTATE) for i in range(48))
    assert set(perms.values()) == {2} and len(perms) == 24


def test_fixed_seats() -> None:
    assert seat_strategies(["a", "b", "c"], 7, FIXED) == ("a", "b", "c")
