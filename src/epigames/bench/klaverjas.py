"""Klaverjas: hands per second on one core with exact knowledge at every seat, vs the 2017 program.

Plays whole matches with `play_match` (deal, events, views, thoughts and transcript
included) of `klaverjas(preset=2017)`, the 2017 report's setting: one deal ("hand") of
eight tricks, trump drawn at random, South leads. The main workload is `tactics` at all
four seats: the 2017 tactics, each decision on the seat's exact knowledge from the card
engine (`view.knowledge`, computed for what the tactics ask). Beside it: `tactics2017`
(the same tactics on the 2017 program's own inference), `random` (the rules alone: the
baseline of the ratios), the main workload with every seat's exact knowledge solved after
every card (what it costs to keep all four seats' knowledge up to date, as the 2017 program
updates its tables for all four players after every card), and full matches of 16 deals
under the default rules.

Times in the first table are CPU seconds of this process (`time.process_time`), so "per
core" holds on a busy machine. Given the folder of seed programs (`--seed-programs DIR` or
the environment variable `EPIGAMES_SEED_PROGRAMS`), the 2017 program itself is run from
`DIR/klaverjas-2017/run.py` in a subprocess for the same number of hands, in rounds
alternating with our main workload and with our hands replayed without thinking
(`bench.seeds.side_by_side`); each ratio is of medians, in CPU time (the goal: other load
on the machine hardly moves it) and on the wall clock (as its harness times itself).
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
from epigames.games import Match, play_match
from epigames.games.klaverjas import KlaverjasView

GAME = "klaverjas(preset=2017)"
FULL_MATCH = "klaverjas"  # 16 deals, every one played out (no target)
FULL_DEALS = 16
MAIN = ("tactics",) * 4
CONFIGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("random ×4: the rules alone (baseline)", ("random",) * 4),
    ("tactics ×4: exact knowledge (the workload)", MAIN),
    ("tactics2017 ×4: the 2017 inference", ("tactics2017",) * 4),
)
#: The 2017 program on the issue author's machine (from the issue), not measured here.
ISSUE_HANDS_PER_S = 138
#: What issue 36 asks of the main workload against the 2017 program (CPU time).
GOAL = 8.0
#: Where the 2017 program's harness lies inside the folder of seed programs.
SEED_PROGRAM = Path("klaverjas-2017") / "run.py"


@dataclass(frozen=True, slots=True)
class Rate:
    """One configuration's speed.

    Attributes:
        label: what was played.
        per_s: hands per second (matches per second for full matches).
        deals_per_s: deals per second.
    """

    label: str
    per_s: float
    deals_per_s: float


@dataclass(slots=True)
class Report:
    """What `run` measured (the tests read it; nothing asserts on its times).

    Attributes:
        hands: hands per configuration (and per run of the comparison).
        rates: the first table's rows, CPU time.
        side: the main workload's rounds beside the 2017 program; None when not run.
    """

    hands: int
    rates: list[Rate] = field(default_factory=list)
    side: SideBySide | None = None


def seed_program(folder: Path) -> Path:
    """The 2017 program's harness in the folder of seed programs.

    Raises:
        SeedProgramError: no such folder or harness.
    """
    return find_harness(folder, SEED_PROGRAM, "2017 Klaverjas program")


def program_at(harness: Path) -> SeedProgram:
    """The 2017 program at `harness`, as `seeds.seed_speed` runs it."""
    return SeedProgram(
        harness,
        "2017 program",
        "hands",
        "klaverjas-2017: {n} hands in 6.083s = 98.64 games/s",
    )


def _timed(clock: Callable[[], float], play: Callable[[int], object], seeds: range) -> float:
    play(10**6)  # first-use costs (imports, tables) stay out of the timing, as in theirs
    start = clock()
    for seed in seeds:
        play(seed)
    return len(seeds) / (clock() - start)


def hands_per_second(players: tuple[str, ...], hands: int) -> float:
    """Hands (one-deal matches of the 2017 preset) per CPU second over seeds 0..hands-1."""
    return _timed(time.process_time, lambda seed: play_match(GAME, players, seed), range(hands))


def play_knowing_all(seed: int) -> None:
    """The main workload, solving every seat's exact knowledge after every card."""
    match = Match(GAME, MAIN, seed)
    state = match.state
    while not match.over:
        match.step()
        if not match.over:
            for seat in range(4):
                view = state.observation(seat)
                assert isinstance(view, KlaverjasView)
                view.knowledge.possible_masks()


def run(console: Console, quick: bool = False, seed_programs: Path | None = None) -> Report:
    """Print both tables; with `seed_programs`, run the 2017 program beside ours."""
    harness = None if seed_programs is None else seed_program(seed_programs)  # fail fast
    hands = 40 if quick else 500
    matches = 2 if quick else 20
    report = Report(hands)
    for label, players in CONFIGS:
        per_s = hands_per_second(players, hands)
        report.rates.append(Rate(label, per_s, per_s))
    every = _timed(time.process_time, play_knowing_all, range(hands))
    report.rates.append(Rate("tactics ×4, all seats' knowledge after each card", every, every))
    per_match = _timed(time.process_time, lambda s: play_match(FULL_MATCH, MAIN, s), range(matches))
    label = f"{FULL_DEALS}-deal matches, tactics ×4 (matches/s)"
    report.rates.append(Rate(label, per_match, FULL_DEALS * per_match))

    table = Table(
        title=f"Klaverjas {GAME}, one core (CPU time), {hands} hands each", title_justify="left"
    )
    columns = ("configuration", "hands/s", "ms/deal", "× random", f"× {ISSUE_HANDS_PER_S}/s")
    for column in columns:
        table.add_column(column, justify="left" if column == "configuration" else "right")
    base = report.rates[0].per_s
    for rate in report.rates:
        table.add_row(
            rate.label,
            f"{rate.per_s:,.1f}",
            f"{1000 / rate.deals_per_s:.2f}",
            f"{rate.deals_per_s / base:.2f}",
            f"{rate.deals_per_s / ISSUE_HANDS_PER_S:.1f}",
        )
    console.print(table)
    console.print(
        f"× {ISSUE_HANDS_PER_S}/s: against the 2017 program's speed on the issue author's "
        "machine (not measured here)."
    )
    if harness is None:
        console.print(
            f"The 2017 program was not run: give --seed-programs DIR (or set "
            f"EPIGAMES_SEED_PROGRAMS) with DIR/{SEED_PROGRAM.as_posix()}. The issue's figure, "
            f"{ISSUE_HANDS_PER_S} hands/s, was measured on another machine."
        )
        return report
    rounds = 1 if quick else 5
    report.side = side_by_side(
        "tactics ×4, exact knowledge",
        partial(play_match, GAME, MAIN),
        partial(seed_speed, program_at(harness), hands),
        hands,
        rounds,
        GOAL,
    )
    print_side_by_side(
        console,
        f"Against the 2017 program ({SEED_PROGRAM.as_posix()}): {rounds} round(s), "
        f"{hands} hands a round each",
        [report.side],
        unit="hands",
    )
    console.print(
        "The 2017 program plays one deal a hand with its own (incomplete) inference on all "
        "four seats."
    )
    return report
