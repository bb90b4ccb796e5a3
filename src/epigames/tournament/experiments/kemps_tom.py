"""`kemps-tom`: the higher-order agent `tom` against each of the 2023 report's strategies.

One tournament per opponent: `tom` and two players of the opponent's strategy at the
three seats of the 52-card game, seats rotated (every block of three games puts `tom` at
each seat once). `tom` beats an opponent when its mean number of Kemps per game is above
the opponent's with the two 95% intervals apart; its win rate against the fair 1/3 is
given beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from epigames.tournament.config import TournamentConfig, checked_config
from epigames.tournament.experiments.base import Suite, markdown_table
from epigames.tournament.seeds import ROTATE
from epigames.tournament.stats import Line, Summary

NAME = "kemps-tom"
GAME = "kemps"
#: A multiple of six: every seating of the rotation cycle equally often.
GAMES = 5_004
SEED = 2026
OPPONENTS = ("greedy", "kbgreedy", "blocking")
TITLE = "Kemps, 3 players: tom against two greedy, two kbgreedy or two blocking players"


def tournament_configs(games: int = GAMES) -> list[TournamentConfig]:
    """One tournament per opponent, `tom` and two of it (`kemps-tom-greedy`, …)."""
    return opponent_configs(NAME, GAME, lambda opponent: ("tom", opponent, opponent), games, GAMES)


def opponent_configs(
    name: str, game: str, lineup: Callable[[str], tuple[str, ...]], games: int, full: int
) -> list[TournamentConfig]:
    """One rotated tournament of `game` per opponent, seated by `lineup(opponent)`, named
    `<name>-<opponent>` (and `-n<games>` for a size other than the `full` one)."""
    suffix = "" if games == full else f"-n{games}"
    return [
        checked_config(
            game,
            lineup(opponent),
            games,
            seed=SEED,
            seat_scheme=ROTATE,
            name=f"{name}-{opponent}{suffix}",
        )
        for opponent in OPPONENTS
    ]


def _verdict(tom: Line, other: Line) -> str:
    """Whether `tom`'s mean return is above `other`'s with the two 95% intervals apart."""
    if tom.return_low > other.return_high:
        return "yes"
    if tom.return_high < other.return_low:
        return "no, it loses"
    return "not shown (intervals overlap)"


def _line(summary: Summary, strategy: str) -> Line:
    return next(line for line in summary.strategies if line.label == strategy)


def _mean(line: Line) -> str:
    """A line's mean return with its 95% interval."""
    return f"{line.mean_return:.3f} ({line.return_low:.3f}–{line.return_high:.3f})"


INTRO = (
    f"Game `{GAME}` (52 cards, 6 on the table, at most 10,000 turns). Each tournament "
    "seats `tom` and two players of one strategy, seats rotated; a seat's return is its "
    "number of Kemps. Intervals are 95%: normal for the mean Kemps per game (the "
    "opponent's over both of its seats), Wilson for the win rate (a tie among k "
    "winners counts 1/k; a fair share is 1/3)."
)
HEADER = (
    "opponent | games | tom: Kemps per game | opponent: Kemps per seat | "
    "tom's win rate | capped games | tom beats it?"
)


def _sentence(opponent: str, tom: Line, other: Line) -> str:
    return (
        f"Against `{opponent}`: `tom` scores {tom.mean_return - other.mean_return:+.3f} "
        f"Kemps per game more than each `{opponent}` player and wins "
        f"{100 * tom.win_rate:.1f}% of the games (fair share 33.3%)."
    )


def opponents_report(
    heading: str,
    intro: str,
    header: str,
    line_of: Callable[[Summary, str], Line],
    sentence: Callable[[str, Line, Line], str],
    summaries: dict[str, Summary],
    command: str,
) -> str:
    """A report of one tournament per opponent: a row per opponent (games, both sides'
    means, tom's win rate, capped games, the verdict), then the reading, one `sentence`
    and the notes per opponent, and how to reproduce it. `line_of(summary, strategy)` is
    a side's line. A suite binds all but the last two (`Suite.markdown`)."""
    rows = []
    reading = []
    for opponent, summary in zip(OPPONENTS, summaries.values(), strict=True):
        tom, other = line_of(summary, "tom"), line_of(summary, opponent)
        rows.append(
            (
                opponent,
                summary.games,
                _mean(tom),
                _mean(other),
                f"{100 * tom.win_rate:.1f}% ({100 * tom.win_low:.1f}–{100 * tom.win_high:.1f}%)",
                summary.capped_games,
                _verdict(tom, other),
            )
        )
        reading.append(sentence(opponent, tom, other))
        reading += [f"Note ({opponent}): {note}" for note in summary.notes]
    return "\n".join(
        [
            heading,
            "",
            intro,
            "",
            *markdown_table(header.split(" | "), "lrlllrl", rows),
            "",
            *(f"- {sentence}" for sentence in reading),
            "",
            f"Reproduce: `{command}`",
            "",
        ]
    )


#: The report (`opponents_report`): per opponent, both sides' mean Kemps with intervals,
#: tom's win rate, capped games and the verdict, each computed from the stored games.
SUITE = Suite(
    NAME,
    TITLE,
    GAMES,
    tournament_configs,
    partial(opponents_report, f"# {NAME}: {TITLE}", INTRO, HEADER, _line, _sentence),
)
