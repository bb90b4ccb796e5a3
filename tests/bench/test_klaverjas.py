"""`epigames bench klaverjas`: its rows, and the 2017 program run beside it (never timings).

The 2017 program is replaced by a fake `klaverjas-2017/run.py` that prints a line in the
real harness's format, so the parsing and the ratio are tested without the real program.
"""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest
from rich.console import Console

from epigames import cli
from epigames.bench import klaverjas as bench, seeds
from epigames.commands import bench as command
from tests.bench.helpers import check_printed, fake_harness, fake_program, quick_run, runs_of


def fake_seed_programs(root: Path, output: str) -> Path:
    """A folder of seed programs whose klaverjas-2017/run.py prints `output`."""
    return fake_program(root, "klaverjas-2017", f"print({output!r})\n")


def test_quick_run_prints_every_row_and_says_the_2017_program_did_not_run() -> None:
    report, text = quick_run(bench.run)
    assert report.hands == 40
    assert [r.label for r in report.rates] == [
        "random ×4: the rules alone (baseline)",
        "tactics ×4: exact knowledge (the workload)",
        "tactics2017 ×4: the 2017 inference",
        "tactics ×4, all seats' knowledge after each card",
        "16-deal matches, tactics ×4 (matches/s)",
    ]
    for rate in report.rates:
        assert rate.per_s > 0
        assert rate.label in text
    full = report.rates[-1]
    assert full.deals_per_s == pytest.approx(16 * full.per_s)
    assert report.side is None
    assert "was not run" in text and "EPIGAMES_SEED_PROGRAMS" in text


def test_the_2017_program_runs_beside_ours_and_gives_the_ratios(tmp_path: Path) -> None:
    root = fake_harness(tmp_path, "klaverjas-2017", unit="hands")
    report, text = quick_run(bench.run, root)
    assert report.side is not None and report.side.goal == 8.0
    check_printed(report.side, text, rounds=1)
    assert "hands/s" in text
    # A 1-hand run, then as many hands as ours, with its own seed and no other argument.
    assert runs_of(root, "klaverjas-2017") == [["1", "--seed", "1"], ["40", "--seed", "1"]]


@pytest.mark.parametrize(
    ("output", "message"),
    [
        ("hello", "cannot read the speed of 7 hands"),
        ("klaverjas-2017: 8 hands in 0.1s = 80.0 games/s", "cannot read the speed of 7 hands"),
    ],
)
def test_output_that_is_not_the_harness_format_is_refused(
    tmp_path: Path, output: str, message: str
) -> None:
    harness = bench.seed_program(fake_seed_programs(tmp_path, output))
    with pytest.raises(bench.SeedProgramError, match=message):
        seeds.run_harness(bench.program_at(harness), 7, seed=1)


def test_a_failing_program_is_one_clear_error(tmp_path: Path) -> None:
    root = fake_seed_programs(tmp_path, "x")
    (root / "klaverjas-2017" / "run.py").write_text("raise SystemExit('no pygame here')\n")
    with pytest.raises(
        bench.SeedProgramError, match=re.escape("failed (exit status 1): no pygame here")
    ):
        seeds.run_harness(bench.program_at(bench.seed_program(root)), 7, seed=1)


def one_error_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert cli.run(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def test_a_missing_folder_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere"
    line = one_error_line(
        ["bench", "klaverjas", "--quick", "--seed-programs", str(missing)], capsys
    )
    assert "no 2017 Klaverjas program" in line and "klaverjas-2017" in line


def test_the_folder_may_come_from_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(command.SEED_PROGRAMS_ENV, str(tmp_path / "elsewhere"))
    line = one_error_line(["bench", "klaverjas", "--quick"], capsys)
    assert "elsewhere" in line


def test_benchmarks_without_the_option_do_not_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, object]] = []

    def plain_run(console: Console, quick: bool = False) -> None:
        calls.append({"quick": quick})

    def seeded_run(
        console: Console, quick: bool = False, seed_programs: Path | None = None
    ) -> None:
        calls.append({"quick": quick, "seed_programs": seed_programs})

    modules = {
        "epigames.bench.plain": types.SimpleNamespace(run=plain_run),
        "epigames.bench.seeded": types.SimpleNamespace(run=seeded_run),
    }
    monkeypatch.setattr(command, "available", lambda: ["plain", "seeded"])
    monkeypatch.setattr(command, "importlib", types.SimpleNamespace(import_module=modules.get))
    folder = Path(sys.prefix)
    command.bench("plain", quick=True, seed_programs=folder)
    command.bench("seeded", quick=True, seed_programs=folder)
    assert calls == [{"quick": True}, {"quick": True, "seed_programs": folder}]
