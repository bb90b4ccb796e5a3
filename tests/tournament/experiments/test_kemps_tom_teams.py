"""The kemps-tom-teams experiment: its tournaments, and its report and plot from the
summaries of a few games."""

from __future__ import annotations

from pathlib import Path

import pytest

from epigames.tournament import TournamentStore, run_tournament, summarize
from epigames.tournament.experiments import experiment, kemps_tom_teams
from epigames.tournament.experiments.kemps_tom_teams import OPPONENTS


def test_a_tom_pair_against_a_kbgreedy_and_a_greedy_pair_rotated() -> None:
    configs = kemps_tom_teams.tournament_configs()
    assert experiment("kemps-tom-teams") is kemps_tom_teams.SUITE
    assert OPPONENTS == ("kbgreedy", "greedy")
    assert [c.strategies for c in configs] == [("tom", o, "tom", o) for o in OPPONENTS]
    assert all(c.games >= 5_000 and c.games % 2 == 0 and c.seat_scheme == "rotate" for c in configs)
    assert all(c.game.startswith("kemps(") and "teams=true" in c.game for c in configs)
    assert kemps_tom_teams.tournament_configs(2)[0].name == "kemps-tom-teams-kbgreedy-n2"


def test_report_and_plot_from_a_few_games(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    games = 2
    summaries = {}
    with TournamentStore.open(tmp_path / "k.duckdb") as store:
        for config in kemps_tom_teams.tournament_configs(games):
            run_tournament(config, store, jobs=1)
            summaries[config.name] = summarize(config, store.seat_records(config.name))
    command = f"epigames experiment kemps-tom-teams --games {games}"
    text = kemps_tom_teams.SUITE.markdown(summaries, command)
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split(" | ")[0] for row in rows[1:]] == [f"| {o}" for o in OPPONENTS]
    assert all(row.split(" | ")[1] == str(games) for row in rows[1:])
    for opponent, summary in zip(OPPONENTS, summaries.values(), strict=True):
        pair = next(line for line in summary.team_lineups if line.label == "tom+tom")
        assert f"{100 * pair.win_rate:.1f}%" in text and f"Against a `{opponent}` pair" in text
    assert "](kemps-tom-teams-n2.png)" in text
    assert text.endswith(f"Reproduce: `{command}`\n")
    figures = kemps_tom_teams.SUITE.figures
    assert figures is not None
    written = figures(summaries, tmp_path / "kemps-tom-teams-n2")
    assert [p.name for p in written] == ["kemps-tom-teams-n2.png", "kemps-tom-teams-n2.svg"]
    assert all(p.stat().st_size > 1000 for p in written)
