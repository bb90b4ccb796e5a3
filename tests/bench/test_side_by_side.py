"""The Kwartet and Blufpoker benchmarks' runs beside the seed programs (never timings).

Fake `run.py` harnesses print the real ones' line with the arguments they were given, so
the command lines, the parsing and the ratios are tested without the real programs.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from epigames.bench import blufpoker, kwartet, seeds
from tests.bench.helpers import fake_program, quick_run

#: Prints `N games … = R games/s` where R encodes the arguments after N.
ECHO = """\
import sys
args = " ".join(sys.argv[2:])
print(f"fake [{args}]: {sys.argv[1]} games in 1.000s = {len(args)}.00 games/s")
"""


def test_side_by_side_alternates_and_divides_the_medians() -> None:
    calls: list[str] = []

    def ours() -> float:
        calls.append("ours")
        return [30.0, 10.0, 20.0][len(calls) // 2]

    def theirs(seed: int) -> float:
        calls.append(f"theirs {seed}")
        return 2.0 * seed

    row = seeds.side_by_side("w", ours, theirs, rounds=3, goal=5.0, before=4.0)
    assert calls == ["ours", "theirs 1", "ours", "theirs 2", "ours", "theirs 3"]
    assert row.ours == (30.0, 10.0, 20.0) and row.theirs == (2.0, 4.0, 6.0)
    assert row.ratio == 5.0
    out = io.StringIO()
    seeds.print_side_by_side(Console(file=out, width=200), "title", [row])
    text = out.getvalue()
    assert "5.0×" in text and "≥ 5× met" in text and "1.25" in text  # 5x now over 4x before


def test_the_mesa_line_up_rotates_as_the_mesa_program_rolls_its_strategies() -> None:
    for game in range(9):
        rolled = np.roll(np.array(kwartet.MESA_PLAYERS), game % 4)
        assert kwartet.mesa_players(game) == tuple(rolled)


def test_the_kwartet_harnesses_get_the_games_and_the_seed(tmp_path: Path) -> None:
    root = fake_program(tmp_path, "kwartet-2020", ECHO)
    harness = seeds.find_harness(root, kwartet.SEED_2020, "2020 Kwartet program")
    assert kwartet.seed_rate(harness, 7, seed=2) == len("--seed 2")


def test_the_blufpoker_harness_gets_the_configuration(tmp_path: Path) -> None:
    root = fake_program(tmp_path, "blufpoker-2020", ECHO)
    harness = seeds.find_harness(root, blufpoker.SEED_PROGRAM, "2020 Blufpoker program")
    options = {name: opts for name, _, opts in blufpoker.SIDE_BY_SIDE}
    expected = " ".join(("--seed", "3", *options["configuration 1"]))
    assert blufpoker.seed_rate(harness, 5, 3, options["configuration 1"]) == len(expected)


def test_a_harness_that_plays_another_number_of_games_is_one_clear_error(
    tmp_path: Path,
) -> None:
    script = "print('fake: 3 games in 1.0s = 3.00 games/s')\n"
    harness = fake_program(tmp_path, "kwartet-2020", script) / kwartet.SEED_2020
    with pytest.raises(seeds.SeedProgramError, match="cannot read the speed of 4 games"):
        kwartet.seed_rate(harness, 4, seed=1)


@pytest.mark.parametrize("bench", [kwartet, blufpoker])
def test_a_missing_seed_program_fails_before_anything_runs(tmp_path: Path, bench: object) -> None:
    with pytest.raises(seeds.SeedProgramError, match="no 20"):
        bench.run(Console(file=io.StringIO()), quick=True, seed_programs=tmp_path)  # type: ignore[attr-defined]


def test_a_seed_programs_cpu_rate_leaves_its_start_up_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A child whose start-up costs 0.5 CPU seconds and each game 0.1: the rate is 10 games
    per CPU second, the start-up cancelled out. The children's CPU clock is simulated, so
    the test does not depend on how busy the machine is."""
    clock = [0.0]
    monkeypatch.setattr(seeds, "_children_cpu", lambda: clock[0])

    def run(games: int) -> None:
        clock[0] += 0.5 + 0.1 * games

    assert seeds.child_cpu_rate(run, 4) == pytest.approx(10.0)


def test_a_run_that_costs_no_cpu_gives_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seeds, "_children_cpu", lambda: 1.5)
    with pytest.raises(seeds.SeedProgramError, match="cost no more CPU"):
        seeds.child_cpu_rate(lambda games: None, 10)


def test_the_blufpoker_bench_replays_the_games_it_ran_beside_the_program(tmp_path: Path) -> None:
    report, text = quick_run(blufpoker.run, fake_program(tmp_path, "blufpoker-2020", ECHO))
    assert [row.label for row in report.floors] == [row.label for row in report.side]
    assert all(row.replayed > 0 and row.rules > 0 for row in report.floors)
    assert "What the rules allow" in text
