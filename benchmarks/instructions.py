"""Instructions per decision of each game's benchmark line-up, counted by cachegrind.

Instruction counts hardly move with other load on the machine, so they compare two
versions of the package better than times do: run this script once with the Python of
each version (`--python`, e.g. a venv with an older commit installed) and put the two
tables side by side. Each workload plays `--games` seeded matches through `play_match`
under `valgrind --tool=cachegrind`, once with one match and once with `1 + games`
matches in the same process, and divides the difference in instructions by the
difference in decisions (counted in a plain run of the same matches): the interpreter's
start-up, the imports and the first match cancel out.

    python benchmarks/instructions.py                      # the installed epigames
    python benchmarks/instructions.py --python /tmp/old/bin/python --only kwartet

It needs valgrind (`apt-get install valgrind`).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

#: label, game string, strategies, matches counted by default: the line-ups of
#: `epigames bench`. The start-up (some 2 billion instructions, 20 billion more where the
#: poker odds are computed) wobbles by up to a percent between runs, so a cheap match
#: needs hundreds of them for that wobble to stay small beside their count.
WORKLOADS: tuple[tuple[str, str, tuple[str, ...], int], ...] = (
    (
        "Kwartet, 2020 setting",
        "kwartet(players=4,kinds=13,ask_own=true)",
        ("greedy", "silent", "mixed", "random"),
        20,
    ),
    (
        "Kwartet, Mesa setting",
        "kwartet(kinds=8,ask_own=false)",
        ("random", "owner", "defensive", "aggressive"),
        40,
    ),
    ("Klaverjas, tactics ×4", "klaverjas(preset=2017)", ("tactics",) * 4, 400),
    ("Kemps, greedy ×3", "kemps(max_turns=10000)", ("greedy",) * 3, 200),
    ("Kemps, kbblocking", "kemps(max_turns=10000)", ("blocking", "blocking", "greedy"), 100),
    ("Blufpoker, knowledge ×3", "blufpoker", ("knowledge",) * 3, 2000),
)

# Run in the measured Python: plays the first match (seed 10**6), then `n` more, and
# prints the decisions of those `n`.
_CHILD = """
import sys
from epigames.games import play_match
game, players, n = sys.argv[1], tuple(sys.argv[2].split(",")), int(sys.argv[3])
play_match(game, players, 10**6)
print(sum(len(play_match(game, players, seed).transcript) for seed in range(n)))
"""

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def _instructions(python: str, game: str, players: tuple[str, ...], n: int) -> int:
    """Instructions of one child run under cachegrind."""
    command = [
        "setarch", "-R",  # no address randomisation: the same run, the same count
        "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
        python, "-c", _CHILD, game, ",".join(players), str(n),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=_quiet_env(), check=True)
    found = _REFS.search(done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def _decisions(python: str, game: str, players: tuple[str, ...], n: int) -> int:
    done = subprocess.run(
        [python, "-c", _CHILD, game, ",".join(players), str(n)],
        capture_output=True,
        text=True,
        env=_quiet_env(),
        check=True,
    )
    return int(done.stdout.split()[-1])


def _quiet_env() -> dict[str, str]:
    # One thread for numpy's libraries and a fixed hash seed: the count is the same each run.
    quiet = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}
    return {**os.environ, **quiet}


def main() -> None:
    """Print a Markdown table of instructions per decision and per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the Python to measure")
    parser.add_argument(
        "--games", type=int, default=None, help="matches counted per workload (default: its own)"
    )
    parser.add_argument("--only", default="", help="run the workloads whose label has this")
    args = parser.parse_args()
    if args.games is not None and args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    version = subprocess.run(
        [args.python, "-c", "import epigames.native as n; print(n.status())"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    print(f"{args.python}: card engine {version or 'unknown'}\n")
    print("| workload | matches | decisions a match | instructions a decision | a match |")
    print("|---|---:|---:|---:|---:|")
    for label, game, players, default in WORKLOADS:
        if args.only.lower() not in label.lower():
            continue
        games = args.games or default
        decisions = _decisions(args.python, game, players, games)
        first = _instructions(args.python, game, players, 0)
        total = _instructions(args.python, game, players, games)
        per_match = (total - first) / games
        print(
            f"| {label} | {games} | {decisions / games:,.1f} | {(total - first) / decisions:,.0f} "
            f"| {per_match / 1e6:,.2f} M |",
            flush=True,
        )


if __name__ == "__main__":
    main()
