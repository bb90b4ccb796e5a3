"""`epigames bench kemps`: its rows, and the 2023 program run beside it (never timings).

The 2023 program is replaced by a fake `kemps-2023/run.py` (`helpers.FAKE`) that burns CPU
and prints a line in the real harness's format, so the parsing and the ratios are tested
without the real program.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from epigames.bench import kemps as bench
from tests.bench.helpers import check_printed, fake_harness, fake_program, quick_run, runs_of


def test_quick_run_prints_every_row_and_says_the_2023_program_did_not_run() -> None:
    report, text = quick_run(bench.run)
    assert report.rates[0][0] == "greedy ×3: no knowledge (baseline)"
    assert len(report.rates) == 4 and all(rate > 0 for _, rate in report.rates)
    assert "The 2023 program was not run" in text and not report.side


def test_the_2023_program_runs_beside_ours(tmp_path: Path) -> None:
    root = fake_harness(tmp_path, "kemps-2023")
    report, text = quick_run(bench.run, root)
    assert [row.label.split(" ")[0] for row in report.side] == ["greedy", "kbblocking"]
    assert [row.goal for row in report.side] == [8.0, 5.0]
    assert "Against the 2023 program" in text and "What the rules allow" in text
    for row in report.side:
        check_printed(row, text, rounds=1)
    # Per configuration: a 1-game run, then the round's 10 games, with the same seed.
    assert runs_of(root, "kemps-2023") == [
        [games, "--seed", "1", "--config", config]
        for config in ("greedy", "kbblocking")
        for games in ("1", "10")
    ]


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("import sys; sys.exit(3)\n", "failed \\(exit status 3\\)"),
        ("print('no speed here')\n", "cannot read the speed of 1 games"),
    ],
)
def test_a_broken_2023_program_is_one_clear_error(
    tmp_path: Path, script: str, message: str
) -> None:
    with pytest.raises(bench.SeedProgramError, match=message):
        quick_run(bench.run, fake_program(tmp_path, "kemps-2023", script))


def test_a_missing_2023_program_fails_before_running_anything(tmp_path: Path) -> None:
    with pytest.raises(bench.SeedProgramError, match="no 2023 Kemps program"):
        quick_run(bench.run, tmp_path)
