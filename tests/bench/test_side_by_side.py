"""The benchmarks' rounds beside the seed programs, and the Kwartet and Blufpoker runs.

Fake `run.py` harnesses (`helpers.FAKE`) log their arguments, burn CPU and print the real
ones' line, so the command lines, the CPU accounting, the parsing and the ratios are
tested without the real programs. Nothing asserts on a time: only on how the printed
ratios follow from the measured rates.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from epigames.bench import blufpoker, floor, kwartet, seeds
from epigames.games import MatchResult, play_match
from tests.bench.helpers import (
    PRINTED,
    check_printed,
    fake_harness,
    fake_program,
    quick_run,
    runs_of,
    table_rows,
)


def test_a_round_runs_the_seed_program_ours_and_both_replays_in_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []

    def play(seed: int) -> MatchResult:
        calls.append(f"ours {seed}")
        return play_match("blufpoker", ("random",) * 3, seed)

    def theirs(seed: int) -> seeds.Speed:
        calls.append(f"theirs {seed}")
        return seeds.Speed(2.0 * seed, 1.0 * seed)

    for name in ("replay_through_match", "replay_rules"):
        replay = getattr(floor, name)

        def recorded(result: MatchResult, name: str = name, replay: object = replay) -> object:
            calls.append(f"{name} {result.seed}")
            return replay(result)  # type: ignore[operator]

        monkeypatch.setattr(floor, name, recorded)
    row = seeds.side_by_side("w", play, theirs, games=2, rounds=2, goal=5.0, before=4.0)
    one_round = ["ours 0", "ours 1", "replay_through_match 0", "replay_through_match 1"]
    one_round += ["replay_rules 0", "replay_rules 1"]
    # The games are played once untimed, each replay warmed on the first, then the rounds.
    assert calls == [
        "ours 0",
        "ours 1",
        "replay_through_match 0",
        "replay_rules 0",
        "theirs 1",
        *one_round,
        "theirs 2",
        *one_round,
    ]
    assert row.theirs == (seeds.Speed(2.0, 1.0), seeds.Speed(4.0, 2.0))
    assert all(len(runs) == 2 for runs in (row.ours, row.replayed, row.rules))
    assert row.ratio("cpu") == seeds.median(row.ours, "cpu") / 3.0
    assert row.ratio("wall") == seeds.median(row.ours, "wall") / 1.5


def test_the_tables_print_both_clocks_and_the_ratios_of_the_medians() -> None:
    def speeds(*cpu: float) -> tuple[seeds.Speed, ...]:
        return tuple(seeds.Speed(x, x / 2) for x in cpu)

    row = seeds.SideBySide(
        "w",
        ours=speeds(30.0, 10.0, 20.0),
        theirs=speeds(2.0, 4.0, 6.0),
        replayed=speeds(60.0, 40.0, 50.0),
        rules=speeds(300.0, 200.0, 100.0),
        goal=5.0,
        rules_goal=60.0,
        before=4.0,
    )
    out = io.StringIO()
    seeds.print_side_by_side(Console(file=out, width=240), "title", [row])
    rows = table_rows(out.getvalue())
    # CPU: 20 / 4 = 5x, the goal met; wall: 10 / 2 = 5x, 1.25 times the 4x before.
    assert rows[0] == [
        *("w", "CPU time", "30.0, 10.0, 20.0 [20.0]", "2.0, 4.0, 6.0 [4.0]"),
        *("5.0×", "≥ 5× met", ""),
    ]
    assert rows[1] == [
        *("", "wall clock", "15.0, 5.0, 10.0 [10.0]", "1.0, 2.0, 3.0 [2.0]"),
        *("5.0×", "", "1.25"),
    ]
    # Floors: medians 20, 50, 200 against 4 in CPU time; the rules goal of 60x missed.
    assert rows[2] == [
        *("w", "CPU time", "20.0", "50.0", "200.0", "4.0"),
        *("5.0× / 12.5× / 50.0×", "≥ 5×; rules ≥ 60× missed"),
    ]
    assert rows[3] == [
        *("", "wall clock", "10.0", "25.0", "100.0", "2.0"),
        *("5.0× / 12.5× / 50.0×", ""),
    ]


def test_a_seed_programs_cpu_time_leaves_its_start_up_and_first_game_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A child whose start-up costs 0.3 CPU seconds and each game 0.01: 9 games (2..10)
    in 0.09 s, 100 games per CPU second. The children's CPU clock is simulated from the
    runs the fake logged, so the test does not depend on how busy the machine is."""
    root = fake_harness(tmp_path, "kwartet-2020")

    def children_cpu() -> float:
        if not (root / "kwartet-2020" / "args.jsonl").exists():
            return 0.0
        return sum(0.3 + 0.01 * int(run[0]) for run in runs_of(root, "kwartet-2020"))

    monkeypatch.setattr(seeds, "_children_cpu", children_cpu)
    program = kwartet.program_at(root / kwartet.SEED_2020)
    measured = seeds.seed_speed(program, 10, seed=4)
    assert measured.cpu == pytest.approx(100.0) and measured.wall == PRINTED
    assert runs_of(root, "kwartet-2020") == [["1", "--seed", "4"], ["10", "--seed", "4"]]


def test_a_seed_run_that_costs_no_more_cpu_than_one_game_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(seeds, "_children_cpu", lambda: 1.5)
    root = fake_harness(tmp_path, "kwartet-2020")
    with pytest.raises(seeds.SeedProgramError, match="cost no more CPU than its run of 1"):
        seeds.seed_speed(kwartet.program_at(root / kwartet.SEED_2020), 10, seed=1)


def test_the_mesa_line_up_rotates_as_the_mesa_program_rolls_its_strategies() -> None:
    for game in range(9):
        rolled = np.roll(np.array(kwartet.MESA_PLAYERS), game % 4)
        assert kwartet.mesa_players(game) == tuple(rolled)


def test_the_blufpoker_harness_gets_the_configuration(tmp_path: Path) -> None:
    options = {name: opts for name, _, opts in blufpoker.SIDE_BY_SIDE}
    program = blufpoker.program_at(tmp_path / "run.py", options["configuration 1"])
    command = program.command(5, 3)
    assert command[1:] == [
        str(tmp_path / "run.py"),
        "5",
        "--seed",
        "3",
        *options["configuration 1"],
    ]
    assert command[0] == seeds.seed_python()


def test_the_seed_python_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(seeds.SEED_PYTHON_ENV, "/opt/seed/bin/python")
    assert kwartet.program_at(Path("run.py")).command(2, 1)[0] == "/opt/seed/bin/python"


def test_a_harness_that_plays_another_number_of_games_is_one_clear_error(
    tmp_path: Path,
) -> None:
    script = "print('fake: 3 games in 1.0s = 3.00 games/s')\n"
    harness = fake_program(tmp_path, "kwartet-2020", script) / kwartet.SEED_2020
    with pytest.raises(seeds.SeedProgramError, match="cannot read the speed of 4 games"):
        seeds.run_harness(kwartet.program_at(harness), 4, seed=1)


@pytest.mark.parametrize("bench", [kwartet, blufpoker])
def test_a_missing_seed_program_fails_before_anything_runs(tmp_path: Path, bench: object) -> None:
    with pytest.raises(seeds.SeedProgramError, match="no 20"):
        bench.run(Console(file=io.StringIO()), quick=True, seed_programs=tmp_path)  # type: ignore[attr-defined]


def test_the_blufpoker_bench_prints_cpu_and_wall_ratios_of_its_rounds(tmp_path: Path) -> None:
    root = fake_harness(tmp_path, "blufpoker-2020")
    report, text = quick_run(blufpoker.run, root)
    assert [row.label.split(" (")[0] for row in report.side] == [
        "configuration 1",
        "configuration 2",
    ]
    for row in report.side:
        check_printed(row, text, rounds=1)
    assert [row.goal for row in report.side] == [20.0, 12.0]
    assert "rules ≥ 50×" in text
    # Per configuration: a 1-game run, then 10 games, one seed, the configuration's options.
    expected = []
    for _, _, options in blufpoker.SIDE_BY_SIDE:
        expected += [["1", "--seed", "1", *options], ["10", "--seed", "1", *options]]
    assert runs_of(root, "blufpoker-2020") == expected


def test_the_kwartet_bench_runs_both_seed_programs_beside_ours(tmp_path: Path) -> None:
    root = fake_harness(tmp_path, "kwartet-2020")
    fake_harness(root, "quartet-mesa-2023")
    harnesses = (root / kwartet.SEED_2020, root / kwartet.SEED_MESA)
    out = io.StringIO()
    # Its rows beside the programs (the whole quick run also measures memory: too slow).
    rows = kwartet.beside_seed_programs(Console(file=out, width=200), harnesses, quick=True)
    assert len(rows) == 2
    for row in rows:
        check_printed(row, out.getvalue(), rounds=1)
    for program in ("kwartet-2020", "quartet-mesa-2023"):
        assert runs_of(root, program) == [["1", "--seed", "1"], ["4", "--seed", "1"]]
