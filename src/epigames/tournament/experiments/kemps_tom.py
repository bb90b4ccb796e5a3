"""`kemps-tom`: the higher-order agent `tom` against each of the 2023 report's strategies.

One tournament per opponent: `tom` and two players of the opponent's strategy at the
three seats of the 52-card game, seats rotated (every block of three games puts `tom` at
each seat once). `tom` beats an opponent when its mean number of Kemps per game is above
the opponent's with the two 95% intervals apart; its win rate against the fair 1/3 is
given beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from epigames.tournament.config import TournamentConfig, checked_config
from epigames.tournament.experiments.base import (
    ExperimentDataError,
    Suite,
    data_table,
    experiment_data,
    markdown_table,
)
from epigames.tournament.seeds import ROTATE
from epigames.tournament.stats import Line, Summary

NAME = "kemps-tom"
GAME = "kemps(max_turns=10000)"
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


@dataclass(frozen=True, slots=True)
class Words:
    """What a report of one tournament per opponent says in its own words.

    They are data: `[opponents.<suite>]` in `experiments.toml` (`Words.of`).

    Attributes:
        intro: the paragraph under the heading.
        columns: the table's, one per value of a row (see `opponents_report`).
        sentence: the reading of one opponent's tournament, a `str.format` template:
            `{opponent}`, `{more}` (the `tom` side's mean score less the opponent's),
            `{wins}` (the `tom` side's win rate).
    """

    intro: str
    columns: tuple[str, ...]
    sentence: str

    @classmethod
    def of(cls, suite: str, game: str) -> Words:
        """The words of `suite` in the experiments file, its intro naming `game`.

        Raises:
            ExperimentDataError: the suite has no words there, or they do not fit the
                report (a key or placeholder it does not know).
        """
        where = f"[opponents.{suite}]"
        opponents = experiment_data().get("opponents")
        given = opponents.get(suite) if isinstance(opponents, dict) else None
        if given is None:
            raise ExperimentDataError(f"the experiments file has no {where}")
        table = data_table(given, where, {"intro": str, "columns": list, "sentence": str})
        if len(table["columns"]) != len(_ALIGN):
            raise ExperimentDataError(f"{where}: columns must name {len(_ALIGN)} columns")
        try:
            intro = table["intro"].format(game=game)
            table["sentence"].format(opponent="", more=0.0, wins=0.0)
        except (KeyError, IndexError, ValueError) as exc:
            raise ExperimentDataError(
                f"{where}: a template the report cannot fill ({type(exc).__name__}: {exc})"
            ) from None
        return cls(intro, tuple(table["columns"]), table["sentence"])


#: How the table's columns align: opponent, games, both sides' means, tom's win rate,
#: capped games, the verdict.
_ALIGN = "lrlllrl"


def opponents_report(
    heading: str,
    words: Words,
    line_of: Callable[[Summary, str], Line],
    summaries: dict[str, Summary],
    command: str,
    *,
    opponents: tuple[str, ...] = OPPONENTS,
    figure: str = "",
) -> str:
    """A report of one tournament per opponent: a row per opponent (games, both sides'
    means, tom's win rate, capped games, the verdict), then the reading, the `words`'
    sentence and the notes per opponent, `figure` (a Markdown image, if any), and how to
    reproduce it. `line_of(summary, strategy)` is a side's line. A suite binds all but
    `summaries` and `command` (`Suite.markdown`)."""
    rows = []
    reading = []
    for opponent, summary in zip(opponents, summaries.values(), strict=True):
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
        more = tom.mean_return - other.mean_return
        reading.append(words.sentence.format(opponent=opponent, more=more, wins=tom.win_rate))
        reading += [f"Note ({opponent}): {note}" for note in summary.notes]
    return "\n".join(
        [
            heading,
            "",
            words.intro,
            "",
            *markdown_table(words.columns, _ALIGN, rows),
            "",
            *(f"- {sentence}" for sentence in reading),
            "",
            *([figure, ""] if figure else []),
            f"Reproduce: `{command}`",
            "",
        ]
    )


def opponents_suite(
    name: str,
    title: str,
    game: str,
    games: int,
    configs: Callable[[int], list[TournamentConfig]],
    line_of: Callable[[Summary, str], Line],
) -> Suite:
    """A suite of one tournament of `game` per opponent, reported by `opponents_report`.

    The report says what the experiments file gives `name` to say (`Words.of`).
    """
    report = partial(opponents_report, f"# {name}: {title}", Words.of(name, game), line_of)
    return Suite(name, title, games, configs, report)


#: The report (`opponents_report`): per opponent, both sides' mean Kemps with intervals,
#: tom's win rate, capped games and the verdict, each computed from the stored games.
SUITE = opponents_suite(NAME, TITLE, GAME, GAMES, tournament_configs, _line)
