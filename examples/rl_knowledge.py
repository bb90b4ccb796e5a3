"""Train a small agent on Kwartet with and without its exact knowledge, and plot both curves.

The agent sits at seat 0 of a PettingZoo environment (`epigames.adapters.pettingzoo`)
against built-in strategies and learns a linear softmax policy over the legal actions
with REINFORCE (numpy only). It is trained twice from the same seeds: once on the
`hand` observation (its seat, its cards and the public state: whose turn, hand sizes,
points, the kinds laid down) and once on the `knowledge` observation (the hand plus, for
every card, the holders it may be with and their exact probabilities).
The plot shows the mean return per block of games for both. The learner is the
package's (`epigames.adapters.reinforce`); `epigames experiment rl-knowledge` trains it
on Kwartet and Klaverjas over several seeds and reports win rates with 95% intervals
(docs/results/rl-knowledge*.md).

    python examples/rl_knowledge.py --out rl_knowledge.png

About a minute of CPU time with the defaults (1,500 games per observation); needs
`pip install -e ".[rl,tournament]"` (matplotlib for the plot).
"""

from __future__ import annotations

import argparse
import time

from epigames.adapters import reinforce
from epigames.adapters.reinforce import blocks


def train(
    game: str, observation: str, episodes: int, opponents: list[str], seed: int, lr: float
) -> list[float]:
    """Train the package's learner (`epigames.adapters.reinforce`) at seat 0; the return of
    every game, in order."""
    return reinforce.train(game, observation, episodes, opponents, seed, lr).returns


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
