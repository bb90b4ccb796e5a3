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
`kbblocking` configurations, in rounds alternating with ours and with our games replayed
without thinking (`bench.seeds.side_by_side`); each ratio is of medians, in CPU time (the
goals) and on the wall clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.table import Table

from epigames.bench.seeds import (
    SeedProgram,
    SeedProgramError as SeedProgramError,
    SideBySide,
    find_harness,
    print_side_by_side,
    seed_speed,
    side_by_side,
)
from epigames.games import Match, MatchResult, play_match

#: The 2023 program's turn cap, so that a game that stalls runs as long on both sides.
GAME = "kemps(max_turns=10000)"
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
#: What issue 36 asks of ours against the 2023 program (CPU time), per configuration.
GOAL = {"greedy": 8.0, "kbblocking": 5.0}
SEED_PROGRAM = Path("kemps-2023") / "run.py"


@dataclass(slots=True)
class Report:
    """What `run` measured (the tests read it; nothing asserts on its times).

    Attributes:
        games: games per configuration (and ours per round beside the 2023 program).
        rates: `(label, games/s)` of the first table, CPU time.
        side: per 2023 configuration, the rounds beside it (empty when it was not run).
    """

    games: int
    rates: list[tuple[str, float]] = field(default_factory=list)
    side: list[SideBySide] = field(default_factory=list)


def seed_program(folder: Path) -> Path:
    """The 2023 program's harness in the folder of seed programs.

    Raises:
        SeedProgramError: no such harness.
    """
    return find_harness(folder, SEED_PROGRAM, "2023 Kemps program")


def program_at(harness: Path, config: str) -> SeedProgram:
    """The 2023 program at `harness` playing its configuration `config`."""
    return SeedProgram(
        harness,
        "2023 program",
        "games",
        "kemps-2023 [greedy]: {n} games in 1.6s = 180.9 games/s",
        "; it needs pygame: set EPIGAMES_SEED_PYTHON to a Python that has it",
        ("--config", config),
    )


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
    rounds, theirs_n = (1, 10) if quick else (3, 100)
    for config, players in SIDE_BY_SIDE:
        report.side.append(
            side_by_side(
                f"{config} (ours: {','.join(players)})",
                _player(players),
                partial(seed_speed, program_at(harness, config), theirs_n),
                games,
                rounds,
                GOAL[config],
            )
        )
    print_side_by_side(
        console,
        f"Against the 2023 program: {rounds} round(s), ours {games} games a round, "
        f"theirs {theirs_n}",
        report.side,
    )
    return report
