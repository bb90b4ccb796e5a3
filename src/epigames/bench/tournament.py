"""Tournament runner: overhead vs a plain loop, 2-worker speed-up, memory, DuckDB cost.

The baseline is a plain loop over `play_match` for the same games, measured in the same
run. Peak memory is measured in fresh subprocesses: for 2,000 and 20,000 real games (the
issue's measure), and as a stress for 1,000 and 100,000 games of the synthetic match
function (microseconds a game, so chunks and write batches are at their largest); it
measures the runner and the store, which is what could grow with N.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from epigames.tournament import (
    GameRow,
    TournamentConfig,
    TournamentStore,
    checked_config,
    game_seed,
    run_tournament,
    seat_strategies,
)

GAME = "kwartet(players=4,kinds=8,ask_own=false)"

_MEMORY_SCRIPT = """
import json, os, resource, sys, tempfile, threading, time
from pathlib import Path
from epigames.tournament import TournamentConfig, TournamentStore, run_tournament
from epigames.tournament.synthetic import synthetic_match

# Workers descend from a fork server, not from us directly, so RUSAGE_CHILDREN misses
# them: sample the peak RSS (VmHWM) of every descendant process instead.
def descendants_peak_kb():
    parents, peak = {}, 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                pass
    me = os.getpid()
    for pid in parents:
        p = pid
        while p in parents and p != me and p > 1:
            p = parents[p]
        if p == me and pid != me:
            try:
                with open(f"/proc/{pid}/status") as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            peak = max(peak, int(line.split()[1]))
            except OSError:
                pass
    return peak

peak = [0]
stop = threading.Event()
def sample():
    while not stop.is_set():
        peak[0] = max(peak[0], descendants_peak_kb())
        time.sleep(0.1)
thread = threading.Thread(target=sample, daemon=True)
thread.start()
n, game = int(sys.argv[1]), sys.argv[2]
if game == "fake":
    config = TournamentConfig(name="m", game="fake", strategies=("a", "b", "c", "d"), games=n)
    match = synthetic_match
else:  # imported only here: the games' modules would weigh on the synthetic runs
    from epigames.tournament import checked_config
    config = checked_config(game, ["random"] * 4, n, seed=1, name="m")
    match = None
with tempfile.TemporaryDirectory() as tmp:
    with TournamentStore.open(Path(tmp) / "m.duckdb") as store:
        t = time.perf_counter()
        run_tournament(config, store, jobs=2, match=match)
        seconds = time.perf_counter() - t
        stored = store.count("m")
stop.set()
thread.join()
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over an exec, so this process's would
# include the peak of the process that started it (the bench itself, after its games).
try:
    with open("/proc/self/status") as f:
        self_kb = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
except OSError:
    self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"self_kb": self_kb, "child_kb": peak[0], "seconds": seconds,
                  "stored": stored}))
"""


def _plain_loop(config: TournamentConfig) -> float:
    """The baseline: the very same games (seeds, seats) in a bare loop, nothing stored."""
    from epigames.games import play_match

    seeds = [game_seed(config.seed, i) for i in range(config.games)]
    seats = [seat_strategies(config.strategies, i, config.seat_scheme) for i in range(config.games)]
    start = time.perf_counter()
    for i in range(config.games):
        play_match(config.game, seats[i], seeds[i])
    return time.perf_counter() - start


class _Clock:
    """A progress sink that notes when the first games came back (workers are up)."""

    def __init__(self) -> None:
        self.first: float | None = None
        self.first_games = 0

    def start(self, done: int, total: int) -> None:
        pass

    def advance(self, games: int) -> None:
        if self.first is None:
            self.first, self.first_games = time.perf_counter(), games


def _runner(config: TournamentConfig, jobs: int, tmp: Path) -> tuple[float, float]:
    """`(total seconds, seconds per game after the first result)`."""
    tmp.mkdir(exist_ok=True)
    path = tmp / f"runner-{jobs}.duckdb"
    clock = _Clock()
    with TournamentStore.open(path) as store:
        start = time.perf_counter()
        report = run_tournament(config, store, jobs=jobs, progress=clock)
        end = time.perf_counter()
    assert report.stored == config.games and clock.first is not None
    return end - start, (end - clock.first) / (config.games - clock.first_games)


def _memory(n: int, game: str = "fake") -> dict[str, float]:
    """Peak RSS of a fresh process running `n` games of 4 × random in `game` with 2 workers
    (`fake`: the synthetic match function), and of its largest worker."""
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_SCRIPT, str(n), game],
        capture_output=True,
        text=True,
        check=True,
    )
    data: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return data


def _write_cost(tmp: Path, games: int) -> float:
    rows = [
        GameRow(
            index=i,
            seed=game_seed(1, i),
            strategies=("a", "b", "c", "d"),
            returns=(1.0, 2.0, 0.0, 5.0),
            winners=(3,),
            moves=120,
            seconds=0.01,
        )
        for i in range(games)
    ]
    config = TournamentConfig(name="w", game="fake", strategies=("a", "b", "c", "d"), games=games)
    with TournamentStore.open(tmp / "write.duckdb") as store:
        store.prepare(config)
        start = time.perf_counter()
        for b in range(0, games, 2000):
            store.write("w", rows[b : b + 2000])
        return (time.perf_counter() - start) / games


def run(console: Console, quick: bool = False) -> None:
    """Measure and print the table (ratios against the plain loop of this run)."""
    # 10,000 games: with 2,000 the pool's start-up (about a second) weighs on the speed-up.
    games = 80 if quick else 10_000
    sizes = (1_000, 10_000) if quick else (1_000, 100_000)
    config = checked_config(GAME, ["random"] * 4, games, seed=1, name="bench")
    load = os.getloadavg()[0]
    console.print(
        f"{GAME}, 4 x random, {games} games; baseline: the same games in a plain loop of "
        f"play_match; best of 2 rounds; load average at start {load:.2f} on "
        f"{os.cpu_count()} CPUs (other load lowers the speed-up)"
    )
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        # Alternate and keep the best of two rounds: other load on the machine then
        # inflates neither side alone.
        loops, serials, parallels = [], [], []
        for round_ in range(2):
            loops.append(_plain_loop(config))
            serials.append(_runner(config, 1, tmp / f"s{round_}")[0])
            parallels.append(_runner(config, 2, tmp / f"p{round_}"))
        loop, serial = min(loops), min(serials)
        parallel, steady = min(parallels)
        per_game = loop / games
        write = _write_cost(tmp, 20_000 if not quick else 4_000)
    memory = {n: _memory(n) for n in sizes}
    # The measure: real games, RSS at 20,000 within 10% of 2,000.
    real_sizes = (40, 400) if quick else (2_000, 20_000)
    real = {n: _memory(n, GAME) for n in real_sizes}

    table = Table(title="epigames bench tournament", title_justify="left")
    for col in ("measure", "value", "vs baseline", "goal"):
        table.add_column(col, justify="left" if col in ("measure", "goal") else "right")
    table.add_row("plain loop (baseline)", f"{loop:.2f} s ({1e3 * per_game:.2f} ms/game)", "1.00")
    table.add_row(
        "runner, 1 worker (+DuckDB)",
        f"{serial:.2f} s",
        f"{serial / loop:.3f}  (overhead {100 * (serial / loop - 1):+.1f}%)",
        "overhead < 5% (issue 15)",
    )
    table.add_row(
        "runner, 2 workers",
        f"{parallel:.2f} s",
        f"speed-up {loop / parallel:.2f}x",
        ">= 1.85x on 2 cores",
    )
    table.add_row(
        "  after workers started",
        f"{1e3 * steady:.2f} ms/game",
        f"speed-up {per_game / steady:.2f}x",
        "(excludes pool start-up)",
    )
    table.add_row(
        "DuckDB write per game",
        f"{1e6 * write:.1f} us",
        f"{100 * write / per_game:.2f}% of a game",
        "",
    )
    for rows, label, first in ((memory, "synthetic", sizes[0]), (real, "real", real_sizes[0])):
        base_kb = rows[first]
        for n, m in rows.items():
            parent, worker = m["self_kb"] / base_kb["self_kb"], m["child_kb"] / base_kb["child_kb"]
            table.add_row(
                f"peak RSS, N={n:,} ({label})",
                f"parent {m['self_kb'] / 1024:.0f} MB, worker {m['child_kb'] / 1024:.0f} MB",
                f"{parent:.2f} / {worker:.2f}",
                "within 10% of the first" if label == "real" else "(stress: µs games)",
            )
    console.print(table)
    console.print(
        "synthetic memory rows use the synthetic match function (microseconds a game, so "
        "chunks and batches at their largest), real ones the random games above; ratios "
        f"vs the first of each; {sizes[-1]:,} synthetic games took "
        f"{memory[sizes[-1]]['seconds']:.1f} s"
    )
