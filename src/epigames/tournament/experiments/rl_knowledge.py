"""`rl-knowledge`: does a learner do better when it is given its exact knowledge?

The same learner (a linear softmax policy trained by REINFORCE, in
`epigames.adapters.reinforce`) sits at seat 0 of the PettingZoo environment and is trained
once on the `hand` observation (its cards and the public state) and once on the
`knowledge` observation (the same, plus for every card the holders it may be with and
their exact probabilities), from the same seeds, against the reports' rule-based agents;
then each trained policy plays evaluation games with its weights fixed. The report gives
the evaluation win rates with 95% intervals, beside an untrained policy (uniform over the
legal actions), and a learning curve of both observations (`rl-knowledge.png`).

This module plans the runs and writes the report; the training itself is the adapters'
(`epigames.adapters.reinforce.run_task`), handed in by the command, since the tournament
layer does not import the adapters. Each finished run is kept as a JSON file, so an
interrupted experiment resumes; the report and the plot are written atomically.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from epigames.tournament.experiments.base import markdown_table
from epigames.tournament.stats import Z95, wilson_interval

NAME = "rl-knowledge"
TITLE = "A REINFORCE learner on the hand alone or with its exact knowledge (Kwartet, Klaverjas)"
#: Training games per (setting, observation, seed) at full size.
GAMES = 2_000
#: Evaluation games per run are this fraction of the training games.
EVALUATION_SHARE = 4
#: Points of the learning curve.
CURVE_POINTS = 20
SEEDS = (1, 2, 3, 4, 5)
LR = 0.1
OBSERVATIONS = ("hand", "knowledge")
#: The untrained policy's runs: no training game, so its weights are zero and it draws
#: uniformly among the legal actions, whatever it observes.
UNTRAINED = "untrained"


@dataclass(frozen=True, slots=True)
class Setting:
    """A game, the strategies at seats 1, 2, … and why it was chosen."""

    label: str
    game: str
    opponents: tuple[str, ...]
    why: str


SETTINGS = (
    Setting(
        "Kwartet",
        "kwartet(players=3,kinds=5)",
        ("greedy", "silent"),
        "three players and five kinds (20 cards): short games, so thousands of training "
        "games per seed are affordable, and there is still much to know (who was "
        "asked for what, who must hold a card of a kind); the learner plays against the "
        "2020 report's greedy and silent agents",
    ),
    Setting(
        "Klaverjas",
        "klaverjas(deals=1)",
        ("tactics", "tactics", "tactics"),
        "one deal of the Amsterdam rules (32 cards, 8 tricks): the shortest full Klaverjas "
        "game; the learner's partner (seat 2) and both opponents play the 2017 report's "
        "card-play tactics on exact knowledge (`tactics`); a win is a deal in which the "
        "learner's team scores more points than the other team (a tie counts a half)",
    ),
)


@dataclass(frozen=True, slots=True)
class TrainingTask:
    """One run: train at seat 0 of `game` on `observation`, then evaluate.

    Attributes:
        setting: the setting's label.
        game: the game string.
        opponents: strategies at seats 1, 2, ….
        observation: `hand` or `knowledge`.
        seed: the run's seed.
        episodes: training games.
        evaluation: evaluation games.
        lr: the learner's step size.
    """

    setting: str
    game: str
    opponents: tuple[str, ...]
    observation: str
    seed: int
    episodes: int
    evaluation: int
    lr: float

    @property
    def key(self) -> str:
        """A file name that names every parameter of the run."""
        game = "".join(c if c.isalnum() else "_" for c in self.game)
        return (
            f"{game}-{'_'.join(self.opponents)}-{self.observation}-s{self.seed}"
            f"-n{self.episodes}-e{self.evaluation}-lr{self.lr}"
        )


@dataclass(frozen=True, slots=True)
class TrainingOutcome:
    """What one run measured: seat 0's return and win share per game (see `win_share`)."""

    task: TrainingTask
    returns: list[float]
    wins: list[float]
    eval_returns: list[float]
    eval_wins: list[float]

    def to_json(self) -> str:
        """The outcome as JSON (`from_json` reads it back)."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> TrainingOutcome:
        """The outcome written by `to_json`."""
        data = json.loads(text)
        task = data.pop("task")
        task["opponents"] = tuple(task["opponents"])
        return cls(TrainingTask(**task), **data)


#: Trains and evaluates one run (a picklable top-level function, for worker processes).
Trainer = Callable[[TrainingTask], TrainingOutcome]

#: Student's t 97.5% quantiles by degrees of freedom (the interval of a mean over seeds).
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228)


def t_quantile(df: int) -> float:
    """Student's t 97.5% quantile for `df` degrees of freedom (the normal one past 10)."""
    return _T975[df - 1] if df <= len(_T975) else Z95


def seed_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean of per-seed values with its 95% t interval (no width for one seed)."""
    x = np.asarray(values, dtype=np.float64)
    mean = float(x.mean())
    if len(x) < 2:
        return mean, mean, mean
    half = t_quantile(len(x) - 1) * float(x.std(ddof=1)) / math.sqrt(len(x))
    return mean, mean - half, mean + half


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file beside it, so no half file is seen."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@dataclass(frozen=True, slots=True)
class LearningExperiment:
    """An experiment that trains learners rather than playing one tournament.

    Attributes:
        name: the command-line name.
        title: one line.
        games: training games per run at full size (`--games` changes it).
        settings: the games and opponents.
        seeds: one run per seed, setting and observation.
        lr: the learner's step size.
    """

    name: str
    title: str
    games: int
    settings: tuple[Setting, ...] = SETTINGS
    seeds: tuple[int, ...] = SEEDS
    lr: float = LR
    remarks: tuple[str, ...] = field(default=())

    def stem(self, games: int) -> str:
        """The report's file name without `.md`: the name, `-n<games>` at another size."""
        return self.name if games == self.games else f"{self.name}-n{games}"

    def tasks(self, games: int) -> list[TrainingTask]:
        """Every run at `games` training games: per setting and seed, both observations and
        the untrained policy (no training, evaluated as often)."""
        evaluation = max(1, games // EVALUATION_SHARE)
        out = []
        for setting in self.settings:
            for seed in self.seeds:
                for observation, episodes in [(o, games) for o in OBSERVATIONS] + [(UNTRAINED, 0)]:
                    out.append(
                        TrainingTask(
                            setting.label,
                            setting.game,
                            setting.opponents,
                            observation,
                            seed,
                            episodes,
                            evaluation,
                            self.lr,
                        )
                    )
        return out

    def run(
        self,
        trainer: Trainer,
        games: int | None,
        out: Path,
        runs: Path,
        jobs: int = 1,
        say: Callable[[str], None] = lambda _: None,
    ) -> list[Path]:
        """Run what is not in `runs` yet (a directory of finished runs), then write the
        report and its plot into `out`; the files written.

        Args:
            trainer: `epigames.adapters.reinforce.run_task`, or another with its shape.
            games: training games per run (None: `self.games`).
            out: the report's directory.
            runs: where each finished run is kept (resumes an interrupted experiment).
            jobs: worker processes (1: in this process).
            say: called with a line per finished run.
        """
        size = self.games if games is None else games
        tasks = self.tasks(size)
        done: dict[TrainingTask, TrainingOutcome] = {}
        for task in tasks:
            path = runs / f"{task.key}.json"
            if path.exists():
                done[task] = TrainingOutcome.from_json(path.read_text(encoding="utf-8"))
        todo = [task for task in tasks if task not in done]

        def keep(outcome: TrainingOutcome) -> None:
            done[outcome.task] = outcome
            path = runs / f"{outcome.task.key}.json"
            write_atomically(path, outcome.to_json().encode())
            say(f"{len(done)}/{len(tasks)} runs: {outcome.task.key}")

        if jobs <= 1 or len(todo) <= 1:
            for task in todo:
                keep(trainer(task))
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = [pool.submit(trainer, task) for task in todo]
                for future in as_completed(futures):
                    keep(future.result())
        outcomes = [done[task] for task in tasks]
        command = f"epigames experiment {self.name}" + (
            f" --games {size}" if size != self.games else ""
        )
        stem = out / self.stem(size)
        report = stem.with_suffix(".md")
        plot = stem.with_suffix(".png")
        write_atomically(plot, figure(outcomes, size))
        write_atomically(report, markdown(self, outcomes, size, command, plot.name).encode())
        return [report, plot]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _group(
    outcomes: Sequence[TrainingOutcome], setting: str, observation: str
) -> list[TrainingOutcome]:
    return [o for o in outcomes if o.task.setting == setting and o.task.observation == observation]


@dataclass(frozen=True, slots=True)
class Rate:
    """Evaluation numbers of one setting and observation, pooled over seeds."""

    games: int
    wins: float
    low: float
    high: float
    mean_return: float
    return_half: float
    per_seed: tuple[float, ...]

    @property
    def rate(self) -> float:
        """The win rate."""
        return self.wins / self.games


def evaluation_rate(group: Sequence[TrainingOutcome]) -> Rate:
    """Win rate (Wilson 95%) and mean return (normal 95%) over every evaluation game."""
    wins = [w for o in group for w in o.eval_wins]
    returns = np.asarray([r for o in group for r in o.eval_returns], dtype=np.float64)
    low, high = wilson_interval(sum(wins), len(wins))
    half = Z95 * float(returns.std(ddof=1)) / math.sqrt(len(returns)) if len(returns) > 1 else 0.0
    per_seed = tuple(sum(o.eval_wins) / len(o.eval_wins) for o in group)
    return Rate(len(wins), sum(wins), low, high, float(returns.mean()), half, per_seed)


def _compare(a_name: str, a: tuple[float, float], b_name: str, b: tuple[float, float]) -> str:
    """Which of two 95% intervals (low, high) lies above the other, or that they overlap."""
    if a[0] > b[1]:
        return f"{a_name} is above {b_name}: the 95% intervals do not overlap"
    if b[0] > a[1]:
        return f"{b_name} is above {a_name}: the 95% intervals do not overlap"
    return (
        f"the 95% intervals of {a_name} and {b_name} overlap: no difference is shown at this size"
    )


def _wins(rate: Rate) -> tuple[float, float]:
    return rate.low, rate.high


def _returns(rate: Rate) -> tuple[float, float]:
    return rate.mean_return - rate.return_half, rate.mean_return + rate.return_half


def _show_wins(rate: Rate) -> str:
    return f"{_pct(rate.rate)} ({_pct(rate.low)}–{_pct(rate.high)})"


def _show_returns(rate: Rate) -> str:
    low, high = _returns(rate)
    return f"{rate.mean_return:.2f} ({low:.2f}–{high:.2f})"


def reading(outcomes: Sequence[TrainingOutcome], setting: Setting) -> list[str]:
    """Sentences on one setting, computed from the evaluation numbers: win rates, then mean
    returns (which still separate policies where almost no game is won)."""
    hand = evaluation_rate(_group(outcomes, setting.label, "hand"))
    knowledge = evaluation_rate(_group(outcomes, setting.label, "knowledge"))
    untrained = evaluation_rate(_group(outcomes, setting.label, UNTRAINED))
    out = []
    for what, interval, shown in (
        ("win rate", _wins, _show_wins),
        ("mean return", _returns, _show_returns),
    ):
        out.append(
            f"{setting.label}, {what} after training: `knowledge` {shown(knowledge)}, "
            f"`hand` {shown(hand)}; "
            + _compare("`knowledge`", interval(knowledge), "`hand`", interval(hand))
            + "."
        )
        for name, rate in (("`hand`", hand), ("`knowledge`", knowledge)):
            out.append(
                f"{setting.label}, {what} of {name} against the untrained policy "
                f"({shown(untrained)}): "
                + _compare(name, interval(rate), "untrained", interval(untrained))
                + "."
            )
    seeds = len(hand.per_seed)
    better = sum(k > h for k, h in zip(knowledge.per_seed, hand.per_seed, strict=True))
    worse = sum(k < h for k, h in zip(knowledge.per_seed, hand.per_seed, strict=True))
    out.append(
        f"{setting.label}, seed by seed (the same evaluation deals for both observations): "
        f"`knowledge` won more often on {better} of {seeds} seeds, `hand` on {worse}"
        + (f", equally on {seeds - better - worse}" if seeds - better - worse else "")
        + "."
    )
    return out


def markdown(
    exp: LearningExperiment,
    outcomes: Sequence[TrainingOutcome],
    games: int,
    command: str,
    plot: str,
) -> str:
    """The Markdown report of the runs."""
    evaluation = outcomes[0].task.evaluation
    lines = [
        f"# Experiment `{exp.name}`",
        "",
        f"{exp.title}.",
        "",
        "- Learner: a linear softmax policy over the legal actions, trained by REINFORCE "
        f"(step size {exp.lr}, a running-mean baseline, one update per game) at seat 0 of "
        "the PettingZoo environment (`epigames.adapters.reinforce`).",
        "- Observations: `hand` (the seat's cards and the public state) and `knowledge` "
        "(the same, plus for every card the possible holders and their exact probabilities).",
        f"- Seeds: {', '.join(map(str, exp.seeds))}; per seed and observation {games:,} "
        f"training games, then {evaluation:,} evaluation games with the weights fixed (the "
        "policy still draws its actions); the untrained policy (zero weights: uniform over "
        "the legal actions) plays the same evaluation games.",
        f"- Reproduce: `{command}`",
        "",
        "## Settings",
        "",
    ]
    for setting in exp.settings:
        lines.append(
            f"- {setting.label}: `{setting.game}`, the learner at seat 0, "
            + ", ".join(f"seat {i} `{o}`" for i, o in enumerate(setting.opponents, 1))
            + f"; {setting.why}."
        )
    lines += [
        "",
        "## Evaluation",
        "",
        "Win rate: a win shared by k seats (or teams) counts 1/k; Wilson 95% interval over "
        "all evaluation games of all seeds. Mean return: seat 0's points per game "
        "(Kwartet: kinds laid down; Klaverjas: the team's points of the deal), normal 95% "
        "interval.",
        "",
    ]
    rows = []
    for setting in exp.settings:
        for observation in (*OBSERVATIONS, UNTRAINED):
            r = evaluation_rate(_group(outcomes, setting.label, observation))
            rows.append(
                (
                    setting.label,
                    observation,
                    f"{r.games:,}",
                    f"{_pct(r.rate)} ({_pct(r.low)}–{_pct(r.high)})",
                    f"{r.mean_return:.2f} ± {r.return_half:.2f}",
                    ", ".join(_pct(x) for x in r.per_seed),
                )
            )
    lines += markdown_table(
        ("setting", "policy", "games", "win rate (95% CI)", "mean return", "win rate per seed"),
        "llrlll",
        rows,
    )
    lines += [
        "",
        "## Learning curves",
        "",
        f"![learning curves]({plot})",
        "",
        "Seat 0's mean return per block of training games (drawing from the policy as it "
        "learns; a return rather than a win rate, since against these agents few games are "
        "won); the line is the mean over seeds, the band its 95% t interval over seeds; the "
        "dashed line is the untrained policy's mean return in the evaluation games.",
        "",
        "| setting | policy | mean return, first block | last block (95% CI over seeds) |",
        "|---|---|---:|---|",
    ]
    for setting in exp.settings:
        for observation in OBSERVATIONS:
            _, mean, low, high = curve(_group(outcomes, setting.label, observation))
            if len(mean):
                lines.append(
                    f"| {setting.label} | {observation} | {mean[0]:.2f} | "
                    f"{mean[-1]:.2f} ({low[-1]:.2f}–{high[-1]:.2f}) |"
                )
    lines += ["", "## Reading", ""]
    for setting in exp.settings:
        lines += [f"- {sentence}" for sentence in reading(outcomes, setting)]
    lines += [f"- {remark}" for remark in exp.remarks]
    lines += [
        "",
        "_Generated by `epigames experiment`; every number above is computed from the runs._",
        "",
    ]
    return "\n".join(lines)


def curve(
    group: Sequence[TrainingOutcome],
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Games played, the mean return per block (mean over seeds), and its 95% t interval."""
    episodes = len(group[0].returns) if group else 0
    size = max(1, episodes // CURVE_POINTS)
    n = episodes // size
    if n == 0:
        empty = np.zeros(0)
        return empty, empty, empty, empty
    per_seed = np.asarray([o.returns[: n * size] for o in group]).reshape(len(group), n, size)
    blocks = per_seed.mean(axis=2)
    x = np.arange(1, n + 1) * size
    stats = [seed_interval(blocks[:, i]) for i in range(n)]
    mean, low, high = (np.asarray(column) for column in zip(*stats, strict=True))
    return x, mean, low, high


def figure(outcomes: Sequence[TrainingOutcome], games: int) -> bytes:
    """The learning curves as PNG: a panel per setting, both observations."""
    import io

    from epigames.tournament.extras import import_extra

    matplotlib = import_extra("matplotlib", "tournament", "plots need")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    settings = list(dict.fromkeys(o.task.setting for o in outcomes))
    fig, axes = plt.subplots(1, len(settings), figsize=(5.5 * len(settings), 4), squeeze=False)
    for ax, label in zip(axes[0], settings, strict=True):
        for observation, color in zip(OBSERVATIONS, ("tab:blue", "tab:orange"), strict=True):
            x, mean, low, high = curve(_group(outcomes, label, observation))
            ax.plot(x, mean, marker="o", markersize=3, color=color, label=observation)
            ax.fill_between(x, low, high, color=color, alpha=0.2)
        base = evaluation_rate(_group(outcomes, label, UNTRAINED))
        ax.axhline(base.mean_return, color="grey", linestyle="--", label="untrained")
        game = outcomes[[o.task.setting for o in outcomes].index(label)].task.game
        ax.set_title(f"{label}: {game}", fontsize=10)
        ax.set_xlabel("training games")
        ax.set_ylabel("mean return of seat 0 per block")
        ax.legend(fontsize=8)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return buffer.getvalue()


EXPERIMENT = LearningExperiment(
    NAME,
    TITLE,
    GAMES,
    remarks=(
        "The policy is linear in the observation: what it can learn from the knowledge "
        "vector is what a weighted sum of its entries shows, so this measures what the "
        "exact knowledge gives a simple learner, not what it could give a deep one.",
    ),
)
