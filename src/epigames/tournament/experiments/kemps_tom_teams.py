"""`kemps-tom-teams`: a `tom` pair against a `kbgreedy` pair and a `greedy` pair in the team
game, with `tom`'s team play (issue 39): it completes a four of a kind in view, signals and
calls Stop Kemps on what the opponents can know, asked of the card engine.

One tournament per opponent: `kemps(teams=true)` (four seats, partners opposite, a table
of four, the first team to 3 wins), seats rotated with partners kept together. The report
gives both pairs' mean team score and the `tom` pair's win rate with 95% intervals, and a
plot of the two (`kemps-tom-teams.png` / `.svg` beside the report).
"""

from __future__ import annotations

from pathlib import Path

from epigames.tournament.config import TournamentConfig, checked_config
from epigames.tournament.experiments.base import Suite
from epigames.tournament.experiments.kemps_tom import Words, opponents_report
from epigames.tournament.extras import import_extra
from epigames.tournament.seeds import ROTATE
from epigames.tournament.stats import Line, Summary

NAME = "kemps-tom-teams"
GAME = "kemps(teams=true,max_turns=10000)"
#: Even: both seatings of the teams equally often.
GAMES = 5_000
SEED = 2039
OPPONENTS = ("kbgreedy", "greedy")
TITLE = "Kemps team game: tom's team play, a tom pair against a kbgreedy and a greedy pair"


def tournament_configs(games: int = GAMES) -> list[TournamentConfig]:
    """One tournament per opponent (`kemps-tom-teams-kbgreedy`, …), `-n<games>` for a size
    other than `GAMES`."""
    suffix = "" if games == GAMES else f"-n{games}"
    return [
        checked_config(
            GAME,
            ("tom", opponent, "tom", opponent),
            games,
            seed=SEED,
            seat_scheme=ROTATE,
            name=f"{NAME}-{opponent}{suffix}",
        )
        for opponent in OPPONENTS
    ]


def _pair(summary: Summary, strategy: str) -> Line:
    return next(line for line in summary.team_lineups if line.label == f"{strategy}+{strategy}")


def _stem(summaries: dict[str, Summary]) -> str:
    """The report's file name without its suffix, as `epigames experiment` names it."""
    games = {s.config.games for s in summaries.values()}
    return NAME if games == {GAMES} else f"{NAME}-n{games.pop()}"


def report(summaries: dict[str, Summary], command: str) -> str:
    """Per opponent: both pairs' mean team score, the tom pair's win rate, capped games and
    the verdict; the reading; the plot; how to reproduce it."""
    picture = f"![Mean team score and win rate of each pair, 95% intervals]({_stem(summaries)}.png)"
    return opponents_report(
        f"# {NAME}: {TITLE}", Words.of(NAME, GAME), _pair, summaries, command,
        opponents=OPPONENTS, figure=picture,
    )  # fmt: skip


def figures(summaries: dict[str, Summary], stem: Path) -> list[Path]:
    """The plot: per opponent, both pairs' mean team score (normal 95% interval) and the
    `tom` pair's win rate (Wilson 95% interval), as `stem`.png and `stem`.svg."""
    matplotlib = import_extra("matplotlib", "tournament", "plots need")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (scores, wins) = plt.subplots(1, 2, figsize=(9, 3.8))
    x = list(range(len(OPPONENTS)))
    for shift, who, color in ((-0.18, "tom", "tab:blue"), (0.18, None, "tab:orange")):
        lines = [
            _pair(summary, who or opponent)
            for opponent, summary in zip(OPPONENTS, summaries.values(), strict=True)
        ]
        means = [line.mean_return for line in lines]
        errors = [
            [line.mean_return - line.return_low for line in lines],
            [line.return_high - line.mean_return for line in lines],
        ]
        label = "tom pair" if who else "opponent pair"
        scores.bar(
            [i + shift for i in x], means, 0.36, yerr=errors, capsize=5, color=color, label=label
        )
    scores.set_xticks(x, [f"vs {o} pair" for o in OPPONENTS])
    scores.set_ylabel("mean team score (95% CI)")
    scores.legend(fontsize=8)
    toms = [_pair(s, "tom") for s in summaries.values()]
    rates = [100 * line.win_rate for line in toms]
    errors = [
        [100 * (line.win_rate - line.win_low) for line in toms],
        [100 * (line.win_high - line.win_rate) for line in toms],
    ]
    wins.bar(x, rates, 0.5, yerr=errors, capsize=5, color="tab:blue")
    wins.axhline(50, color="grey", linestyle="--", linewidth=1, label="fair share 50%")
    for i, rate in enumerate(rates):
        wins.annotate(f"{rate:.1f}%", (i, rate / 4), ha="center", color="white", fontsize=9)
    wins.set_xticks(x, [f"vs {o} pair" for o in OPPONENTS])
    wins.set_ylim(0, 105)
    wins.set_ylabel("tom pair's win rate, % (Wilson 95% CI)")
    wins.legend(fontsize=8, loc="lower right")
    games = ", ".join(f"{s.games:,}" for s in summaries.values())
    fig.suptitle(f"{GAME}: a tom pair, seats rotated ({games} games)", fontsize=10)
    fig.tight_layout()
    written = []
    for ext in ("png", "svg"):
        path = stem.with_name(f"{stem.name}.{ext}")
        fig.savefig(path, dpi=110)
        written.append(path)
    plt.close(fig)
    return written


#: The report (`report`) and its plot (`figures`).
SUITE = Suite(NAME, TITLE, GAMES, tournament_configs, report, figures)
