"""The seed programs' headless harnesses, run beside ours in alternating rounds.

Each harness lies at a fixed place in the folder of seed programs (`--seed-programs DIR`
or `EPIGAMES_SEED_PROGRAMS`), runs N games in its own folder and prints a line such as
`klaverjas-2017: 600 hands in 6.083s = 98.64 games/s`.

Every rate is taken on two clocks, and every ratio divides medians of the same rounds:

- CPU time (the goals are checked on it: other load on the machine hardly moves it).
  Ours: `time.process_time` around our loop of games. A seed program's: the CPU (user +
  system) of its whole subprocess, from `getrusage(RUSAGE_CHILDREN)` before and after,
  less that of a run of one game with the same seed made just before it. Both runs start
  the interpreter, import the program and play the same first game, so what remains is
  the CPU of games 2..N alone.
- Wall clock. Ours: `time.perf_counter` around the same loop. A seed program's: the rate
  it prints, its own timing around its loop of games (imports excluded).

A round runs the seed program, then ours, then ours replayed without thinking through a
match and through the rules alone (`bench.floor`), so each floor's ratio divides rates
taken at the same load.
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
from typing import Literal, TypeVar

from rich.console import Console
from rich.table import Table

from epigames.bench import floor
from epigames.errors import InputError
from epigames.games import MatchResult

_TIMEOUT_S = 1800
T = TypeVar("T")
#: Which clock a rate or a ratio is read on.
Clock = Literal["cpu", "wall"]
CLOCKS: tuple[Clock, ...] = ("cpu", "wall")
CLOCK_NAMES: dict[Clock, str] = {"cpu": "CPU time", "wall": "wall clock"}


class SeedProgramError(InputError):
    """A seed program cannot be found or run, or its output cannot be read."""


@dataclass(frozen=True, slots=True)
class Speed:
    """Games per second of one run, in CPU time and on the wall clock."""

    cpu: float
    wall: float

    def on(self, clock: Clock) -> float:
        """The rate on `clock`."""
        return self.cpu if clock == "cpu" else self.wall


def median(runs: Sequence[Speed], clock: Clock) -> float:
    """The median rate of `runs` on `clock`."""
    return statistics.median(run.on(clock) for run in runs)


def speed(step: Callable[[T], object], items: Sequence[T]) -> Speed:
    """Items per second of `step(item)` over `items`: both clocks around one loop."""
    cpu, wall = time.process_time(), time.perf_counter()
    for item in items:
        step(item)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return Speed(len(items) / cpu, len(items) / wall)


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


#: The Python that runs the seed programs when set (they need numpy, pygame, seaborn, mesa…).
SEED_PYTHON_ENV = "EPIGAMES_SEED_PYTHON"


def seed_python() -> str:
    """The Python for the seed programs: `EPIGAMES_SEED_PYTHON`, else this one."""
    return os.environ.get(SEED_PYTHON_ENV) or sys.executable


@dataclass(frozen=True, slots=True)
class SeedProgram:
    """A seed program's harness and how to run it: `run.py N --seed S [options]`.

    Attributes:
        harness: its `run.py`.
        name: the program's name for messages, e.g. `2020 Blufpoker program`.
        unit: what its line counts, e.g. `games` or `hands`.
        example: a line it prints for N games, `{n}` standing for N (for messages).
        hint: what the message of a failed run adds, e.g. what the program needs.
        options: its arguments after the seed, e.g. a configuration.
    """

    harness: Path
    name: str
    unit: str
    example: str
    hint: str = ""
    options: tuple[str, ...] = ()

    def command(self, games: int, seed: int) -> list[str]:
        """The command line that plays `games` games from `seed`, with `seed_python()`."""
        return [seed_python(), str(self.harness), str(games), "--seed", str(seed), *self.options]


def _children_cpu() -> float:
    """CPU seconds (user + system) of this process's finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_harness(program: SeedProgram, games: int, seed: int) -> tuple[float, float]:
    """Run `program` for `games` games; the rate it prints and its subprocess's CPU seconds.

    Raises:
        SeedProgramError: it fails, or prints no `N <unit> in Ts = R games/s` for N games.
    """
    harness = program.harness
    before = _children_cpu()
    try:
        done = subprocess.run(
            program.command(games, seed),
            cwd=harness.parent,
            capture_output=True,
            text=True,
            timeout=_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SeedProgramError(f"the {program.name} {harness} did not run: {exc}") from None
    cpu = _children_cpu() - before
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SeedProgramError(
            f"the {program.name} {harness} failed (exit status {done.returncode}): "
            f"{last}{program.hint}"
        )
    output = done.stdout.strip()
    found = re.search(rf"(\d+) {program.unit} in ([0-9.]+)s = ([0-9.]+) games/s", output)
    if found is None or int(found.group(1)) != games:
        first = (output.splitlines() or [""])[0]
        raise SeedProgramError(
            f"cannot read the speed of {games} {program.unit} from the {program.name}'s "
            f"output {first[:120]!r}; expected e.g. {program.example.format(n=games)!r}"
        )
    return float(found.group(3)), cpu


def seed_speed(program: SeedProgram, games: int, seed: int) -> Speed:
    """The seed program's speed over `games` games from `seed` (at least 2).

    CPU time: its run of `games` games less its run of 1 game with the same seed, made
    just before (start-up, imports and the first game cancel): `games - 1` games over the
    difference. Wall clock: the rate the run of `games` games prints.

    Raises:
        SeedProgramError: a run fails or prints no rate, or the longer run cost no more
            CPU than the one-game run.
    """
    if games < 2:
        raise ValueError(f"a seed program's speed needs at least 2 games, not {games}")
    _, one = run_harness(program, 1, seed)
    printed, cpu = run_harness(program, games, seed)
    if cpu <= one:
        raise SeedProgramError(
            f"the {program.name}'s run of {games} {program.unit} cost no more CPU than its "
            f"run of 1 ({cpu - one:+.3f} s): its CPU time per game cannot be read"
        )
    return Speed((games - 1) / (cpu - one), printed)


@dataclass(frozen=True, slots=True)
class SideBySide:
    """One workload run by ours and by a seed program in alternating rounds, one command.

    Attributes:
        label: the workload.
        ours: our speed per round (a loop of games, a first game untimed).
        theirs: the seed program's speed per round (`seed_speed`).
        replayed: per round, our games replayed through a match, views built, no thinking.
        rules: per round, our games replayed through the rules alone.
        goal: the CPU-time ratio ours / theirs the issue asks for.
        rules_goal: the CPU-time ratio rules alone / theirs the issue asks for, 0 if none.
        before: the ratio ours / theirs on this workload before issue 15's work (a
            recorded constant, measured side by side on the wall clock on the project's
            machine: a ratio, so it holds under another load), 0 when none was recorded.
    """

    label: str
    ours: tuple[Speed, ...]
    theirs: tuple[Speed, ...]
    replayed: tuple[Speed, ...]
    rules: tuple[Speed, ...]
    goal: float
    rules_goal: float = 0.0
    before: float = 0.0

    def over_theirs(self, runs: Sequence[Speed], clock: Clock) -> float:
        """The median of `runs` (from these rounds) over the seed program's, on `clock`."""
        return median(runs, clock) / median(self.theirs, clock)

    def ratio(self, clock: Clock = "cpu") -> float:
        """Median of ours over median of theirs on `clock`."""
        return self.over_theirs(self.ours, clock)

    @property
    def met(self) -> bool:
        """Whether the CPU-time ratio reaches the goal."""
        return self.ratio("cpu") >= self.goal


@dataclass(slots=True)
class Report:
    """What a benchmark's `run` measured (the tests read it; nothing asserts on its times).

    Attributes:
        rates: `(label, games/s)` of its first table, CPU time.
        side: the workloads run beside the seed programs (empty when not given).
    """

    rates: list[tuple[str, float]] = field(default_factory=list)
    side: list[SideBySide] = field(default_factory=list)


def side_by_side(
    label: str,
    play: Callable[[int], MatchResult],
    theirs: Callable[[int], Speed],
    games: int,
    rounds: int,
    goal: float,
    rules_goal: float = 0.0,
    before: float = 0.0,
) -> SideBySide:
    """Time `theirs(seed)`, ours, and ours replayed twice, in `rounds` rounds (seeds 1..).

    Ours is `play(seed)` for seeds 0..games-1. Those games are played once first, untimed
    (first-use costs stay out, as in a seed program's own timing); the replays replay them.

    Raises:
        ReplayMismatchError: a replay ended otherwise than the game it replays.
    """
    results = [play(seed) for seed in range(games)]
    through_match = floor.checked(floor.replay_through_match)
    by_rules = floor.checked(floor.replay_rules)
    through_match(results[0])
    by_rules(results[0])
    seed_runs: list[Speed] = []
    ours: list[Speed] = []
    replayed: list[Speed] = []
    rules: list[Speed] = []
    for r in range(rounds):
        seed_runs.append(theirs(r + 1))
        ours.append(speed(play, range(games)))
        replayed.append(speed(through_match, results))
        rules.append(speed(by_rules, results))
    return SideBySide(
        label,
        tuple(ours),
        tuple(seed_runs),
        tuple(replayed),
        tuple(rules),
        goal,
        rules_goal,
        before,
    )


def print_side_by_side(
    console: Console, title: str, rows: Sequence[SideBySide], unit: str = "games"
) -> None:
    """The table of the rounds beside the seed program, then the table of the floors."""
    table = Table(title=title, title_justify="left")
    columns = (
        "workload",
        "clock",
        f"ours {unit}/s",
        f"seed program {unit}/s",
        "ratio",
        "goal (CPU)",
        "× before",
    )
    for column in columns:
        table.add_column(column, justify="left" if column in columns[:2] else "right")
    for row in rows:
        for clock in CLOCKS:
            cpu = clock == "cpu"
            table.add_row(
                row.label if cpu else "",
                CLOCK_NAMES[clock],
                _rates(row.ours, clock),
                _rates(row.theirs, clock),
                f"{row.ratio(clock):.1f}×",
                f"≥ {row.goal:.0f}× {'met' if row.met else 'missed'}" if cpu else "",
                f"{row.ratio(clock) / row.before:.2f}" if row.before and not cpu else "",
            )
    console.print(table)
    console.print(
        f"Rates per round, median in brackets; rounds alternate seed program, ours and the "
        f"replays below, in this command{load_note()}. CPU time: ours process_time around "
        "our loop (a first game untimed); the seed program's is its subprocess's user + "
        "system CPU (getrusage of children) less that of a 1-game run with the same seed "
        "just before, so start-up, imports and the first game cancel: games 2..N over the "
        "difference. Wall clock: ours perf_counter around the same loop; theirs the rate it "
        "prints (its own timer around its loop, imports excluded). Ratio: median over "
        "median. × before: the wall-clock ratio over the one recorded before issue 15's work."
    )
    print_floors(console, rows, unit)


def print_floors(console: Console, rows: Sequence[SideBySide], unit: str = "games") -> None:
    """The table of replay rates (medians) and the ratios they allow against the seed program."""
    table = Table(
        title=f"What the rules allow: the same games replayed, no agent thinking ({unit}/s, "
        "medians of the same rounds: through a match, views built; through the rules alone)",
        title_justify="left",
    )
    columns = (
        "workload",
        "clock",
        "ours",
        "replayed: match",
        "replayed: rules",
        "seed program",
        "ratio: ours / match / rules",
        "goal (CPU)",
    )
    for column in columns:
        table.add_column(column, justify="left" if column in columns[:2] else "right")
    for row in rows:
        for clock in CLOCKS:
            cpu = clock == "cpu"
            sides = (row.ours, row.replayed, row.rules)
            goal = f"≥ {row.goal:.0f}×"
            if row.rules_goal:
                met = row.over_theirs(row.rules, "cpu") >= row.rules_goal
                goal += f"; rules ≥ {row.rules_goal:.0f}× {'met' if met else 'missed'}"
            table.add_row(
                row.label if cpu else "",
                CLOCK_NAMES[clock],
                *(f"{median(runs, clock):,.1f}" for runs in (*sides, row.theirs)),
                " / ".join(f"{row.over_theirs(runs, clock):.1f}×" for runs in sides),
                goal if cpu else "",
            )
    console.print(table)
    console.print(
        "Each ratio divides medians taken in the same rounds. A goal above the replayed "
        "ratio needs the rules, events and views themselves faster, whatever the agents "
        "cost; above the rules-alone ratio, the rules."
    )


def _rates(runs: Sequence[Speed], clock: Clock) -> str:
    rates = ", ".join(f"{run.on(clock):,.1f}" for run in runs)
    return f"{rates} [{median(runs, clock):,.1f}]"


def load_note() -> str:
    """'; load average …' for a note on timings, or '' where the system has none."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return ""
    return f"; load average {one:.2f} (1 min), {five:.2f} (5 min)"
