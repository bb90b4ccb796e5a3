"""Kwartet: games per second on one core, cost of a knowledge update, memory over many games.

Plays whole matches with `play_match` (events, views, thoughts and transcript included)
for the 2020 report's configuration, four seats and 13 kinds with greedy, silent, mixed
and random players, every knowledge-based decision on exact (sound and complete) card
knowledge; and for four `random` players, the rules engine alone, which is the baseline
of the ratios. A second table times one knowledge update, as a strategy meets it: fold the
new public announcements, build the seat's `CardKnowledge` and ask the holder of a card it
needs; once as in play (the engine's memos warm) and once with its memos cleared before
every update (the in-run baseline). A third table gives the peak traced memory of 100
and 1,000 games, each count in a fresh process so its caches start empty.

Times are CPU seconds of this process (`time.process_time`), so "per core" holds on a
busy machine. Given the folder of seed programs (`--seed-programs DIR` or
`EPIGAMES_SEED_PROGRAMS`), the 2020 program (`DIR/kwartet-2020/run.py`) and the 2023 Mesa
Quartet program (`DIR/quartet-mesa-2023/run.py`, which needs mesa<2.2: set
`EPIGAMES_SEED_PYTHON` to a Python that has it) run in subprocesses for their settings,
in rounds alternating with ours and with our games replayed without thinking
(`bench.seeds.side_by_side`); each ratio is of medians, in CPU time (the goals) and on the
wall clock.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.table import Table

from epigames.bench.seeds import (
    Report,
    SeedProgram,
    SeedProgramError as SeedProgramError,
    SideBySide,
    find_harness,
    print_side_by_side,
    seed_speed,
    side_by_side,
)
from epigames.cards import blocks, counting, feasibility, knowledge
from epigames.errors import EpigamesError
from epigames.games import Match, MatchResult, play_match
from epigames.games.kwartet import KwartetView

GAME = "kwartet(players=4,kinds=13,ask_own=true)"
REPORT_2020 = ("greedy", "silent", "mixed", "random")
RANDOM = ("random",) * 4
REPORT_GAMES_PER_S = 15.6
"""Published reference, not measured here: the 2020 report's program on this project's
machines (from the issue), with its incomplete inference."""
MESA = "kwartet(kinds=8,ask_own=false)"
MESA_PLAYERS = ("random", "owner", "defensive", "aggressive")
SEED_2020 = Path("kwartet-2020") / "run.py"
SEED_MESA = Path("quartet-mesa-2023") / "run.py"
#: What issue 15 asked of ours against each seed program (CPU time; issue 36 sets none).
GOAL = 10.0
#: Ours / the seed program before issue 15's work (commit 981e02c), side by side as here
#: (median of 3, load average about 1; docs/kwartet.md), per setting.
BEFORE = {"2020": 1.83, "mesa": 1.60}


def games_per_second(players: tuple[str, ...], games: int) -> tuple[float, float]:
    """Games/s and mean asks per game over `games` matches (seeds 0..games-1)."""
    play_match(GAME, players, 10**6)  # import and first-use costs stay out of the timing
    start = time.process_time()
    moves = 0
    for seed in range(games):
        moves += play_match(GAME, players, seed).moves
    return games / (time.process_time() - start), moves / games


def mesa_players(seed: int) -> tuple[str, ...]:
    """The Mesa line-up for game `seed`, rotated by one seat a game as its program does."""
    shift = seed % len(MESA_PLAYERS)
    return MESA_PLAYERS[-shift:] + MESA_PLAYERS[:-shift] if shift else MESA_PLAYERS


def play_mesa(seed: int) -> MatchResult:
    """Game `seed` of the Mesa setting, its line-up rotated as the Mesa program rotates it."""
    return play_match(MESA, mesa_players(seed), seed)


def program_at(harness: Path) -> SeedProgram:
    """A Kwartet seed program's harness at `harness`, as `seeds.seed_speed` runs it."""
    return SeedProgram(
        harness,
        "seed program",
        "games",
        "kwartet-2020: {n} games in 8.774s = 17.10 games/s",
        "; the Mesa program needs mesa<2.2: set EPIGAMES_SEED_PYTHON to a Python with it",
    )


def _clear_memos() -> None:
    for memo in knowledge.memos():
        memo.clear()
    blocks._RAW.clear()
    blocks._PATTERNS.clear()
    feasibility._VALID.clear()
    counting._SHAPES.clear()


def update_cost(games: int, cold: bool) -> tuple[float, int]:
    """Mean µs per knowledge update over the decisions of `games` 2020-configuration games.

    An update is what a deciding seat pays first: folding the public announcements since
    the last fold, building its `CardKnowledge` and asking the holder of one card it needs
    (a full solve unless propagation already placed the card). With `cold`, the engine's
    memos are cleared before each update.
    """
    total, count = 0.0, 0
    for seed in range(games):
        match = Match(GAME, REPORT_2020, seed)
        state = match.state
        while not match.over:
            match.run_chance()
            if match.over:
                break
            view = state.observation(state.current_player)
            assert isinstance(view, KwartetView)
            own = set(view.hand)
            wanted = next(c for c in view.askable_cards if c not in own)
            if cold:
                _clear_memos()
            start = time.process_time()
            view.knowledge.holder(wanted)
            total += time.process_time() - start
            count += 1
            match.step(view)
    return total / count * 1e6, count


def traced_peak(games: int) -> float:
    """Peak traced memory (MiB) while playing `games` 2020-configuration games here."""
    tracemalloc.start()
    try:
        for seed in range(games):
            play_match(GAME, REPORT_2020, seed)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / (1024 * 1024)


def traced_peak_in_subprocess(games: int) -> float:
    """`traced_peak(games)` in a fresh Python process, so caches start empty."""
    src = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH", "")) if p)
    code = f"from epigames.bench.kwartet import traced_peak\nprint(traced_peak({games}))\n"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise EpigamesError(f"the memory run of {games} games failed:\n{done.stderr.strip()}")
    return float(done.stdout.strip().splitlines()[-1])


def run(console: Console, quick: bool = False, seed_programs: Path | None = None) -> Report:
    """Print the tables; with `seed_programs`, run the 2020 and Mesa programs beside ours."""
    harnesses = (
        None
        if seed_programs is None
        else (
            find_harness(seed_programs, SEED_2020, "2020 Kwartet program"),
            find_harness(seed_programs, SEED_MESA, "2023 Mesa Quartet program"),
        )
    )
    report = Report()
    games = 20 if quick else 300
    table = Table(title=f"Kwartet {GAME}, one core, {games} games each", title_justify="left")
    for column in ("configuration", "games/s", "asks/game", "× rules alone", "× report"):
        table.add_column(column, justify="left" if column == "configuration" else "right")
    base, base_moves = games_per_second(RANDOM, games)
    rate, moves = games_per_second(REPORT_2020, games)
    report.rates += [("random ×4", base), ("2020 report", rate)]
    table.add_row(
        "rules alone: random ×4 (baseline)",
        f"{base:,.1f}",
        f"{base_moves:.1f}",
        "1.00",
        f"{base / REPORT_GAMES_PER_S:.1f}",
    )
    table.add_row(
        f"2020 report, exact knowledge: {','.join(REPORT_2020)}",
        f"{rate:,.1f}",
        f"{moves:.1f}",
        f"{rate / base:.2f}",
        f"{rate / REPORT_GAMES_PER_S:.1f}",
    )
    table.add_row(
        "2020 report's own program (published reference, not run)",
        f"{REPORT_GAMES_PER_S:.1f}",
        "",
        "",
        "1.0",
    )
    console.print(table)

    sample = 3 if quick else 20
    warm, count = update_cost(sample, cold=False)
    cold, _ = update_cost(sample, cold=True)
    updates = Table(
        title=f"Knowledge update (fold + build + first holder query), {count} updates",
        title_justify="left",
    )
    for column in ("engine memos", "µs/update", "speed-up"):
        updates.add_column(column, justify="left" if column == "engine memos" else "right")
    updates.add_row("cleared before each update (baseline)", f"{cold:,.0f}", "1.00")
    updates.add_row("as in play (warm)", f"{warm:,.0f}", f"{cold / warm:.2f}")
    console.print(updates)

    small, large = (10, 100) if quick else (100, 1000)
    memory = Table(title="Peak traced memory, 2020 configuration", title_justify="left")
    for column in ("games", "peak MiB"):
        memory.add_column(column, justify="right")
    peaks = [(n, traced_peak_in_subprocess(n)) for n in (small, large)]
    for n, peak in peaks:
        memory.add_row(f"{n:,}", f"{peak:.1f}")
    console.print(memory)
    console.print(
        f"Memory {peaks[1][1] / peaks[0][1]:.2f}× from {small:,} to {large:,} games (the "
        "engine's memos are bounded)."
    )
    if harnesses is None:
        console.print(
            "The seed programs were not run: give --seed-programs DIR (or set "
            f"EPIGAMES_SEED_PROGRAMS) with DIR/{SEED_2020.as_posix()} and "
            f"DIR/{SEED_MESA.as_posix()}."
        )
        return report
    report.side = beside_seed_programs(console, harnesses, quick)
    return report


def beside_seed_programs(
    console: Console, harnesses: tuple[Path, Path], quick: bool = False
) -> list[SideBySide]:
    """Run the 2020 and Mesa harnesses (in that order) beside ours and print the tables."""
    rounds, ours_n, theirs_n = (1, 10, 4) if quick else (3, 300, 100)
    settings: tuple[tuple[str, Callable[[int], MatchResult], Path, str], ...] = (
        (
            "2020 setting (13 kinds, greedy,silent,mixed,random)",
            partial(play_match, GAME, REPORT_2020),
            harnesses[0],
            "2020",
        ),
        (
            "Mesa Quartet setting (8 kinds, random,owner,defensive,aggressive rotated)",
            play_mesa,
            harnesses[1],
            "mesa",
        ),
    )
    rows = [
        side_by_side(
            label,
            play,
            partial(seed_speed, program_at(harness), theirs_n),
            ours_n,
            rounds,
            GOAL,
            before=BEFORE[name],
        )
        for label, play, harness, name in settings
    ]
    print_side_by_side(
        console,
        f"Against the seed programs: {rounds} round(s) each, ours {ours_n} games a round, "
        f"theirs {theirs_n}",
        rows,
    )
    return rows
