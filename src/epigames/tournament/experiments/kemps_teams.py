"""`kemps-teams`: a `tom` pair against a pair of each of the 2023 report's strategies in the
team game.

One tournament per opponent: `kemps(teams=true)` (four seats, partners opposite, a table
of four, the first team to 3 wins), a `tom` pair against a pair of the opponent's
strategy, seats rotated with partners kept together. The report's strategies signal as
soon as they hold four of a kind and call "Kemps!" on their partner's signal; `tom` does
too, and calls "Stop Kemps" when the chance that an opponent holds four of a kind
(exact, from what it knows) is above 1/3, and does not show a whole four of a kind to
opponents who call Stop Kemps. The pair beats the opponent when its mean team score is
above the other pair's with the two 95% intervals apart.
"""

from __future__ import annotations

from epigames.tournament.config import TournamentConfig
from epigames.tournament.experiments.kemps_tom import opponent_configs, opponents_suite
from epigames.tournament.stats import Line, Summary

NAME = "kemps-teams"
GAME = "kemps(teams=true,max_turns=10000)"
#: Even: both seatings of the teams equally often.
GAMES = 1_000
SEED = 2026
TITLE = "Kemps team game: a tom pair against a greedy, kbgreedy or blocking pair"


def tournament_configs(games: int = GAMES) -> list[TournamentConfig]:
    """One tournament per opponent (`kemps-teams-greedy`, …)."""
    return opponent_configs(NAME, GAME, lambda o: ("tom", o, "tom", o), games, GAMES)


def _team(summary: Summary, strategy: str) -> Line:
    return next(line for line in summary.team_lineups if line.label == f"{strategy}+{strategy}")


#: The report (`opponents_report`): per opponent, both pairs' mean team score with
#: intervals, the tom pair's win rate, capped games and the verdict.
SUITE = opponents_suite(NAME, TITLE, GAME, GAMES, tournament_configs, _team)
