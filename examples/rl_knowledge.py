"""Train a small agent on Kwartet with and without its exact knowledge, and plot both curves.

The agent sits at seat 0 of a PettingZoo environment (`epigames.adapters.pettingzoo`)
against built-in strategies and learns a linear softmax policy over the legal actions
with REINFORCE (numpy only). It is trained twice from the same seeds: once on the
`hand` observation (its seat, its cards and the public state: whose turn, hand sizes,
points, the kinds laid down) and once on the `knowledge` observation (the hand plus, for
every card, the holders it may be with and their exact probabilities).
The plot shows the mean return per block of games for both.

    python examples/rl_knowledge.py --out rl_knowledge.png

About a minute of CPU time with the defaults (1,500 games per observation); needs
`pip install -e ".[rl,tournament]"` (matplotlib for the plot).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from epigames.adapters.pettingzoo import env as make_env
from epigames.games import make_strategy

Array = npt.NDArray[np.float64]


class LinearPolicy:
    """Masked softmax over actions of a linear function of the observation; REINFORCE."""

    def __init__(self, inputs: int, actions: int, lr: float, rng: np.random.Generator) -> None:
        self.weights = np.zeros((actions, inputs + 1))
        self.lr = lr
        self.rng = rng
        self.baseline = 0.0

    def probabilities(self, x: Array, mask: Array) -> Array:
        """The policy's distribution over the legal actions."""
        logits = self.weights @ np.append(x, 1.0)
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return np.asarray(p / p.sum())

    def act(self, x: Array, mask: Array) -> tuple[int, Array]:
        """Sample an action; also return its probabilities for the update."""
        p = self.probabilities(x, mask)
        return int(self.rng.choice(len(p), p=p)), p

    def update(self, steps: list[tuple[Array, int, Array, float]]) -> None:
        """One REINFORCE step per decision, with the reward that followed it (to go)."""
        to_go = 0.0
        for x, action, p, reward in reversed(steps):
            to_go += reward
            advantage = to_go - self.baseline
            self.baseline += 0.001 * (to_go - self.baseline)
            grad = -p
            grad[action] += 1.0
            features = np.append(x, 1.0)
            # Divided by the squared length, so a longer observation is not a larger step.
            step = self.lr / features.dot(features)
            self.weights += step * advantage * np.outer(grad, features)


def train(
    game: str, observation: str, episodes: int, opponents: list[str], seed: int, lr: float
) -> list[float]:
    """Train at seat 0; the return of every game, in order."""
    environment: Any = make_env(game, observation)
    environment.reset(seed=seed)
    raw = environment.unwrapped
    agent = raw.possible_agents[0]
    size = environment.observation_space(agent)["observation"].shape[0]
    policy = LinearPolicy(size, environment.action_space(agent).n, lr, np.random.default_rng(seed))
    rng = random.Random(seed)
    strategies = {
        seat: make_strategy(raw.game.name, name, random.Random(rng.random()))
        for seat, name in enumerate(opponents, start=1)
    }
    returns = []
    for episode in range(episodes):
        environment.reset(seed=seed * 1_000_003 + episode)
        steps: list[tuple[Array, int, Array, float]] = []
        total = 0.0
        for current in environment.agent_iter():
            obs, reward, termination, truncation, _ = environment.last()
            if current == agent:
                total += reward
                if steps:  # what the agent's last decision led to, up to this one
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
                view = raw.state.observation(seat)
                choice = strategies[seat].choose(view).action
                action = raw.actions.index(choice)
            environment.step(action)
        policy.update(steps)
        returns.append(total)
    return returns


def blocks(values: list[float], size: int) -> tuple[Array, Array]:
    """Mean of each block of `size` games, at the block's last game."""
    n = len(values) // size
    means = np.asarray(values[: n * size]).reshape(n, size).mean(axis=1)
    return np.arange(1, n + 1) * size, means


def main() -> None:
    """Train on both observations and plot the learning curves."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kwartet(players=3,kinds=3)")
    parser.add_argument("--opponents", default="random,random", help="strategies, seats 1..")
    parser.add_argument("--episodes", type=int, default=1500)
    parser.add_argument("--block", type=int, default=150, help="games per point of the curve")
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="rl_knowledge.png")
    args = parser.parse_args()
    opponents = args.opponents.split(",")
    curves = {}
    for observation in ("hand", "knowledge"):
        start = time.process_time()
        returns = train(args.game, observation, args.episodes, opponents, args.seed, args.lr)
        curves[observation] = blocks(returns, args.block)
        first, last = curves[observation][1][0], curves[observation][1][-1]
        print(
            f"{observation:9}: mean return {first:.3f} in the first {args.block} games, "
            f"{last:.3f} in the last {args.block} ({time.process_time() - start:.0f} s CPU)"
        )
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for observation, (x, y) in curves.items():
        ax.plot(x, y, marker="o", markersize=3, label=f"observation={observation}")
    ax.set_xlabel("games played")
    ax.set_ylabel(f"mean return per game (blocks of {args.block})")
    ax.set_title(f"{args.game} at seat 0 vs {', '.join(opponents)}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
