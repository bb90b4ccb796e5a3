"""Muddy children with the explicit Kripke engine and with the symbolic engine (BDDs).

For each n, every child muddy, the benchmark builds the 2^n-world model, announces "at
least one of you is muddy" and then "nobody knows whether they are muddy" until someone
knows (n announcements in all). Each n runs in a fresh Python process, so the memory
figures are that run's own. The baselines are measured in the same run: the first n of
the table (the "× first n" column) and a naive pure-Python, set-based model checker doing
the same announcements with the same formulas (the "speed-up" column).

A second table plays the same story on knowledge structures (`epigames.logic.symbolic`)
for the explicit table's n, where it prints the ratio to the explicit engine's time from
this run, and for n = 40 and 100, far past the explicit engine's 20 variables, beside
SMCDEL's published times (reference only: another machine and language).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table

from epigames.errors import EpigamesError
from epigames.logic.formula import And, Atom, Formula, K, Kw, Not, Or
from epigames.logic.puzzles import (
    muddy_children,
    nobody_knows,
    play_muddy_children,
    someone_muddy,
    sum_and_product,
)
from epigames.logic.puzzles.muddy_children import play_symbolic_muddy_children
from epigames.logic.symbolic import Manager

SIZES = (8, 10, 12, 14)
QUICK_SIZES = (6, 8)
NAIVE_MAX = 14
"""The naive checker runs for n up to this (it is the baseline, not the subject)."""

DEMO_S5_SECONDS_N12 = 212.0
"""Published figure: DEMO-S5, the classic explicit checker, on muddy children n = 12."""

SYMBOLIC_LARGE = (40, 100)
"""The symbolic table's sizes beyond the explicit engine's (it adds the explicit table's n)."""
QUICK_SYMBOLIC_LARGE = (40,)

SMCDEL_SECONDS = {40: 0.45, 100: 14.0}
"""Published figures: SMCDEL (Haskell, BDDs) on muddy children, seconds, another machine."""

GOALS = {40: 1.0, 100: 2 * SMCDEL_SECONDS[100]}
"""Issue 16's goals on this machine: n = 40 under 1 s, n = 100 within 2x of SMCDEL's 14 s."""

SUM_AND_PRODUCT_LIMIT = 100
SUM_AND_PRODUCT_GOAL = 1.0
"""Issue 16's goal: Sum and Product at the published bound (x + y ≤ 100) under 1 s."""


@dataclass(frozen=True)
class Measurement:
    """One n of the benchmark, measured in one process.

    Attributes:
        n: number of children (all muddy).
        worlds: worlds of the initial model (2^n).
        rounds: announcements until someone knows (the father's included).
        knowers: how many children know after the last announcement (n expected).
        build_s: seconds to build the model.
        announce_s: seconds for all the announcements (and the "who knows" checks).
        traced_peak_mib: peak of memory allocated while building and announcing
            (tracemalloc, measured in a second, untimed run; numpy arrays included).
        max_rss_mib: the process's peak resident set size (interpreter and imports included).
        naive_s: seconds the naive pure-Python checker took for the same task, or None.
    """

    n: int
    worlds: int
    rounds: int
    knowers: int
    build_s: float
    announce_s: float
    traced_peak_mib: float
    max_rss_mib: float
    naive_s: float | None

    @property
    def total_s(self) -> float:
        """Build plus announcements."""
        return self.build_s + self.announce_s


def _max_rss_mib() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def measure(n: int, *, naive: bool = False) -> Measurement:
    """Measure muddy children for n children, all muddy, in this process."""
    everyone = range(1, n + 1)
    t0 = time.perf_counter()
    model = muddy_children(n, everyone)
    t1 = time.perf_counter()
    story = play_muddy_children(model)
    t2 = time.perf_counter()
    rounds = len(story.rounds)
    knowers = len(story.rounds[-1].knowers)
    del story, model

    tracemalloc.start()
    try:
        play_muddy_children(muddy_children(n, everyone))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    rss = _max_rss_mib()

    naive_s: float | None = None
    if naive:
        t3 = time.perf_counter()
        naive_rounds = naive_muddy_children(n)
        naive_s = time.perf_counter() - t3
        if naive_rounds != rounds:
            raise EpigamesError(
                f"the naive checker took {naive_rounds} rounds for n={n}, the engine {rounds}"
            )
    return Measurement(
        n=n,
        worlds=1 << n,
        rounds=rounds,
        knowers=knowers,
        build_s=t1 - t0,
        announce_s=t2 - t1,
        traced_peak_mib=peak / (1024 * 1024),
        max_rss_mib=rss,
        naive_s=naive_s,
    )


def measure_in_subprocess(n: int, *, naive: bool = False) -> Measurement:
    """`measure(n)` in a fresh Python process, so its peak memory is its own."""
    src = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH", "")) if p)
    code = (
        "import json, dataclasses\n"
        "from epigames.bench.logic import measure\n"
        f"print(json.dumps(dataclasses.asdict(measure({n}, naive={naive}))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise EpigamesError(f"the benchmark process for n={n} failed:\n{done.stderr.strip()}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return Measurement(**data)


# --- the naive baseline --------------------------------------------------------------------


class NaiveModel:
    """A deliberately plain explicit S5 checker: worlds and blocks as Python sets.

    Each agent maps every world to its block (a frozenset of worlds); `K_a φ` holds at w
    when w's block is a subset of φ's truth set; an announcement keeps the worlds where
    the formula is true and intersects every block with them. Only the connectives used
    by the benchmark (atoms, ¬, ∧, ∨, K, Kw) are supported.
    """

    def __init__(
        self,
        worlds: frozenset[int],
        valuation: dict[str, frozenset[int]],
        blocks: dict[str, dict[int, frozenset[int]]],
    ) -> None:
        self.worlds = worlds
        self.valuation = valuation
        self.blocks = blocks

    @classmethod
    def from_keys(
        cls,
        worlds: frozenset[int],
        valuation: dict[str, frozenset[int]],
        keys: dict[str, Callable[[int], object]],
    ) -> NaiveModel:
        """Agents' blocks from a key per world (equal keys: indistinguishable)."""
        blocks: dict[str, dict[int, frozenset[int]]] = {}
        for agent, key in keys.items():
            groups: dict[object, set[int]] = {}
            for w in worlds:
                groups.setdefault(key(w), set()).add(w)
            frozen = {k: frozenset(v) for k, v in groups.items()}
            blocks[agent] = {w: frozen[key(w)] for w in worlds}
        return cls(worlds, valuation, blocks)

    def truth(self, f: Formula) -> frozenset[int]:
        """The worlds where the formula holds."""
        if isinstance(f, Atom):
            return self.valuation.get(f.name, frozenset()) & self.worlds
        if isinstance(f, Not):
            return self.worlds - self.truth(f.arg)
        if isinstance(f, And):
            out = self.worlds
            for a in f.args:
                out = out & self.truth(a)
            return out
        if isinstance(f, Or):
            acc: frozenset[int] = frozenset()
            for a in f.args:
                acc = acc | self.truth(a)
            return acc
        if isinstance(f, K):
            inner = self.truth(f.arg)
            block = self.blocks[f.agent]
            return frozenset(w for w in self.worlds if block[w] <= inner)
        if isinstance(f, Kw):
            inner = self.truth(f.arg)
            outer = self.worlds - inner
            block = self.blocks[f.agent]
            return frozenset(w for w in self.worlds if block[w] <= inner or block[w] <= outer)
        raise TypeError(f"the naive checker does not support {f!r}")

    def announce(self, f: Formula) -> NaiveModel:
        """Keep the worlds where the formula holds."""
        keep = self.truth(f)
        blocks = {agent: {w: block[w] & keep for w in keep} for agent, block in self.blocks.items()}
        return NaiveModel(keep, self.valuation, blocks)


def _without_bit(bit: int) -> Callable[[int], object]:
    mask = ~(1 << bit)

    def key(w: int) -> object:
        return w & mask

    return key


def naive_muddy_children(n: int) -> int:
    """The benchmark's task with `NaiveModel`: the number of announcements until someone knows."""
    worlds = frozenset(range(1 << n))
    valuation = {f"m{i}": frozenset(w for w in worlds if w >> (i - 1) & 1) for i in range(1, n + 1)}
    keys = {str(i): _without_bit(i - 1) for i in range(1, n + 1)}
    model = NaiveModel.from_keys(worlds, valuation, keys)
    actual = (1 << n) - 1
    announcement = someone_muddy(n)
    rounds = 0
    while True:
        model = model.announce(announcement)
        rounds += 1
        if any(actual in model.truth(Kw(str(i), Atom(f"m{i}"))) for i in range(1, n + 1)):
            return rounds
        announcement = nobody_knows(n)


# --- the symbolic engine --------------------------------------------------------------------


@dataclass(frozen=True)
class SymbolicMeasurement:
    """One n of the symbolic table, measured in this process.

    Attributes:
        n: number of children (all muddy).
        rounds: announcements until someone knows (n expected).
        knowers: how many children know after the last announcement (n expected).
        states: states left after the father's announcement (2^n - 1).
        seconds: building the structure plus all announcements and "who knows" checks.
        backend: the BDD package (dd.cudd or dd.autoref).
    """

    n: int
    rounds: int
    knowers: int
    states: int
    seconds: float
    backend: str


def measure_symbolic(n: int, *, backend: str | None = None) -> SymbolicMeasurement:
    """Play muddy children on a knowledge structure, every child muddy, and time it."""
    # Load the BDD package before the clock starts: importing dd is not the engine's work.
    chosen = Manager(backend).backend
    t0 = time.perf_counter()
    story = play_symbolic_muddy_children(n, range(1, n + 1), backend=chosen)
    seconds = time.perf_counter() - t0
    return SymbolicMeasurement(
        n=n,
        rounds=len(story.rounds),
        knowers=len(story.rounds[-1].knowers),
        states=story.rounds[0].worlds,
        seconds=seconds,
        backend=chosen,
    )


def _seconds(s: float) -> str:
    return f"{s:.3f}" if s < 10 else f"{s:.1f}"


def symbolic_table(
    console: Console, explicit: list[Measurement], large: tuple[int, ...]
) -> list[SymbolicMeasurement]:
    """Measure and print the symbolic table: the explicit table's n, then `large`."""
    by_n = {m.n: m for m in explicit}
    results = [measure_symbolic(n) for n in (*by_n, *large)]
    table = Table(
        title=f"Muddy children, all muddy: symbolic engine ({results[0].backend}), this process",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        pad_edge=False,
        show_edge=False,
    )
    headers = ("n", "states", "rounds", "symbolic\ns", "explicit\ns", "explicit\n/ symb.",
               "SMCDEL\ns (pub.)", "goal\ns", "met")  # fmt: skip
    for col in headers:
        table.add_column(col, justify="right", no_wrap=True)
    for r in results:
        base = by_n.get(r.n)
        goal = GOALS.get(r.n)
        table.add_row(
            str(r.n),
            f"{r.states:.3g}" if r.n > 20 else f"{r.states:,}",
            str(r.rounds),
            _seconds(r.seconds),
            "-" if base is None else _seconds(base.total_s),
            "-" if base is None or r.seconds <= 0 else f"{base.total_s / r.seconds:.1f}×",
            f"{SMCDEL_SECONDS[r.n]:g}" if r.n in SMCDEL_SECONDS else "-",
            "-" if goal is None else f"< {goal:g}",
            "-" if goal is None else ("yes" if r.seconds < goal else "NO"),
        )
    console.print(table)
    console.print(
        "states: after the father's announcement; symbolic: build + all announcements + "
        "who-knows checks; explicit: the first table's total for the same n (no explicit "
        "run past 20 variables). SMCDEL's times are published figures (Haskell, another "
        "machine), not measured here; the goals are issue 16's."
    )
    return results


def sum_and_product_line(console: Console) -> tuple[float, tuple[int, int]]:
    """Time Sum and Product at the published bound and print one line; (seconds, answer)."""
    t0 = time.perf_counter()
    answer = sum_and_product(SUM_AND_PRODUCT_LIMIT).answer
    seconds = time.perf_counter() - t0
    met = "yes" if seconds < SUM_AND_PRODUCT_GOAL else "NO"
    console.print(
        f"Sum and Product, x + y ≤ {SUM_AND_PRODUCT_LIMIT} (explicit engine, 2,352 worlds): "
        f"{seconds:.3f} s, answer {answer}; goal < {SUM_AND_PRODUCT_GOAL:g} s: {met}"
    )
    return seconds, answer


def _ms(seconds: float) -> str:
    ms = 1000 * seconds
    return f"{ms:.1f}" if ms < 100 else f"{ms:.0f}"


# --- the command ------------------------------------------------------------------------------


def run(
    console: Console, quick: bool = False, *, fresh_process: bool = True, symbolic: bool = True
) -> list[Measurement]:
    """Run the benchmark and print its tables; returns the explicit engine's measurements.

    Args:
        console: where the tables go.
        quick: n = 6, 8 instead of 8, 10, 12, 14 (and the symbolic table to n = 40 only).
        fresh_process: measure each n in its own Python process (honest peak memory).
        symbolic: also print the symbolic engine's table (needs the package dd).
    """
    sizes = QUICK_SIZES if quick else SIZES
    results: list[Measurement] = []
    for n in sizes:
        naive = n <= NAIVE_MAX
        results.append(
            measure_in_subprocess(n, naive=naive) if fresh_process else measure(n, naive=naive)
        )
    base = results[0]
    table = Table(
        title="Muddy children, all muddy: explicit engine, each n in a fresh process",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        pad_edge=False,
        show_edge=False,
    )
    headers = ("n", "worlds", "rounds", "build\nms", "ann.\nms", "total\nms", "peak\nMiB",
               "RSS\nMiB", f"×\nn={base.n}", "naive\nms", "speed\nup")  # fmt: skip
    for col in headers:
        table.add_column(
            col, justify="right", no_wrap=True, min_width=len(max(col.split(), key=len))
        )
    for r in results:
        table.add_row(
            str(r.n),
            f"{r.worlds:,}",
            str(r.rounds),
            _ms(r.build_s),
            _ms(r.announce_s),
            _ms(r.total_s),
            f"{r.traced_peak_mib:.1f}",
            f"{r.max_rss_mib:.0f}",
            f"{r.total_s / base.total_s:.1f}" if base.total_s > 0 else "-",
            "-" if r.naive_s is None else _ms(r.naive_s),
            "-" if r.naive_s is None or r.total_s <= 0 else f"{r.naive_s / r.total_s:.1f}×",
        )
    console.print(table)
    console.print(
        "rounds: announcements until the children know (the father's plus n − 1 "
        '"nobody knows"); peak MiB: tracemalloc peak of build + announcements; '
        "max RSS: the whole process; naive: a pure-Python set-based checker, same formulas, "
        "same process."
    )
    console.print(
        f"Published reference (not measured here): DEMO-S5 needed {DEMO_S5_SECONDS_N12:.0f} s "
        "for n = 12."
    )
    twelve = next((r for r in results if r.n == 12), None)
    if twelve is not None:
        console.print(
            f"n = 12 here: {twelve.total_s:.4f} s "
            f"({DEMO_S5_SECONDS_N12 / max(twelve.total_s, 1e-9):,.0f}× under the published "
            "figure, different machine)."
        )
    if symbolic:
        symbolic_table(console, results, QUICK_SYMBOLIC_LARGE if quick else SYMBOLIC_LARGE)
    sum_and_product_line(console)
    return results
