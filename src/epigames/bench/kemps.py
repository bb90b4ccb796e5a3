"""Kemps: games per second on one core, exact knowledge for all seats, vs the 2023 program.

Plays whole 52-card games with `play_match` (events, views, thoughts and transcript
included): `greedy` at every seat (it reads no knowledge: the baseline of the ratios;
`random` players rarely finish a game before the turn cap), two `blocking2023` players
and a `greedy` one (the 2023 program's own knowledge base, its "kbblocking" experiment),
the same with `blocking` on exact knowledge, and that line-up with every seat's exact
knowledge solved after every move (what it costs to keep all three seats' knowledge, as
the 2023 program updates all three knowledge bases). Times in the first table are CPU
seconds of this process.

Given the folder of seed programs (`--seed-programs DIR` or `EPIGAMES_SEED_PROGRAMS`), the
2023 program is run from `DIR/kemps-2023/run.py` in a subprocess (with the Python in
`EPIGAMES_SEED_PYTHON`, which needs pygame, else this one) for its `greedy` and
`kbblocking` configurations, alternating with ours; both sides are timed on the wall clock
around the loop of games, and each ratio is ours over theirs.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from epigames.bench.floor import Floor, floor, print_floors
from epigames.bench.seeds import SeedProgramError as SeedProgramError, find_harness, printed_rate
from epigames.games import Match, MatchResult, play_match

GAME = "kemps"
EXACT_ALL = ("blocking", "blocking", "greedy")
CONFIGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("greedy ×3: no knowledge (baseline)", ("greedy",) * 3),
    (
        "blocking2023 ×2 + greedy: the 2023 knowledge base",
        ("blocking2023", "blocking2023", "greedy"),
    ),
    ("blocking ×2 + greedy: exact knowledge", EXACT_ALL),
)
#: The 2023 program's configurations run beside ours, with the line-up that plays its game.
SIDE_BY_SIDE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("greedy", ("greedy",) * 3),
    ("kbblocking", EXACT_ALL),
)
#: What the issue asks of ours against the 2023 program, run side by side.
GOAL = 10.0
SEED_PROGRAM = Path("kemps-2023") / "run.py"
SEED_PYTHON_ENV = "EPIGAMES_SEED_PYTHON"


@dataclass(slots=True)
class Report:
    """What `run` measured (the tests read it; nothing asserts on its times).

    Attributes:
        games: games per configuration (and per side-by-side run).
        rates: `(label, games/s)` of the first table, CPU time.
        side: per 2023 configuration, `(ours, theirs)` games/s on the wall clock.
        floors: per 2023 configuration, its games replayed with no thinking (`bench.floor`).
    """

    games: int
    rates: list[tuple[str, float]] = field(default_factory=list)
    side: dict[str, tuple[float, float]] = field(default_factory=dict)
    floors: list[Floor] = field(default_factory=list)


def seed_program(folder: Path) -> Path:
    """The 2023 program's harness in the folder of seed programs.

    Raises:
        SeedProgramError: no such harness.
    """
    return find_harness(folder, SEED_PROGRAM, "2023 Kemps program")


def seed_program_rate(harness: Path, games: int, config: str) -> float:
    """Run the 2023 program for `games` games of `config`; the games/s it prints.

    Raises:
        SeedProgramError: it fails, or prints no `N games in Ts = R games/s` for N games.
    """
    python = os.environ.get(SEED_PYTHON_ENV) or sys.executable
    command = [python, str(harness), str(games), "--config", config]
    example = f"kemps-2023 [greedy]: {games} games in 1.6s = 180.9 games/s"
    hint = f"; it needs pygame: set {SEED_PYTHON_ENV} to a Python that has it"
    return printed_rate(command, harness, "2023 program", games, "games", example, hint)


def _timed(clock: Callable[[], float], play: Callable[[int], object], games: int) -> float:
    play(10**6)  # first-use costs stay out of the timing, as in theirs
    start = clock()
    for seed in range(games):
        play(seed)
    return games / (clock() - start)


def _player(players: tuple[str, ...]) -> Callable[[int], MatchResult]:
    return lambda seed: play_match(GAME, players, seed)


def play_knowing_all(seed: int) -> None:
    """The exact-knowledge line-up, solving every seat's knowledge after every move."""
    match = Match(GAME, EXACT_ALL, seed)
    state = match.state
    while not match.over:
        match.step()
        if not match.over and state.observation(0).log:
            for seat in range(3):
                state.observation(seat).knowledge.possible_masks()  # type: ignore[attr-defined]


def run(console: Console, quick: bool = False, seed_programs: Path | None = None) -> Report:
    """Print the tables; with `seed_programs`, run the 2023 program beside ours."""
    harness = None if seed_programs is None else seed_program(seed_programs)  # fail fast
    games = 10 if quick else 200
    report = Report(games)
    clock = time.process_time
    for label, players in CONFIGS:
        report.rates.append((label, _timed(clock, _player(players), games)))
    report.rates.append(
        (
            "blocking ×2 + greedy, all seats' knowledge after each move",
            _timed(clock, play_knowing_all, games),
        )
    )
    table = Table(
        title=f"Kemps (52 cards), one core (CPU time), {games} games each", title_justify="left"
    )
    for column in ("configuration", "games/s", "× greedy"):
        table.add_column(column, justify="left" if column == "configuration" else "right")
    base = report.rates[0][1]
    for label, rate in report.rates:
        table.add_row(label, f"{rate:,.1f}", f"{rate / base:.2f}")
    console.print(table)
    if harness is None:
        console.print(
            "The 2023 program was not run: give --seed-programs DIR (or set "
            f"EPIGAMES_SEED_PROGRAMS) with DIR/{SEED_PROGRAM.as_posix()}."
        )
        return report
    side = Table(
        title=f"Against the 2023 program: {games} games each, wall clock", title_justify="left"
    )
    for column in ("2023 configuration", "ours (games/s)", "2023 (games/s)", "ratio"):
        side.add_column(column, justify="left" if column.startswith("2023 c") else "right")
    for config, players in SIDE_BY_SIDE:
        ours = _timed(time.perf_counter, _player(players), games)
        theirs = seed_program_rate(harness, games, config)
        report.side[config] = (ours, theirs)
        side.add_row(
            f"{config} (ours: {','.join(players)})",
            f"{ours:,.1f}",
            f"{theirs:,.1f}",
            f"{ours / theirs:.1f}×",
        )
    console.print(side)
    console.print(f"The issue asks for ≥ {GOAL:.0f}× with exact knowledge.")
    for config, players in SIDE_BY_SIDE:
        ours, theirs = report.side[config]
        label = f"{config} (ours: {','.join(players)})"
        report.floors.append(floor(label, _player(players), games, ours, theirs, GOAL))
    print_floors(console, report.floors)
    return report
