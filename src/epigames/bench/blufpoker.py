"""Blufpoker: games per second on one core, and table lookups against enumeration.

Plays whole matches with `play_match` (events, views, thoughts and transcript included)
for the all-`knowledge` configuration, a naive one from the report, `bayes` among naive
players, and all-`random` (the baseline: the cheapest strategies, so the ratio shows what
reasoning costs). A second table times P(cup ≥ bid | visible dice) by table lookup against
the straightforward computation: enumerating the 216 ordered throws every time.

Times are CPU seconds of this process (`time.process_time`), so "per core" holds even on
a busy machine.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

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


def run(console: Console, quick: bool = False) -> None:
    """Print both tables."""
    games = 200 if quick else 2000
    table = Table(title=f"Blufpoker, one core, {games} games each", title_justify="left")
    for column in ("configuration", "games/s", "moves/game", "× baseline", "× report (161/s)"):
        table.add_column(column, justify="left" if column == "configuration" else "right")
    baseline = 0.0
    for label, players in CONFIGS:
        rate, moves = games_per_second(players, games)
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
        "The report's program: 123–161 games/s (from the issue; not run here). "
        "Ratios above are against the baseline rows measured in this run."
    )
