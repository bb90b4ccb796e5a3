"""`epigames bench rl`: a row per game and observation kind, beside PettingZoo's own env.

Only the table's shape and that every rate is positive are checked, never a time.
"""

from __future__ import annotations

import pytest

from epigames.bench import rl as bench
from epigames.games import Game, game_class, game_registered, registered_games
from tests.bench.helpers import quick_run, table_rows

pytest.importorskip("pettingzoo")


def test_quick_run_prints_a_row_per_game_and_observation_with_its_goal() -> None:
    report, text = quick_run(lambda console, quick, seed_programs: bench.run(console, quick))
    names = bench.games()
    assert {"blufpoker", "kemps", "klaverjas", "kwartet", "sevens"} <= set(names)
    assert [(row.game, row.observation) for row in report.rows] == [
        (name, kind) for name in names for kind in ("hand", "knowledge")
    ]
    rows = table_rows(text)
    ours = [cells for cells in rows if cells[0] in names]
    # The floor, an env with no game behind it, once a round.
    assert len(report.floor_runs) == report.rounds
    assert all(run.cpu > 0 and run.wall > 0 for run in report.floor_runs)
    assert [cells[:2] for cells in rows if "floor" in cells[0]] == [
        ["an env that does nothing (the floor)", "constant"]
    ]
    assert [(cells[0], cells[1]) for cells in ours] == [
        (row.game, row.observation) for row in report.rows
    ]
    for row, cells in zip(report.rows, ours, strict=True):
        assert len(row.runs) == report.rounds == 1
        assert row.rate("cpu") > 0 and row.rate("wall") > 0
        assert cells[2] == f"{row.rate('cpu'):,.0f}"
        goal = {"hand": "≥ 20,000", "knowledge": "≥ 5,000"}[row.observation]
        assert cells[5] == f"{goal} {'met' if row.met else 'not met'}"
    if report.baseline.make is None:
        # PettingZoo's classic environments import pygame: without it, say so.
        assert "No baseline" in text and report.baseline.reason
        assert all(cells[4] == "—" for cells in ours)
    else:
        assert rows[0][0] == f"{report.baseline.name} (PettingZoo, baseline)"
        # One baseline run beside each game in the round, and every ratio printed.
        assert len(report.baseline_runs) == len(names)
        assert all(run.cpu > 0 and run.wall > 0 for run in report.baseline_runs)
        for row, cells in zip(report.rows, ours, strict=True):
            ratio = row.ratio("cpu")
            assert ratio is not None and cells[4] == f"{ratio:.2f}"


def test_games_are_found_in_the_registry_without_those_tests_register() -> None:
    toy = type("BenchToy", (game_class("sevens"),), {"name": "benchtoy", "__module__": __name__})
    with game_registered(toy):
        assert "benchtoy" in registered_games()
        assert "benchtoy" not in bench.games()
    assert set(bench.games()) == {
        name for name in registered_games() if game_class(name).__module__.startswith("epigames.")
    }
    assert all(issubclass(game_class(name), Game) for name in bench.games())


def test_the_trainer_loop_plays_the_decisions_asked_over_several_episodes() -> None:
    from epigames.adapters.pettingzoo import env

    aec = env("kwartet(players=3,kinds=3)")
    episodes = bench.trainer_loop(aec, 300)
    assert episodes > 1  # a 3-kind game is shorter than 300 asks: the loop reset it
    null = bench.null_env(players=3, length=10)
    assert bench.trainer_loop(null, 95) == 10  # 10 decisions an episode: the 10th begun
    assert null.unwrapped.decisions == 5


def test_without_a_baseline_the_table_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "BASELINES", (("nothing_v0", "classic/nothing-v0"),))
    monkeypatch.setattr(bench, "games", lambda: ["sevens"])
    report, text = quick_run(lambda console, quick, seed_programs: bench.run(console, quick))
    assert report.baseline.make is None and "nothing_v0" in report.baseline.reason
    assert not report.baseline_runs and [row.ratio() for row in report.rows] == [None, None]
    assert "No baseline: nothing_v0" in " ".join(text.split())
    assert [cells[4] for cells in table_rows(text)] == ["—", "—", "—"]  # the floor too
