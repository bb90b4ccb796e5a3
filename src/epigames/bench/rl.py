"""Reinforcement learning: PettingZoo env steps per second, per game and observation kind.

Every registered game of the package (games that tests register for themselves are left
out) runs in the loop a trainer runs on the AEC environment (`adapters.pettingzoo.env`,
PettingZoo's order-enforcing wrapper included): `reset(seed=episode)`, then `last()` and
`step` with an action drawn uniformly from the action mask until the episode ends (the
dead steps of the finished agents too), then the next episode, for a fixed number of
decisions; the env is made and warmed up untimed. Each game's default setting runs with
both observations, `hand` and `knowledge`.

The baseline is PettingZoo's own `connect_four_v3` (or `texas_holdem_v4` when that is the
one that imports) in the same loop and the same run. Rounds alternate the sides: in each
round every game is measured right after (even rounds) or right before (odd rounds) a run
of the baseline, and a game's ratio divides its median by the median of those baseline
runs. Rates are decisions per CPU second (`time.process_time`, one core: the goals of
issue 35, ≥ 20,000 with `hand` and ≥ 5,000 with `knowledge`) and per wall-clock second.

Another row, the floor, runs the same loop on an env with no game behind it (`null_env`):
what PettingZoo's AEC API and the loop cost, about 15 to 20 µs a decision here. At
20,000 decisions a second (50 µs each) that leaves some 30 µs for the game and the adapter.

Where the time goes: cProfile of this loop (tottime by where the code lives; cProfile
inflates small calls, so read the shares, not the times), 28 November, compiled card
engine. Before the adapter's fixes of that day (commit 5fc8486):

- Kwartet, `hand`: over half was the action mask. `ActionSpace.mask` looked up each of
  some 60 legal asks in a dict keyed by `Ask` dataclasses, whose `__hash__` and `__eq__`
  run in Python; and each step listed the legal actions twice (the mask, then the step
  scanning them with `__eq__` for the chosen action).
- Klaverjas and Sevens, `hand`: each dealt card cost ~15-50 µs in `Generator.choice` with a
  probability vector built anew; Sevens also listed its legal moves twice a step.

The masks now find indices by the identity of action objects met before, the step reads
the mover's mask instead of listing again, chance draws the same index without `choice`'s
checks, and the knowledge is written into the vector without a stacked copy. After:

| loop | adapter | game rules | game views, public parts | card engine | PettingZoo | numpy, loop |
|---|---|---|---|---|---|---|
| Kwartet `hand` | 31% | 28% | 8% | – | 13% | 11% |
| Klaverjas `hand` | 25% | 18% | 19% | – | 14% | 9% |
| Sevens `hand` | 11% | 37% (+9% enum look-ups) | 16% | 6% | 5% | 5% |
| Kwartet `knowledge` | 14% | 13% | 4% | 45% | 5% | 6% |
| Klaverjas `knowledge` | 11% | 9% | 6% | 48% | 8% | 5% |

With `knowledge`, the card engine's exact matrices (`Knowledge.matrices`, one solve per
observation) are half the time; with `hand`, the time is spread: the rules and the views
(the games' own), the adapter's bookkeeping (encoding, masks, rewards; no single part
above a tenth) and PettingZoo's own API. The goals are out of reach of the adapter alone:
with an adapter that cost nothing, Kwartet and Klaverjas with `hand` would still take
some 65 µs a decision at the load of these runs (7 to 10 on 2 cores), not 50.

29 November, after the card engine counted classes of interchangeable cards in one step
and kept its probabilities with the solved problem the seats share: the matrices' share
of a `knowledge` step (cProfile, compiled) fell from 70-80% to 32% in Klaverjas and 31%
in Sevens; in Kwartet, whose facts tie cards together in blocks, it is 45%.

Later that day (line profiles and instruction counts; docs/adapters.md has the table):
a Sevens `hand` decision is spread over its 36-card deal one card at a time (about a
tenth: each dealt card is an event, a fact and a move of the table), the view and its
arrays (a sixth), the rules' move with its legal check (a sixth) and PettingZoo's API;
Klaverjas `hand` spends most of its view's share writing its 17 public arrays. With
`knowledge`, CPython's garbage collector is about 12% of a Kwartet step (full
collections walking numpy's, PettingZoo's and the memos' objects).

Later still (instruction counts and timers around the parts; docs/adapters.md): Klaverjas's
table keeps the deal's plays, hand sizes and trump chooser, so its arrays no longer read
the deal's log; Kwartet's mask is kept by the identity of its legal tuple; a table game's
view writes its face-up piles from a copy of the card locations. A Kwartet
`knowledge` step now spends about half its time solving the problems met for the first
time (24% of observations, some 400 µs each) and an eighth overlaying the seat's hand on
the public facts before the memo is asked.
"""

from __future__ import annotations

import importlib
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.console import Console
from rich.table import Table

from epigames.bench.seeds import Clock, Speed
from epigames.games import game_class, load_game, registered_games

#: Decisions per CPU second on one core that issue 35 asks for, per observation kind.
GOALS = {"hand": 20_000.0, "knowledge": 5_000.0}
OBSERVATIONS = ("hand", "knowledge")
#: PettingZoo's own environments the baseline may be, in order of preference: the module's
#: name and the id in PettingZoo's registry.
BASELINES = (
    ("connect_four_v3", "classic/connect_four-v3"),
    ("texas_holdem_v4", "classic/texas_holdem-v4"),
)
#: Decisions played untimed on a fresh env of each side before its timed runs.
WARM_UP = 50


@dataclass(frozen=True, slots=True)
class Baseline:
    """PettingZoo's own environment that the games are compared with, or why there is none."""

    name: str
    make: Callable[[], Any] | None
    reason: str = ""


@dataclass(slots=True)
class Row:
    """One game and observation kind: its runs and the baseline runs beside them."""

    game: str
    observation: str
    runs: list[Speed] = field(default_factory=list)
    baseline: list[Speed] = field(default_factory=list)

    def rate(self, clock: Clock = "cpu") -> float:
        """The median rate over the rounds on `clock`."""
        return statistics.median(run.on(clock) for run in self.runs)

    def ratio(self, clock: Clock = "cpu") -> float | None:
        """Its median over that of the baseline runs beside it; None without a baseline."""
        if not self.baseline:
            return None
        return self.rate(clock) / statistics.median(run.on(clock) for run in self.baseline)

    @property
    def goal(self) -> float:
        """Decisions per CPU second asked for this observation kind."""
        return GOALS[self.observation]

    @property
    def met(self) -> bool:
        """Whether the median CPU-time rate reaches the goal."""
        return self.rate("cpu") >= self.goal


@dataclass(slots=True)
class Report:
    """What `run` measured."""

    steps: int
    rounds: int
    baseline: Baseline
    baseline_runs: list[Speed] = field(default_factory=list)
    #: The floor: `null_env` in the same loop, once a round.
    floor_runs: list[Speed] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)


def games() -> list[str]:
    """The registered games of the package itself, by name: not those tests register."""
    return [name for name in registered_games() if _ours(game_class(name).__module__)]


def _ours(module: str) -> bool:
    return module.startswith("epigames.")


def find_baseline() -> Baseline:
    """The first of `BASELINES` that imports, or (make None) why none does."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # PettingZoo's classic imports it
    reasons = []
    for name, registered in BASELINES:
        try:
            make = _maker(name, registered)
        except Exception as exc:  # ImportError, or a display or library that fails to load
            reasons.append(f"{name}: {type(exc).__name__}: {exc}")
            continue
        return Baseline(name, make)
    return Baseline(BASELINES[0][0], None, "; ".join(reasons))


def _maker(name: str, registered: str) -> Callable[[], Any]:
    """What makes PettingZoo's env `name`: its registry's `make` where PettingZoo has one
    (importing the module itself is deprecated there), else the module's `env`.

    Raises:
        Exception: it does not import.
    """
    import pettingzoo

    make = getattr(pettingzoo, "make", None)
    if make is None:
        env: Callable[[], Any] = importlib.import_module(f"pettingzoo.classic.{name}").env
        return env
    make("aec", registered)  # imports it now, so a failure is found before any timing
    return lambda: make("aec", registered)


def trainer_loop(env: Any, steps: int, seed: int = 0) -> int:
    """Play `steps` decisions in an AEC env as a trainer does; returns the episodes begun.

    Episode k is reset with seed k; each decision is drawn uniformly from the action mask
    with a generator seeded by `seed`, so both sides replay the same episodes every round.
    Agents that are done get their dead step (`step(None)`), uncounted.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    episode = 0
    env.reset(seed=episode)
    taken = 0
    while taken < steps:
        if not env.agents:
            episode += 1
            env.reset(seed=episode)
            continue
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        taken += 1
    return episode + 1


def measure(make: Callable[[], Any], steps: int) -> Speed:
    """Decisions per second of `trainer_loop` on a fresh env (warmed up untimed on another)."""
    trainer_loop(make(), WARM_UP, seed=1)
    env = make()
    cpu, wall = time.process_time(), time.perf_counter()
    trainer_loop(env, steps)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return Speed(steps / cpu, steps / wall)


def null_env(players: int = 4, length: int = 200, actions: int = 200) -> Any:
    """An AEC env that does nothing, in PettingZoo's order-enforcing wrapper: the floor.

    Seats take turns for `length` decisions with every one of `actions` legal and the same
    observation; what the trainer loop costs on it is what PettingZoo's AEC API (`last`,
    `step`, rewards, the wrapper's checks) and the loop itself cost, with no game behind.
    """
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    class NullEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints
        metadata: ClassVar[dict[str, Any]] = {"render_modes": [], "name": "null_v0"}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = [f"player_{seat}" for seat in range(players)]
            mask = np.ones(actions, dtype=np.int8)
            self.constant = {"observation": np.zeros(8, np.float32), "action_mask": mask}
            space = spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (8,), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            self.observation_spaces = dict.fromkeys(self.possible_agents, space)
            self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
            self.decisions = 0

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def observe(self, agent: str) -> dict[str, Any]:
            return self.constant

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
            self.agent_selection = self.agents[0]
            self.decisions = 0

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self.decisions += 1
            if self.decisions >= length:
                self.terminations = dict.fromkeys(self.agents, True)
            seat = self.possible_agents.index(agent)
            self.agent_selection = self.possible_agents[(seat + 1) % players]
            self._accumulate_rewards()

    return OrderEnforcingWrapper(NullEnv())


def _ours_env(game: str, observation: str) -> Callable[[], Any]:
    from epigames.adapters.pettingzoo import env

    return lambda: env(game, observation=observation)


def run(console: Console, quick: bool = False) -> Report:
    """Measure every game and observation kind beside the baseline; print the table."""
    steps, rounds = (100, 1) if quick else (10_000, 3)
    baseline = find_baseline()
    report = Report(steps, rounds, baseline)
    names = games()
    report.rows = [Row(name, kind) for name in names for kind in OBSERVATIONS]
    console.print(
        f"PettingZoo AEC env loop, {steps:,} decisions per run, {rounds} round(s), each "
        f"game's default setting; baseline {_baseline_text(baseline)}; load average at "
        f"the start {_load()} on {os.cpu_count()} CPUs"
    )
    for round_ in range(rounds):
        report.floor_runs.append(measure(null_env, steps))
        for name in names:
            # Even rounds time the baseline just before the game, odd ones just after.
            if round_ % 2 == 0:
                _baseline_beside(report, name)
            for row in report.rows:
                if row.game == name:
                    row.runs.append(measure(_ours_env(row.game, row.observation), steps))
            if round_ % 2 == 1:
                _baseline_beside(report, name)
    _print(console, report)
    return report


def _baseline_beside(report: Report, game: str) -> None:
    """One run of the baseline, counted beside `game`'s rows (none without a baseline)."""
    make = report.baseline.make
    if make is None:
        return
    speed = measure(make, report.steps)
    report.baseline_runs.append(speed)
    for row in report.rows:
        if row.game == game:
            row.baseline.append(speed)


def _load() -> str:
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.2f} (1 min), {five:.2f} (5 min)"


def _baseline_text(baseline: Baseline) -> str:
    if baseline.make is None:
        return "none (no PettingZoo classic environment imports)"
    return f"PettingZoo's {baseline.name}"


def _print(console: Console, report: Report) -> None:
    baseline = report.baseline
    table = Table(
        title="epigames bench rl: decisions per second (median of the rounds)",
        title_justify="left",
    )
    columns = ("environment", "observation", "CPU time", "wall clock", "× baseline (CPU)", "goal")
    for column in columns:
        table.add_column(column, justify="left" if column in columns[:2] else "right")
    if report.baseline_runs:
        table.add_row(
            f"{baseline.name} (PettingZoo, baseline)",
            "its own",
            f"{statistics.median(r.cpu for r in report.baseline_runs):,.0f}",
            f"{statistics.median(r.wall for r in report.baseline_runs):,.0f}",
            "1.00",
            "",
        )
    floor = statistics.median(r.cpu for r in report.floor_runs)
    base = [r.cpu for r in report.baseline_runs]
    table.add_row(
        "an env that does nothing (the floor)",
        "constant",
        f"{floor:,.0f}",
        f"{statistics.median(r.wall for r in report.floor_runs):,.0f}",
        f"{floor / statistics.median(base):.2f}" if base else "—",
        "",
    )
    for row in report.rows:
        ratio = row.ratio("cpu")
        table.add_row(
            row.game,
            row.observation,
            f"{row.rate('cpu'):,.0f}",
            f"{row.rate('wall'):,.0f}",
            "—" if ratio is None else f"{ratio:.2f}",
            f"≥ {row.goal:,.0f} {'met' if row.met else 'not met'}",
        )
    console.print(table)
    if baseline.make is None:
        console.print(
            f"No baseline: {baseline.reason}. PettingZoo's classic environments import "
            "pygame (pip install pygame; texas_holdem_v4 also needs rlcard)."
        )
    console.print(
        "The floor: an AEC env with no game behind it (null_env: the same observation and "
        "mask every time) in PettingZoo's wrapper, once a round: what the API and the loop "
        "cost. Decisions: actions taken by the seat to move (dead steps at an episode's end are "
        "timed, not counted); each run on a fresh env after an untimed warm-up. CPU time: "
        "process_time around the loop (the goals are per CPU second, one core); wall "
        "clock: perf_counter around the same loop. × baseline: the game's median over the "
        "median of the baseline runs next to it in the same rounds. Settings (the "
        f"defaults): {', '.join(str(load_game(name)) for name in games())}. Load average at "
        f"the end {_load()}."
    )
