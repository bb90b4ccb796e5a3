"""The kemps-teams experiment: its tournaments and its report from their summaries."""

from __future__ import annotations

from pathlib import Path

from epigames.tournament import TournamentStore, run_tournament, summarize
from epigames.tournament.experiments import experiment
from epigames.tournament.experiments.kemps_teams import SUITE, tournament_configs
from epigames.tournament.experiments.kemps_tom import OPPONENTS


def test_one_rotated_team_tournament_per_opponent() -> None:
    configs = tournament_configs()
    assert experiment("kemps-teams") is SUITE
    assert [c.strategies for c in configs] == [("tom", o, "tom", o) for o in OPPONENTS]
    assert all(c.games >= 1_000 and c.games % 2 == 0 and c.seat_scheme == "rotate" for c in configs)
    assert all(c.game.startswith("kemps(") and "teams=true" in c.game for c in configs)
    assert tournament_configs(2)[0].name == "kemps-teams-greedy-n2"


def test_report_from_a_few_games(tmp_path: Path) -> None:
    summaries = {}
    with TournamentStore.open(tmp_path / "k.duckdb") as store:
        for config in tournament_configs(2):
            run_tournament(config, store, jobs=1)
            summaries[config.name] = summarize(config, store.seat_records(config.name))
    text = SUITE.markdown(summaries, "epigames experiment kemps-teams --games 2")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split(" | ")[0] for row in rows[1:]] == [f"| {o}" for o in OPPONENTS]
    assert all(row.split(" | ")[1] == "2" for row in rows[1:])
    for opponent, summary in zip(OPPONENTS, summaries.values(), strict=True):
        pair = next(line for line in summary.team_lineups if line.label == "tom+tom")
        assert f"{100 * pair.win_rate:.1f}%" in text and f"Against a `{opponent}` pair" in text
    assert text.endswith("Reproduce: `epigames experiment kemps-teams --games 2`\n")
