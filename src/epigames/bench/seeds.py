"""The seed programs' headless harnesses, run beside ours: finding one, reading its speed.

Each harness lies at a fixed place in the folder of seed programs (`--seed-programs DIR`
or `EPIGAMES_SEED_PROGRAMS`), runs N games in its own folder and prints a line such as
`klaverjas-2017: 600 hands in 6.083s = 98.64 games/s`; the benchmarks read the rate.
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from epigames.bench.floor import Floor
from epigames.errors import InputError

_TIMEOUT_S = 1800


class SeedProgramError(InputError):
    """A seed program cannot be found or run, or its output cannot be read."""


def find_harness(folder: Path, harness: Path, program: str) -> Path:
    """The harness at `harness` inside the folder of seed programs.

    Args:
        folder: the folder of seed programs.
        harness: where the harness lies in it, e.g. `klaverjas-2017/run.py`.
        program: the program's name for the message, e.g. `2017 Klaverjas program`.

    Raises:
        SeedProgramError: no such harness.
    """
    path = folder / harness
    if not path.is_file():
        raise SeedProgramError(
            f"no {program} at {path}; expected --seed-programs (or "
            f"EPIGAMES_SEED_PROGRAMS) to be a folder holding {harness}"
        )
    return path


def printed_rate(
    command: Sequence[str],
    harness: Path,
    program: str,
    n: int,
    unit: str,
    example: str,
    hint: str = "",
) -> float:
    """Run a harness (`command`, in the harness's folder) and return the rate it prints.

    Args:
        command: the command line, the harness and its arguments for `n` games.
        harness: the harness (for messages and its folder).
        program: the program's name for messages, e.g. `2017 program`.
        n: how many games (`unit`, e.g. `hands`) it plays: its line must say so.
        example: a line it prints, for the message when it prints none.
        hint: what the message of a failed run adds, e.g. what the program needs.

    Raises:
        SeedProgramError: it fails, or prints no `n <unit> in Ts = R games/s`.
    """
    try:
        done = subprocess.run(
            list(command),
            cwd=harness.parent,
            capture_output=True,
            text=True,
            timeout=_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SeedProgramError(f"the {program} {harness} did not run: {exc}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SeedProgramError(
            f"the {program} {harness} failed (exit status {done.returncode}): {last}{hint}"
        )
    output = done.stdout.strip()
    found = re.search(rf"(\d+) {unit} in ([0-9.]+)s = ([0-9.]+) games/s", output)
    if found is None or int(found.group(1)) != n:
        first = (output.splitlines() or [""])[0]
        raise SeedProgramError(
            f"cannot read the speed of {n} {unit} from the {program}'s output "
            f"{first[:120]!r}; expected e.g. {example!r}"
        )
    return float(found.group(3))


def _children_cpu() -> float:
    """CPU seconds (user + system) of this process's finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def child_cpu_rate(run: Callable[[int], object], games: int) -> float:
    """Games per CPU second of a seed program that `run(k)` runs for k games as a child.

    The CPU a run costs is read from the finished children's usage, so it does not
    depend on what else the machine runs (the wall clock does). The program is run for
    `games` and for `2 * games` games: the difference is the CPU of `games` games alone,
    its interpreter start-up, imports and set-up cancelled out.

    Raises:
        SeedProgramError: the longer run cost no more CPU than the shorter one.
    """

    def cpu(k: int) -> float:
        before = _children_cpu()
        run(k)
        return _children_cpu() - before

    short = cpu(games)
    extra = cpu(2 * games) - short
    if extra <= 0:
        raise SeedProgramError(
            f"the seed program's run of {2 * games} games cost no more CPU than its run of "
            f"{games} ({extra:+.3f} s): its CPU time per game cannot be read"
        )
    return games / extra


#: The Python that runs the seed programs when set (they need numpy, pygame, seaborn, mesa…).
SEED_PYTHON_ENV = "EPIGAMES_SEED_PYTHON"


def seed_python() -> str:
    """The Python for the seed programs: `EPIGAMES_SEED_PYTHON`, else this one."""
    return os.environ.get(SEED_PYTHON_ENV) or sys.executable


@dataclass(frozen=True, slots=True)
class SideBySide:
    """One workload run alternately by ours and by a seed program, in one command.

    Attributes:
        label: the workload.
        ours: our games/s per run (wall clock around the loop of games).
        theirs: the seed program's printed games/s per run.
        goal: the ratio the issue asks for.
        before: the ratio ours / theirs on this workload before issue 15's work (a
            recorded constant, measured side by side the same way on the project's
            machine: a ratio, so it holds under another load), 0 when none was recorded.
    """

    label: str
    ours: tuple[float, ...]
    theirs: tuple[float, ...]
    goal: float
    before: float = 0.0

    @property
    def ours_median(self) -> float:
        """The median of our runs, games/s."""
        return statistics.median(self.ours)

    @property
    def theirs_median(self) -> float:
        """The median of the seed program's runs, games/s."""
        return statistics.median(self.theirs)

    @property
    def ratio(self) -> float:
        """Median of ours over median of theirs."""
        return self.ours_median / self.theirs_median


@dataclass(slots=True)
class Report:
    """What a benchmark's `run` measured (the tests read it; nothing asserts on its times).

    Attributes:
        rates: `(label, games/s)` of its first table, CPU time.
        side: the runs beside the seed programs (empty when they were not given).
        floors: per side-by-side workload, its games replayed with no thinking
            (`bench.floor`; empty when the seed programs were not given).
    """

    rates: list[tuple[str, float]] = field(default_factory=list)
    side: list[SideBySide] = field(default_factory=list)
    floors: list[Floor] = field(default_factory=list)


def wall_rate(play: Callable[[int], object], games: int) -> float:
    """Games/s of `play(seed)` for seeds 0..games-1 on the wall clock, as the seed
    programs time theirs (a first game, untimed, keeps first-use costs out)."""
    play(10**6)
    start = time.perf_counter()
    for seed in range(games):
        play(seed)
    return games / (time.perf_counter() - start)


def side_by_side(
    label: str,
    ours: Callable[[], float],
    theirs: Callable[[int], float],
    rounds: int,
    goal: float,
    before: float = 0.0,
) -> SideBySide:
    """Run `ours()` and `theirs(seed)` alternately `rounds` times (seeds 1..rounds)."""
    mine: list[float] = []
    seeds: list[float] = []
    for r in range(rounds):
        mine.append(ours())
        seeds.append(theirs(r + 1))
    return SideBySide(label, tuple(mine), tuple(seeds), goal, before)


def print_side_by_side(console: Console, title: str, rows: Sequence[SideBySide]) -> None:
    """The table of side-by-side runs with their medians, ratios and goals, and the load."""
    table = Table(title=title, title_justify="left")
    columns = ("workload", "ours games/s", "seed program games/s", "ratio", "goal", "× before")
    for column in columns:
        table.add_column(column, justify="left" if column == "workload" else "right")
    for row in rows:
        table.add_row(
            row.label,
            _rates(row.ours),
            _rates(row.theirs),
            f"{row.ratio:.1f}×",
            f"≥ {row.goal:.0f}× {'met' if row.ratio >= row.goal else 'missed'}",
            f"{row.ratio / row.before:.2f}" if row.before else "",
        )
    console.print(table)
    console.print(
        "Rates per run, median in brackets; both sides timed on the wall clock around the "
        f"loop of games (imports excluded), alternating, in this command{load_note()}. "
        "× before: the ratio over the same ratio measured before issue 15's work."
    )


def _rates(rates: Sequence[float]) -> str:
    return f"{', '.join(f'{x:,.1f}' for x in rates)} [{statistics.median(rates):,.1f}]"


def load_note() -> str:
    """'; load average …' for a note on timings, or '' where the system has none."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return ""
    return f"; load average {one:.2f} (1 min), {five:.2f} (5 min)"
