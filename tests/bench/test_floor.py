"""`bench.floor`: the games replayed without thinking end as recorded (never timings)."""

from __future__ import annotations

import io
from functools import partial

import pytest
from rich.console import Console

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
    forged = type(result)(**{**vars_of(result), "transcript": other.transcript})
    with pytest.raises(bench_floor.ReplayMismatchError, match="seed 1"):
        bench_floor.replay_through_match(forged)
    truncated = type(result)(**{**vars_of(result), "history": result.history[::2]})
    with pytest.raises(bench_floor.ReplayMismatchError, match="seed 1"):
        bench_floor.replay_rules(truncated)


def vars_of(result: object) -> dict[str, object]:
    return {name: getattr(result, name) for name in result.__dataclass_fields__}  # type: ignore[attr-defined]


def test_floor_times_the_games_it_plays_and_prints_the_ratios() -> None:
    row = bench_floor.floor(
        "w", partial(play_match, "blufpoker", ("random",) * 3), 3, ours=8.0, seed=4.0, goal=20
    )
    assert row.replayed > 0 and row.rules > 0 and (row.ours, row.seed) == (8.0, 4.0)
    fixed = bench_floor.Floor("w", ours=8.0, replayed=40.0, rules=100.0, seed=4.0, goal=20)
    out = io.StringIO()
    bench_floor.print_floors(Console(file=out, width=200), [fixed])
    assert "2.0× / 10.0× / 25.0×" in out.getvalue() and "≥ 20×" in out.getvalue()
