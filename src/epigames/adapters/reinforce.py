"""A small learner for the PettingZoo environment: a linear softmax policy trained by REINFORCE.

`train(game, observation, episodes, opponents, seed)` puts the learner at seat 0 of
`epigames.adapters.pettingzoo.env(game, observation)` against built-in strategies at the
other seats (by name, as `epigames play` takes them), updates it after every game, then
plays `evaluation` games with the trained policy held fixed. Everything is drawn from
generators seeded by `seed`, so one seed gives the same numbers in any process. numpy only.

`epigames experiment rl-knowledge` runs it on the `hand` and the `knowledge`
observations (`run_task` is its worker); `examples/rl_knowledge.py` plots one run.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from epigames.games import Strategy, load_game, make_strategy
from epigames.tournament.experiments.rl_knowledge import UNTRAINED, TrainingOutcome, TrainingTask

Array = npt.NDArray[np.float64]
#: One decision of the learner: features, action index, its distribution, reward after it.
Step = tuple[Array, int, Array, float]

#: The evaluation games draw from `numpy.random.SeedSequence([seed, EVALUATE, ...])`, apart
#: from the training games (game `i` is dealt from `seed * 1_000_003 + i`), so the
#: evaluation deals do not depend on how long the learner trained, and are the same for
#: both observations.
EVALUATE = 1


class LinearPolicy:
    """A masked softmax over actions of a linear function of the observation; REINFORCE.

    Args:
        inputs: length of the observation vector.
        actions: size of the action space.
        lr: step size; each step is divided by the squared length of the features, so a
            longer observation does not make a larger step.
        rng: draws the actions.
    """

    def __init__(self, inputs: int, actions: int, lr: float, rng: np.random.Generator) -> None:
        self.weights: Array = np.zeros((actions, inputs + 1))
        self.lr = lr
        self.rng = rng
        self.baseline = 0.0

    def probabilities(self, x: Array, mask: npt.NDArray[Any]) -> Array:
        """The policy's distribution over the actions (zero where `mask` is 0)."""
        logits = self.weights @ np.append(x, 1.0)
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return np.asarray(p / p.sum(), dtype=np.float64)

    def act(self, x: Array, mask: npt.NDArray[Any]) -> tuple[int, Array]:
        """Sample an action; also return its distribution, for the update."""
        p = self.probabilities(x, mask)
        return int(self.rng.choice(len(p), p=p)), p

    def update(self, steps: Sequence[Step]) -> None:
        """One REINFORCE step per decision of a game, with the reward that followed it.

        The advantage is the reward to go minus a running mean of it (the baseline).
        """
        to_go = 0.0
        for x, action, p, reward in reversed(steps):
            to_go += reward
            advantage = to_go - self.baseline
            self.baseline += 0.001 * (to_go - self.baseline)
            grad = -p
            grad[action] += 1.0
            features = np.append(x, 1.0)
            step = self.lr / float(features.dot(features))
            self.weights += step * advantage * np.outer(grad, features)


@dataclass(frozen=True, slots=True)
class Training:
    """What `train` measured.

    Attributes:
        returns: seat 0's return in every training game, in order.
        wins: seat 0's win in every training game: 1, 0, or 1/k for a win shared by k
            seats (or teams; partners win together).
        eval_returns: seat 0's return in every evaluation game.
        eval_wins: seat 0's win in every evaluation game.
        policy: the trained policy.
    """

    returns: list[float]
    wins: list[float]
    eval_returns: list[float]
    eval_wins: list[float]
    policy: LinearPolicy


def win_share(returns: Sequence[float], teams: Sequence[Sequence[int]], seat: int) -> float:
    """`seat`'s share of the win: 1/k if its team is among the k teams with the most."""
    totals = [returns[team[0]] for team in teams]
    best = max(totals)
    winners = [team for team, total in zip(teams, totals, strict=True) if total == best]
    return 1.0 / len(winners) if any(seat in team for team in winners) else 0.0


def _seed(*entropy: int) -> int:
    return int(np.random.SeedSequence(list(entropy)).generate_state(1)[0])


def _strategies(game: str, opponents: Sequence[str], seed: int) -> dict[int, Strategy]:
    rng = random.Random(seed)
    return {
        seat: make_strategy(game, name, random.Random(rng.random()))
        for seat, name in enumerate(opponents, start=1)
    }


def _episode(
    environment: Any,
    policy: LinearPolicy,
    strategies: dict[int, Strategy],
    seed: int,
) -> tuple[list[Step], float, float]:
    """One game with the learner at seat 0: its decisions, return and win share."""
    raw = environment.unwrapped
    agent = raw.possible_agents[0]
    environment.reset(seed=seed)
    steps: list[Step] = []
    total = 0.0
    for current in environment.agent_iter():
        obs, reward, termination, truncation, _ = environment.last()
        if current == agent:
            total += reward
            if steps:  # what the learner's last decision led to, up to this one
                x, a, p, _ = steps[-1]
                steps[-1] = (x, a, p, reward)
        if termination or truncation:
            environment.step(None)
            continue
        if current == agent:
            x = obs["observation"].astype(np.float64)
            action, p = policy.act(x, obs["action_mask"])
            steps.append((x, action, p, 0.0))
        else:
            seat = raw.possible_agents.index(current)
            choice = strategies[seat].choose(raw.state.observation(seat)).action
            action = raw.actions.index(choice)
        environment.step(action)
    win = win_share(raw.state.returns(), raw.game.teams, 0)
    return steps, total, win


def train(
    game: str,
    observation: str,
    episodes: int,
    opponents: Sequence[str],
    seed: int,
    lr: float = 0.1,
    evaluation: int = 0,
) -> Training:
    """Train the learner at seat 0 for `episodes` games, then evaluate it for `evaluation`.

    Args:
        game: a game string, e.g. `kwartet(players=3,kinds=5)`.
        observation: `hand` or `knowledge`.
        episodes: training games (one update after each).
        opponents: strategy names for seats 1, 2, ….
        seed: fixes the deals, the opponents' and the learner's draws.
        lr: the policy's step size.
        evaluation: games played afterwards with the policy fixed (still sampling).

    Raises:
        InputError: a bad game string, observation or strategy name.
    """
    from epigames.adapters.pettingzoo import env as make_env

    name = load_game(game).name
    environment: Any = make_env(game, observation)
    agent = environment.unwrapped.possible_agents[0]
    size = environment.observation_space(agent)["observation"].shape[0]
    actions = environment.action_space(agent).n
    policy = LinearPolicy(size, actions, lr, np.random.default_rng(seed))
    strategies = _strategies(name, opponents, seed)
    returns, wins = [], []
    for episode in range(episodes):
        steps, total, win = _episode(environment, policy, strategies, seed * 1_000_003 + episode)
        policy.update(steps)
        returns.append(total)
        wins.append(win)
    trained_rng = policy.rng
    policy.rng = np.random.default_rng(_seed(seed, EVALUATE))
    strategies = _strategies(name, opponents, _seed(seed, EVALUATE, 1))
    eval_returns, eval_wins = [], []
    for number in range(evaluation):
        _, total, win = _episode(environment, policy, strategies, _seed(seed, EVALUATE, 2, number))
        eval_returns.append(total)
        eval_wins.append(win)
    policy.rng = trained_rng
    return Training(returns, wins, eval_returns, eval_wins, policy)


def run_task(task: TrainingTask) -> TrainingOutcome:
    """Train and evaluate one run of `epigames experiment rl-knowledge` (the untrained
    policy's runs use the `hand` observation: with zero weights it draws uniformly)."""
    done = train(
        task.game,
        "hand" if task.observation == UNTRAINED else task.observation,
        task.episodes,
        task.opponents,
        task.seed,
        task.lr,
        task.evaluation,
    )
    return TrainingOutcome(task, done.returns, done.wins, done.eval_returns, done.eval_wins)


def blocks(values: Sequence[float], size: int) -> tuple[Array, Array]:
    """The mean of each whole block of `size` values, at the block's last game."""
    n = len(values) // size
    means = np.asarray(values[: n * size], dtype=np.float64).reshape(n, size).mean(axis=1)
    return np.arange(1, n + 1, dtype=np.float64) * size, means
