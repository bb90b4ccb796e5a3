"""`epigames bench kemps`: its rows, and the 2023 program run beside it (never timings).

The 2023 program is replaced by a fake `kemps-2023/run.py` that prints a line in the real
harness's format, so the parsing and the ratios are tested without the real program.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from epigames.bench import kemps as bench
from tests.bench.helpers import fake_program, quick_run

FAKE = """\
import sys
print(f"kemps-2023 [{sys.argv[3]}]: {sys.argv[1]} games in 0.500s = 20.00 games/s; x")
"""


def fake(root: Path, script: str = FAKE) -> Path:
    return fake_program(root, "kemps-2023", script)


def test_quick_run_prints_every_row_and_says_the_2023_program_did_not_run() -> None:
    report, text = quick_run(bench.run)
    assert report.rates[0][0] == "greedy ×3: no knowledge (baseline)"
    assert len(report.rates) == 4 and all(rate > 0 for _, rate in report.rates)
    assert "The 2023 program was not run" in text and not report.side


def test_the_2023_program_runs_beside_ours(tmp_path: Path) -> None:
    report, text = quick_run(bench.run, fake(tmp_path))
    assert set(report.side) == {"greedy", "kbblocking"}
    assert all(theirs == 20.0 and ours > 0 for ours, theirs in report.side.values())
    assert "Against the 2023 program" in text
    # Each configuration's games replayed without thinking, against the same seed rate.
    assert [(row.ours, row.seed) for row in report.floors] == list(report.side.values())
    assert all(row.replayed > 0 and row.rules > 0 for row in report.floors)
    assert "What the rules allow" in text


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("import sys; sys.exit(3)\n", "failed \\(exit status 3\\)"),
        ("print('no speed here')\n", "cannot read the speed of 10 games"),
    ],
)
def test_a_broken_2023_program_is_one_clear_error(
    tmp_path: Path, script: str, message: str
) -> None:
    with pytest.raises(bench.SeedProgramError, match=message):
        quick_run(bench.run, fake(tmp_path, script))


def test_a_missing_2023_program_fails_before_running_anything(tmp_path: Path) -> None:
    with pytest.raises(bench.SeedProgramError, match="no 2023 Kemps program"):
        quick_run(bench.run, tmp_path)
