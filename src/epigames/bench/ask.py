"""`epigames ask` on the largest card settings: six-player Kwartet, eight-player Kemps teams.

For each setting a seeded match (seed 0, the game's default agents) is played to its end,
and at steps spread over it `epigames ask` replays it to the step and asks each formula
(its truth and which seats know it), timed on the CPU and the wall clock. The goal
(issue 37) is under 2 s an answer with the command's start-up included: each ask runs the
command in a fresh process, so start-up, imports and first-time work count, as a user
waits for them; the start-up alone (`epigames --help`) is measured once beside them.

A second table holds the knowledge's own answer to the ask of a propositional formula:
`view.knowledge.knows(f)` of the seat to move, against the quotient model's answer to
`K_seat f` (`cards.quotient.evaluator`, the other exact way, which `ask` takes), on the
same state; both must agree, and the ratio is of their CPU times (the goal: the knowledge
never slower than the quotient, a ratio ≤ 1).
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table

from epigames.cards import CardKnowledge
from epigames.cards.quotient import evaluator
from epigames.cards.symbolic import MAX_COMBINATIONS, CardStructure, card_formula
from epigames.errors import EpigamesError
from epigames.games import Match, load_game
from epigames.games.picture import true_deal
from epigames.games.steps import match_at
from epigames.logic import formula as fm

#: The settings, with formulas about their cards (nested knowledge, as a user asks) and
#: propositional ones for the second table (seats by number): one about another seat's
#: cards, and one that every seat knows (no card is in two hands).
SETTINGS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    (
        "kwartet(players=6)",
        (
            "K_1 ~holds(2, <3,2>) & ~K_2 K_1 ~holds(2, <3,2>)",
            "K_0 holds(3, <5,1>) | K_4 ~K_0 holds(5, <1,1>)",
        ),
        ("holds(2, <3,2>) | holds(3, <3,2>)", "~holds(0, <3,2>) | ~holds(1, <3,2>)"),
    ),
    (
        "kemps(players=8,teams=true)",
        ("K_0 holds(1, AH) | K_1 ~K_0 holds(2, KS)", "K_3 ~holds(4, QD) & ~K_5 K_3 ~holds(4, QD)"),
        ("holds(1, AH) | holds(2, AH)", "~holds(0, AH) | ~holds(1, AH)"),
    ),
)
#: Asks per setting: at this many steps spread over the match, first and last included.
STEPS, QUICK_STEPS = 9, 2
#: The goal for one answer of the command, start-up included (seconds).
GOAL = 2.0


@dataclass
class Timed:
    """One ask: its setting, step and formula, its answer and its times (seconds)."""

    game: str
    step: int
    formula: str
    value: bool
    cpu: float
    wall: float


@dataclass
class Versus:
    """One seat's `knows` of a propositional formula against the quotient's `K_seat`."""

    game: str
    step: int
    seat: int
    formula: str
    value: bool
    knows_cpu: float
    quotient_cpu: float


@dataclass
class Report:
    """What the benchmark measured (the tests read it; nothing asserts on its times)."""

    startup: float = 0.0
    asks: list[Timed] = field(default_factory=list)
    versus: list[Versus] = field(default_factory=list)


def steps_of(game: str, count: int) -> list[int]:
    """`count` steps spread over the seeded match of `game`, from 0 to its last."""
    match = Match(game, _agents(game), 0)
    match.run()
    last = len(match.transcript)
    if count <= 1 or last == 0:
        return [0]
    return sorted({round(i * last / (count - 1)) for i in range(count)})


def _agents(game: str) -> tuple[str, ...]:
    loaded = load_game(game)
    return (loaded.default_strategy,) * loaded.num_players


def _timed(work: Callable[[], object]) -> tuple[object, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = work()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def time_ask(game: str, step: int, formula: str) -> Timed:
    """Run `epigames ask GAME FORMULA --at STEP` in a fresh process, timed (start-up,
    imports and first-time work included, as a user waits for them).

    Raises:
        EpigamesError: the command failed.
    """
    command = [*_EPIGAMES, "ask", game, formula, "--at", str(step)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise EpigamesError(f"epigames ask {game} at {step} failed: {done.stderr.strip()}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    value = ": true" in done.stdout.splitlines()[1]
    return Timed(game, step, formula, value, cpu, wall)


def knows_versus_quotient(game: str, step: int, formula: str) -> Versus:
    """The seat to move's `knows(formula)` and the quotient's `K_seat formula`, timed.

    Raises:
        EpigamesError: the two answers differ (a bug in one of the engines).
    """
    state = match_at(game, _agents(game), 0, step).state
    seat = max(state.current_player, 0)
    f = card_formula(formula)
    knowledge = state.observation(seat).knowledge
    assert isinstance(knowledge, CardKnowledge)
    known, knows_cpu, _ = _timed(lambda: knowledge.knows(f))
    public = state.observation(0).knowledge
    assert isinstance(public, CardKnowledge)

    def quotient() -> bool:
        cards = CardStructure.from_knowledge(public)
        question = fm.K(str(seat), f)
        return evaluator(cards, question, true_deal(state, public), MAX_COMBINATIONS)(question)

    by_quotient, quotient_cpu, _ = _timed(quotient)
    if bool(known) != bool(by_quotient):
        raise EpigamesError(
            f"{game} step {step}: seat {seat} knows({formula}) is {known}, "
            f"the quotient says {by_quotient}"
        )
    return Versus(game, step, seat, formula, bool(known), knows_cpu, quotient_cpu)


def startup_seconds() -> float:
    """Wall-clock seconds of a fresh `epigames --help` (the command's start-up alone)."""
    start = time.perf_counter()
    subprocess.run([*_EPIGAMES, "--help"], capture_output=True, check=False)
    return time.perf_counter() - start


#: The command, run by this Python (the console script may not be on the PATH).
_EPIGAMES = (
    sys.executable,
    "-c",
    "import sys; from epigames.cli import main; sys.argv[0] = 'epigames'; main()",
)


def run(console: Console, quick: bool = False) -> Report:
    """Time the asks and the knowledge against the quotient; print both tables."""
    report = Report(startup=startup_seconds())
    count = QUICK_STEPS if quick else STEPS
    for game, formulas, propositional in SETTINGS:
        for step in steps_of(game, count):
            report.asks.extend(time_ask(game, step, f) for f in formulas)
            report.versus.extend(knows_versus_quotient(game, step, f) for f in propositional)
    asks = Table(title="epigames bench ask: one `epigames ask` command, seconds")
    for name in ("setting", "formula", "steps", "CPU median", "CPU max", "wall median"):
        asks.add_column(name, justify="left" if name in ("setting", "formula") else "right")
    asks.add_column("wall max", justify="right")
    asks.add_column("goal", justify="right")
    for game, formulas, _ in SETTINGS:
        for f in formulas:
            rows = [a for a in report.asks if a.game == game and a.formula == f]
            worst = max(a.wall for a in rows)
            asks.add_row(
                game,
                f,
                ", ".join(str(a.step) for a in rows),
                f"{statistics.median(a.cpu for a in rows):.2f}",
                f"{max(a.cpu for a in rows):.2f}",
                f"{statistics.median(a.wall for a in rows):.2f}",
                f"{worst:.2f}",
                f"< {GOAL:g} {'met' if worst < GOAL else 'not met'}",
            )
    console.print(asks)
    console.print(
        f"Each ask is `epigames ask SETTING FORMULA --at STEP` in a fresh process (seed 0, "
        f"default agents): CPU of the process, wall clock around it. The start-up alone, a "
        f"fresh `epigames --help`: {report.startup:.2f} s wall clock."
    )
    versus = Table(title="knowledge.knows of a propositional formula vs the quotient's K_seat")
    for name in ("setting", "formula", "step", "seat", "answer", "knows ms", "quotient ms"):
        versus.add_column(name, justify="left" if name in ("setting", "formula") else "right")
    versus.add_column("ratio", justify="right")
    for v in report.versus:
        ratio = v.knows_cpu / v.quotient_cpu if v.quotient_cpu > 0 else float("inf")
        versus.add_row(
            v.game,
            v.formula,
            str(v.step),
            str(v.seat),
            "knows" if v.value else "does not know",
            f"{v.knows_cpu * 1000:.2f}",
            f"{v.quotient_cpu * 1000:.2f}",
            f"{ratio:.3f}",
        )
    console.print(versus)
    console.print(
        "The seat to move (seat 0 before the first move and at the end); CPU time of each "
        "answer in this process, the knowledge first; both answers agree (checked)."
    )
    return report
