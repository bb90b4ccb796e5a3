"""The kemps-tom and kemps-teams experiments: their tournaments and their reports from
the summaries of a few games."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from epigames.tournament import TournamentStore, run_tournament, summarize
from epigames.tournament.experiments import experiment, kemps_teams, kemps_tom
from epigames.tournament.experiments.kemps_tom import OPPONENTS
from epigames.tournament.stats import Line, Summary


def test_tom_against_two_of_each_opponent_rotated() -> None:
    configs = kemps_tom.tournament_configs()
    assert experiment("kemps-tom") is kemps_tom.SUITE
    assert [c.strategies for c in configs] == [("tom", o, o) for o in OPPONENTS]
    assert all(c.games >= 5_000 and c.games % 6 == 0 and c.seat_scheme == "rotate" for c in configs)
    assert kemps_tom.tournament_configs(3)[0].name == "kemps-tom-greedy-n3"


def test_a_tom_pair_against_a_pair_of_each_opponent_rotated() -> None:
    configs = kemps_teams.tournament_configs()
    assert experiment("kemps-teams") is kemps_teams.SUITE
    assert [c.strategies for c in configs] == [("tom", o, "tom", o) for o in OPPONENTS]
    assert all(c.games >= 1_000 and c.games % 2 == 0 and c.seat_scheme == "rotate" for c in configs)
    assert all(c.game.startswith("kemps(") and "teams=true" in c.game for c in configs)
    assert kemps_teams.tournament_configs(2)[0].name == "kemps-teams-greedy-n2"


def _tom(summary: Summary) -> Line:
    return next(line for line in summary.strategies if line.label == "tom")


def _tom_pair(summary: Summary) -> Line:
    return next(line for line in summary.team_lineups if line.label == "tom+tom")


@pytest.mark.parametrize(
    ("module", "games", "tom", "says"),
    [(kemps_tom, 3, _tom, "Against `{}`"), (kemps_teams, 2, _tom_pair, "Against a `{}` pair")],
    ids=["kemps-tom", "kemps-teams"],
)
def test_report_from_a_few_games(
    tmp_path: Path, module: ModuleType, games: int, tom: Callable[[Summary], Line], says: str
) -> None:
    summaries = {}
    with TournamentStore.open(tmp_path / "k.duckdb") as store:
        for config in module.tournament_configs(games):
            run_tournament(config, store, jobs=1)
            summaries[config.name] = summarize(config, store.seat_records(config.name))
    command = f"epigames experiment {module.NAME} --games {games}"
    text = module.SUITE.markdown(summaries, command)
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split(" | ")[0] for row in rows[1:]] == [f"| {o}" for o in OPPONENTS]
    assert all(row.split(" | ")[1] == str(games) for row in rows[1:])
    for opponent, summary in zip(OPPONENTS, summaries.values(), strict=True):
        assert f"{100 * tom(summary).win_rate:.1f}%" in text and says.format(opponent) in text
    assert text.endswith(f"Reproduce: `{command}`\n")
