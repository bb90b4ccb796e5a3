"""Knowledge's share of a Kemps `kbblocking` game, counted by callgrind (issue 37).

Plays the `kbblocking` line-up (`blocking` ×2 + `greedy`, exact knowledge) of `epigames
bench kemps` under `valgrind --tool=callgrind`: once seed 0 alone, once seeds 0..N in the
same process. The difference is games 1..N without the interpreter's start-up, the
imports and the first game. Knowledge is what the turn planner's reads of it cost,
inclusive: the function that reads it (`_possible_masks`, or after issue 37's changes
`_elsewhere_cards`) with the view's part and the tracker's fold of the log (folded only
when asked); the table splits it into the compiled functions below it (in plain Python,
callgrind sees the interpreter only, and the table says so).

    python benchmarks/kemps_knowledge.py                 # games 1..20, the installed epigames
    python benchmarks/kemps_knowledge.py --games 50 --python /tmp/old/bin/python

It needs valgrind (`apt-get install valgrind`) and a compiled install (`epigames.native`).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The sibling script's environment for a steady count (run as a script, its folder is on
# the path).
from instructions import _quiet_env

GAME = "kemps(max_turns=10000)"
PLAYERS = ("blocking", "blocking", "greedy")

_K = "CPyDef_kemps___knowledge___"
_CARDS = "CPyDef_cards___knowledge___"
#: Row label, the compiled functions (their C symbols; a row sums those the build has),
#: and the indent that shows which row it is part of. The first row is the whole of
#: knowledge: the planner's read of it (`_possible_masks` before issue 37's changes,
#: `_elsewhere_cards` after), inclusive.
FUNCTIONS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    (
        "knowledge (the planner's read, inclusive)",
        ("CPyDef_planner____possible_masks", "CPyDef_planner____elsewhere_cards"),
        0,
    ),
    ("folding the announcements", (_K + "PublicTracker____fold",), 1),
    ("the tracker's `knowledge`", (_K + "PublicTracker___knowledge",), 1),
    ("the `PublicKemps` value", (_K + "PublicTracker____value",), 2),
    ("Hall's condition on the tracker's parts", (_K + "_hall_elsewhere",), 1),
    ("a knowledge's possible masks", (_K + "KempsKnowledge____possible_masks",), 1),
    ("Hall's condition on the public value", (_K + "_by_hall",), 2),
    (
        "the card engine's full path",
        ("CPyDef_cards___knowledge___CardKnowledge____possible_masks",),
        2,
    ),
)

# Run in the measured Python: plays seeds 0..n (n = 0: seed 0 alone), prints decisions.
_CHILD = """
import sys
from epigames.games import play_match
game, players, n = sys.argv[1], tuple(sys.argv[2].split(",")), int(sys.argv[3])
print(sum(len(play_match(game, players, seed).transcript) for seed in range(n + 1)))
"""

_TOTAL = re.compile(r"^\s*([\d,]+)\s+\(100\.0+%\)\s+PROGRAM TOTALS", re.MULTILINE)


def _profile(python: str, n: int, folder: str) -> tuple[int, dict[str, int]]:
    """The run's total instructions and each function's inclusive instructions."""
    out = os.path.join(folder, f"callgrind.{n}")
    command = [
        "setarch", "-R",  # no address randomisation: the same run, the same count
        "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
        python, "-c", _CHILD, GAME, ",".join(PLAYERS), str(n),
    ]  # fmt: skip
    subprocess.run(command, capture_output=True, text=True, env=_quiet_env(), check=True)
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    total = _TOTAL.search(annotated)
    if total is None:
        raise SystemExit(f"no total in callgrind_annotate's output:\n{annotated[:2000]}")
    wanted = {symbol for _, symbols, _ in FUNCTIONS for symbol in symbols}
    found: dict[str, int] = {}
    for line in annotated.splitlines():
        parts = line.split()
        if len(parts) < 3 or not parts[0][0].isdigit():
            continue
        symbol = parts[-2] if parts[-1].startswith("[") else parts[-1]
        symbol = symbol.rsplit(":", 1)[-1]
        if symbol in wanted and symbol not in found:
            found[symbol] = int(parts[0].replace(",", ""))
    return int(total.group(1).replace(",", "")), found


def _decisions(python: str, n: int) -> int:
    done = subprocess.run(
        [python, "-c", _CHILD, GAME, ",".join(PLAYERS), str(n)],
        capture_output=True,
        text=True,
        env=_quiet_env(),
        check=True,
    )
    return int(done.stdout.split()[-1])


def main() -> None:
    """Print knowledge's share of games 1..N and its parts as a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the Python to measure")
    parser.add_argument(
        "--games", type=int, default=20, help="games counted, seeds 1..N (default: 20)"
    )
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    status = subprocess.run(
        [args.python, "-c", "import epigames.native as n; print(n.status())"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as folder:
        base_total, base = _profile(args.python, 0, folder)
        all_total, every = _profile(args.python, args.games, folder)
    decisions = _decisions(args.python, args.games) - _decisions(args.python, 0)
    game = all_total - base_total
    games = args.games
    print(f"{args.python}: epigames.native {status or 'unknown'}")
    print(
        f"{GAME}, {' + '.join(PLAYERS)}: games 1-{games} (seeds 0-{games} less seed 0 alone), "
        f"{decisions:,} decisions\n"
    )
    print("| part | instructions | a game | share of a game |")
    print("|---|---:|---:|---:|")
    print(f"| whole games | {game / 1e6:,.1f} M | {game / games / 1e6:,.2f} M | 100% |")
    for label, symbols, depth in FUNCTIONS:
        if not any(symbol in every for symbol in symbols):
            print(f"| {'· ' * depth}{label} | not called (or plain Python) | | |")
            continue
        spent = sum(every.get(symbol, 0) - base.get(symbol, 0) for symbol in symbols)
        print(
            f"| {'· ' * depth}{label} | {spent / 1e6:,.1f} M | {spent / games / 1e6:,.3f} M "
            f"| {spent / game:.1%} |"
        )


if __name__ == "__main__":
    main()
