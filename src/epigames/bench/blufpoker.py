"""Blufpoker: games per second on one core, and table lookups against enumeration.

Plays whole matches with `play_match` (events, views, thoughts and transcript included)
for the all-`knowledge` configuration, a naive one from the report, `bayes` among naive
players, and all-`random` (the baseline: the cheapest strategies, so the ratio shows what
reasoning costs). A second table times P(cup ≥ bid | visible dice) by table lookup against
the straightforward computation: enumerating the 216 ordered throws every time.

Times are CPU seconds of this process (`time.process_time`), so "per core" holds even on
a busy machine. Given the folder of seed programs (`--seed-programs DIR` or
`EPIGAMES_SEED_PROGRAMS`), the report's program (`DIR/blufpoker-2020/run.py`, which needs
seaborn and tkinter: set `EPIGAMES_SEED_PYTHON` to a Python that has them) runs in a
subprocess for its configurations 1 (knowledge at every seat) and 2 (random/truthful/random,
greedy/overbid/believe, knowledge), in rounds alternating with ours and with our games
replayed without thinking (`bench.seeds.side_by_side`); each ratio is of medians, in CPU
time (the goals) and on the wall clock.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.table import Table

from epigames.bench import seeds
from epigames.bench.seeds import Report, SeedProgramError as SeedProgramError
from epigames.games import play_match
from epigames.games.blufpoker.dice import RANK_OF, SORTED
from epigames.games.blufpoker.tables import P_AT_LEAST, PATTERNS, poker_odds

CONFIGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("all random (baseline)", ("random", "random", "random")),
    ("all knowledge", ("knowledge", "knowledge", "knowledge")),
    ("naive + knowledge", ("random/truthful/random", "greedy/overbid/believe", "knowledge")),
    ("naive + bayes", ("knowledge", "greedy/truthful/believe", "bayes")),
)
REPORT_GAMES_PER_S = (123, 161)
"""The report's program, measured on this project's machines (from the issue)."""
SEED_PROGRAM = Path("blufpoker-2020") / "run.py"
#: The report's configurations run beside ours: (name, our line-up, the harness's options).
SIDE_BY_SIDE: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("configuration 1", ("knowledge",) * 3, ("--p1", "knowledge", "--p2", "knowledge")),
    ("configuration 2", CONFIGS[2][1], ()),
)
LABELS = {"configuration 1": "knowledge ×3", "configuration 2": "naive ×2 + knowledge"}
#: What issue 36 asks of ours against the report's program (CPU time), per configuration.
GOAL = {"configuration 1": 20.0, "configuration 2": 12.0}
#: What it asks of the games replayed through the rules alone.
RULES_GOAL = 50.0
#: Ours / the 2020 program before issue 15's work (commit 981e02c), side by side as here
#: (median of 3, load average 1.3 to 1.9; docs/architecture.md), per configuration.
BEFORE = {"configuration 1": 2.72, "configuration 2": 2.19}


def games_per_second(players: tuple[str, ...], games: int) -> tuple[float, float]:
    """Games/s and mean moves per game over `games` matches (seeds 0..games-1)."""
    for face in range(1, 7):  # the exact poker-phase odds are computed once, on first use
        poker_odds(face)
    play_match("blufpoker", players, 10**6)  # warm caches (e.g. bayes's planner) untimed
    start = time.process_time()
    moves = 0
    for seed in range(games):
        moves += play_match("blufpoker", players, seed).moves
    return games / (time.process_time() - start), moves / games


def program_at(harness: Path, options: tuple[str, ...]) -> seeds.SeedProgram:
    """The report's program at `harness`, its players given by `options`."""
    return seeds.SeedProgram(
        harness,
        "2020 Blufpoker program",
        "games",
        "blufpoker-2020 [knowledge | knowledge | knowledge]: {n} games in 9.1s = 137 games/s",
        "; it needs seaborn and tkinter: set EPIGAMES_SEED_PYTHON to a Python with them",
        options,
    )


def enumerate_at_least(visible: tuple[int, ...], rank: int) -> float:
    """P(cup ≥ rank | visible) the straightforward way: every ordered throw of the rest."""
    hidden = 3 - len(visible)
    hits = total = 0
    for throw in itertools.product(range(1, 7), repeat=hidden):
        total += 1
        hits += RANK_OF[SORTED[visible + throw]] >= rank
    return hits / total


def _time(fn: Callable[[tuple[int, ...], int], float], repeat: int) -> float:
    queries = [(v, r) for v in PATTERNS if len(v) < 3 for r in range(0, 56, 5)]
    start = time.process_time()
    for _ in range(repeat):
        for v, r in queries:
            fn(v, r)
    return (time.process_time() - start) / (repeat * len(queries))


def run(console: Console, quick: bool = False, seed_programs: Path | None = None) -> Report:
    """Print the tables; with `seed_programs`, run the report's program beside ours."""
    harness = (
        None
        if seed_programs is None
        else seeds.find_harness(seed_programs, SEED_PROGRAM, "2020 Blufpoker program")
    )
    report = Report()
    games = 200 if quick else 2000
    table = Table(title=f"Blufpoker, one core, {games} games each", title_justify="left")
    for column in ("configuration", "games/s", "moves/game", "× baseline", "× report (161/s)"):
        table.add_column(column, justify="left" if column == "configuration" else "right")
    baseline = 0.0
    for label, players in CONFIGS:
        rate, moves = games_per_second(players, games)
        report.rates.append((label, rate))
        baseline = baseline or rate
        table.add_row(
            f"{label}: {','.join(players)}",
            f"{rate:,.0f}",
            f"{moves:.1f}",
            f"{rate / baseline:.2f}",
            f"{rate / REPORT_GAMES_PER_S[1]:.1f}",
        )
    console.print(table)
    repeat = 3 if quick else 20
    lookup = _time(lambda v, r: P_AT_LEAST[v][r], repeat)
    naive = _time(enumerate_at_least, max(1, repeat // 4))
    probs = Table(title="P(cup ≥ bid | visible dice), per query", title_justify="left")
    for column in ("method", "µs/query", "speed-up"):
        probs.add_column(column, justify="left" if column == "method" else "right")
    probs.add_row("enumerate 216 throws (baseline)", f"{naive * 1e6:.2f}", "1")
    probs.add_row("precomputed table", f"{lookup * 1e6:.3f}", f"{naive / lookup:,.0f}")
    console.print(probs)
    console.print(
        "× report: against 161 games/s, the report's program on the issue author's machine. "
        "Other ratios are against the baseline rows measured in this run."
    )
    if harness is None:
        console.print(
            "The report's program was not run: give --seed-programs DIR (or set "
            f"EPIGAMES_SEED_PROGRAMS) with DIR/{SEED_PROGRAM.as_posix()}."
        )
        return report
    rounds, ours_n, theirs_n = (1, 30, 10) if quick else (3, 3000, 1000)
    for name, players, options in SIDE_BY_SIDE:
        report.side.append(
            seeds.side_by_side(
                f"{name} ({LABELS[name]})",
                partial(play_match, "blufpoker", players),
                partial(seeds.seed_speed, program_at(harness, options), theirs_n),
                ours_n,
                rounds,
                GOAL[name],
                RULES_GOAL,
                BEFORE[name],
            )
        )
    seeds.print_side_by_side(
        console,
        f"Against the report's program: {rounds} round(s), ours {ours_n} games a round, "
        f"theirs {theirs_n}",
        report.side,
    )
    return report
