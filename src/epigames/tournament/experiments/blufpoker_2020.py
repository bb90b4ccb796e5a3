"""The report's experiment (`blufpoker-2020`): nine configurations, its losses, our report.

Each configuration seats two strategies as players 1 and 2 and a third as player 3: the
report's `knowledge` agent, then our `bayes`. The report published losses per player
over 10,000 games for `knowledge`; `comparison_markdown` puts ours beside them.

`SUITE` runs it as 18 stored tournaments (`epigames experiment blufpoker-2020`):
`tournaments()` lists them and `losses_from_seats` turns per-seat win counts into losses.
The runner is not needed to use this: `run_configuration` plays the games with
`play_match`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from epigames.tournament.config import TournamentConfig, checked_config
from epigames.tournament.experiments.base import Suite
from epigames.tournament.seeds import FIXED
from epigames.tournament.stats import Z95, Line, Summary, wilson_interval

NAME = "blufpoker-2020"
GAME = "blufpoker(players=3,penalties=5)"
GAMES = 10_000
SEED = 2020
#: Player 3 of every configuration: the report's agent, then ours.
THIRD_PLAYERS = ("knowledge", "bayes")


@dataclass(frozen=True, slots=True)
class Configuration:
    """Players 1 and 2 of one configuration and the losses the report published.

    Attributes:
        player1: strategy of seat 0 (moves first).
        player2: strategy of seat 1.
        published: the report's losses of players 1, 2, 3 (player 3 `knowledge`).
    """

    player1: str
    player2: str
    published: tuple[int, int, int]

    def strategies(self, third: str) -> tuple[str, str, str]:
        """The three seats' strategies with `third` as player 3."""
        return (self.player1, self.player2, third)


CONFIGURATIONS: tuple[Configuration, ...] = (
    Configuration("knowledge", "knowledge", (3467, 3254, 3279)),
    Configuration("random/truthful/random", "greedy/overbid/believe", (2646, 6457, 897)),
    Configuration("greedy/overbid/believe", "random/truthful/random", (381, 9337, 282)),
    Configuration("lowest/truthful/believe", "greedy/overbid/believe", (1686, 8305, 9)),
    Configuration("lowest/truthful/never", "greedy/overbid/never", (4036, 5959, 5)),
    Configuration("random/truthful/random", "greedy/truthful/believe", (1863, 3064, 5073)),
    Configuration("knowledge", "greedy/truthful/believe", (2414, 1049, 6537)),
    Configuration("greedy/truthful/random", "greedy/truthful/random", (2855, 3022, 4123)),
    Configuration("random/overbid/random", "random/overbid/random", (3479, 5534, 987)),
)

Losses = tuple[int, int, int]
"""Games lost by players 1, 2, 3."""
#: (configuration index, player 3) → (games played, losses of players 1, 2, 3).
Results = Mapping[tuple[int, str], tuple[int, Losses]]


def tournaments() -> list[tuple[str, int, str, tuple[str, str, str]]]:
    """The 18 tournaments: `(name, configuration index, player 3, strategies)`.

    Names look like `blufpoker-2020-c7-bayes` (configurations numbered from 1).
    """
    return [
        (f"{NAME}-c{i + 1}-{third}", i, third, config.strategies(third))
        for i, config in enumerate(CONFIGURATIONS)
        for third in THIRD_PLAYERS
    ]


def run_configuration(index: int, third: str, games: int = GAMES, seed: int = SEED) -> Losses:
    """Play one configuration with `play_match` (match seeds `seed * 100_000 + i`)."""
    # Inside the function: the tournament layer loads the games only when it plays them.
    from epigames.games.match import play_match

    strategies = CONFIGURATIONS[index].strategies(third)
    losses = [0, 0, 0]
    for i in range(games):
        result = play_match(GAME, strategies, seed * 100_000 + i)
        losses[result.returns.index(-1.0)] += 1
    return (losses[0], losses[1], losses[2])


def losses_from_seats(seats: Iterable[Line]) -> tuple[int, Losses]:
    """Games and losses per seat from per-seat summary lines (in seat order).

    Blufpoker has one loser and two winners per game, so a seat's losses are its games
    minus its wins, outright or shared.
    """
    lines = list(seats)
    losses = [line.games - line.wins - line.ties for line in lines]
    return lines[0].games, (losses[0], losses[1], losses[2])


def _triple(losses: Losses) -> str:
    return " / ".join(str(n) for n in losses)


def _rate(k: int, n: int) -> str:
    low, high = wilson_interval(k, n)
    return f"{100 * k / n:.1f}% ({100 * low:.1f}–{100 * high:.1f})"


def published_agrees(ours: int, n: int, theirs: int, m: int) -> bool:
    """Whether two loss counts (of `n` and `m` games) differ by less than the 95% interval
    of a difference of two independent proportions allows (both samples' error)."""
    p, q = ours / n, theirs / m
    return abs(p - q) <= Z95 * math.sqrt(p * (1 - p) / n + q * (1 - q) / m)


def comparison_markdown(results: Results) -> str:
    """The Markdown report: published losses, ours with `knowledge` and with `bayes`.

    `results` needs both player 3s for every configuration. Every sentence of the
    reading is computed from the numbers.

    Raises:
        KeyError: a configuration or player 3 is missing from `results`.
    """
    lines = [
        f"# {NAME}: Blufpoker, the report's nine configurations",
        "",
        f"Game `{GAME}`; losses of players 1 / 2 / 3. The report played 10,000 games per "
        "configuration with its `knowledge` agent as player 3; we play the same with the "
        "report's agent (bugs fixed) and then with `bayes`. Rates are player 3's losses "
        "with 95% Wilson intervals.",
        "",
        "| # | player 1 | player 2 | published | ours, knowledge | ours, bayes "
        "| P3 loses: knowledge | P3 loses: bayes | bayes better? |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    better, reading = 0, []
    for i, config in enumerate(CONFIGURATIONS):
        n_k, know = results[(i, "knowledge")]
        n_b, bayes = results[(i, "bayes")]
        k_low, k_high = wilson_interval(know[2], n_k)
        b_low, b_high = wilson_interval(bayes[2], n_b)
        if b_high < k_low:
            verdict, better = "yes", better + 1
        elif b_low > k_high:
            verdict = "no"
            reading.append(f"Configuration {i + 1}: `bayes` loses more often than `knowledge`.")
        else:
            verdict = "tie (intervals overlap)"
            reading.append(
                f"Configuration {i + 1}: `bayes` and `knowledge` lose about as often "
                "(their intervals overlap)."
            )
        published_rate = config.published[2] / GAMES
        low, high = wilson_interval(config.published[2], GAMES)
        if not published_agrees(know[2], n_k, config.published[2], GAMES):
            side = "above" if published_rate > know[2] / n_k else "below"
            reading.append(
                f"Configuration {i + 1}: the report's `knowledge` lost {100 * published_rate:.1f}% "
                f"({100 * low:.1f}–{100 * high:.1f}% over its {GAMES:,} games), {side} our "
                f"{100 * k_low:.1f}–{100 * k_high:.1f}%: more than chance allows."
            )
        lines.append(
            f"| {i + 1} | {config.player1} | {config.player2} | {_triple(config.published)} "
            f"| {_triple(know)} | {_triple(bayes)} | {_rate(know[2], n_k)} "
            f"| {_rate(bayes[2], n_b)} | {verdict} |"
        )
    lines += [
        "",
        f"`bayes` loses significantly less often than `knowledge` in {better} of "
        f"{len(CONFIGURATIONS)} configurations.",
        "",
        *(f"- {sentence}" for sentence in reading),
        "",
        "Differences from the report's program: its bugs are fixed (a die compared with "
        "itself, poker bluffs not higher than the bid, wrong visible dice after a greedy "
        "6-6-6 roll), a bid is called impossible only when no world consistent with the "
        "visible dice reaches it, and an opening bid is true by rule.",
    ]
    return "\n".join(lines) + "\n"


def tournament_configs(games: int = GAMES) -> list[TournamentConfig]:
    """The 18 tournaments as checked configurations of `games` games each.

    A size other than the report's gets its own names (`blufpoker-2020-c1-knowledge-n500`),
    so runs of different sizes never mix in one results file.
    """
    suffix = "" if games == GAMES else f"-n{games}"
    return [
        checked_config(GAME, strategies, games, seed=SEED, seat_scheme=FIXED, name=name + suffix)
        for name, _, _, strategies in tournaments()
    ]


def suite_markdown(summaries: dict[str, Summary], command: str) -> str:
    """`comparison_markdown` from the tournaments' summaries, with the command to reproduce it.

    `summaries` come in the order of `tournament_configs`, which is that of `tournaments()`.
    """
    results = {
        (index, third): losses_from_seats(summary.seats)
        for (_, index, third, _), summary in zip(tournaments(), summaries.values(), strict=True)
    }
    return comparison_markdown(results) + f"\nReproduce: `{command}`\n"


TITLE = "Blufpoker, the report's nine configurations, knowledge and bayes as player 3"
SUITE = Suite(NAME, TITLE, GAMES, tournament_configs, suite_markdown)
