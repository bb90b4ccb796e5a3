"""`bench.floor`: the games replayed without thinking end as recorded (never timings)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from epigames.bench import floor as bench_floor
from epigames.games import play_match

GAMES = [
    ("blufpoker", ("knowledge", "random", "greedy/overbid/believe")),
    ("kemps(ranks=6)", ("blocking", "greedy", "kbgreedy")),
    ("kwartet(kinds=6,ask_own=false)", ("owner", "aggressive", "greedy", "random")),
    ("klaverjas", ("tactics", "random", "tactics", "random")),
]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_both_replays_end_as_the_recorded_game(game: str, players: tuple[str, ...]) -> None:
    for seed in range(4):
        result = play_match(game, players, seed)
        assert bench_floor.replay_through_match(result) == result.returns
        assert bench_floor.replay_rules(result) == result.returns


def test_a_replay_of_another_game_is_caught() -> None:
    result = play_match("blufpoker", ("random",) * 3, 1)
    other = play_match("blufpoker", ("random",) * 3, 2)
    forged = replace(result, transcript=other.transcript)
    with pytest.raises(bench_floor.ReplayMismatchError, match="seed 1"):
        bench_floor.replay_through_match(forged)
    truncated = replace(result, history=result.history[::2])
    with pytest.raises(bench_floor.ReplayMismatchError, match="seed 1"):
        bench_floor.replay_rules(truncated)


def test_a_checked_replay_raises_when_the_game_ends_otherwise() -> None:
    result = play_match("blufpoker", ("random",) * 3, 1)
    bench_floor.checked(bench_floor.replay_rules)(result)  # ends as recorded: no error
    forged = replace(result, returns=(9.0, 9.0, 9.0))
    with pytest.raises(bench_floor.ReplayMismatchError, match="seed 1: the replay ended"):
        bench_floor.checked(bench_floor.replay_rules)(forged)
