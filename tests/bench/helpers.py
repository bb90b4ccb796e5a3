"""Helpers for the tests of `epigames bench` rows that run a seed program beside ours."""

from __future__ import annotations

import io
import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from rich.console import Console

from epigames.bench.seeds import CLOCK_NAMES, CLOCKS, SideBySide

R = TypeVar("R")

#: The rate every fake harness prints, games/s (its wall-clock side).
PRINTED = 20.0
#: CPU seconds a fake harness burns a game: the longer run costs far more than a 1-game run.
CPU_PER_GAME = 0.03
#: A seed program's harness: logs its arguments to `args.jsonl` beside it, burns
#: CPU_PER_GAME of CPU a game and prints the real harnesses' line with PRINTED games/s.
FAKE = f"""\
import json, sys, time
from pathlib import Path
with Path(__file__).with_name("args.jsonl").open("a") as out:
    out.write(json.dumps(sys.argv[1:]) + "\\n")
n = int(sys.argv[1])
start = time.process_time()
while time.process_time() - start < {CPU_PER_GAME} * n:
    pass
print(f"fake [{{' '.join(sys.argv[2:])}}]: {{n}} UNIT in 0.500s = {PRINTED:.2f} games/s; x")
"""


def fake_program(root: Path, program: str, script: str) -> Path:
    """`root` as a folder of seed programs holding `program/run.py` with `script`."""
    folder = root / program
    folder.mkdir(parents=True)
    (folder / "run.py").write_text(script)
    return root


def fake_harness(root: Path, program: str, unit: str = "games") -> Path:
    """`root` as a folder of seed programs holding `program/run.py`, the `FAKE` harness."""
    return fake_program(root, program, FAKE.replace("UNIT", unit))


def runs_of(root: Path, program: str) -> list[list[str]]:
    """The arguments of each run of the fake harness `program` in `root`, in order."""
    log = root / program / "args.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()]


def quick_run(run: Callable[..., R], seed_programs: Path | None = None) -> tuple[R, str]:
    """A benchmark's quick run (its `run`) and the text it printed."""
    out = io.StringIO()
    report = run(Console(file=out, width=200), quick=True, seed_programs=seed_programs)
    return report, out.getvalue()


def table_rows(text: str) -> list[list[str]]:
    """The cells of every row of the tables in `text` (as Rich draws them)."""
    return [
        [cell.strip() for cell in line.split("│")[1:-1]]
        for line in text.splitlines()
        if line.startswith("│")
    ]


def check_printed(row: SideBySide, text: str, rounds: int) -> None:
    """`row` has `rounds` runs a side, the seed program's wall rate is the one it printed,
    and both tables print its rates and the ratios of their medians, on both clocks."""
    sides = (row.ours, row.theirs, row.replayed, row.rules)
    assert [len(runs) for runs in sides] == [rounds] * 4
    assert all(run.wall == PRINTED and run.cpu > 0 for run in row.theirs)
    rows = table_rows(text)
    first = next(i for i, cells in enumerate(rows) if cells[:2] == [row.label, "CPU time"])
    floors = next(
        i for i, cells in enumerate(rows) if cells[:2] == [row.label, "CPU time"] and i > first
    )
    for k, clock in enumerate(CLOCKS):
        ours, theirs, replayed, rules = (
            statistics.median(run.on(clock) for run in runs) for runs in sides
        )
        assert row.ratio(clock) == ours / theirs
        side = rows[first + k]
        assert side[1] == CLOCK_NAMES[clock]
        assert side[2].endswith(f"[{ours:,.1f}]") and side[3].endswith(f"[{theirs:,.1f}]")
        assert side[4] == f"{ours / theirs:.1f}×"
        if clock == "cpu":
            assert (
                side[5] == f"≥ {row.goal:.0f}× {'met' if ours / theirs >= row.goal else 'missed'}"
            )
        floor = rows[floors + k]
        assert floor[2:6] == [f"{x:,.1f}" for x in (ours, replayed, rules, theirs)]
        assert floor[6] == " / ".join(f"{x / theirs:.1f}×" for x in (ours, replayed, rules))
