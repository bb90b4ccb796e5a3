"""The kemps-tom experiment: its tournaments and its report from their summaries."""

from __future__ import annotations

from pathlib import Path

from epigames.tournament import TournamentStore, run_tournament, summarize
from epigames.tournament.experiments import experiment
from epigames.tournament.experiments.kemps_tom import OPPONENTS, SUITE, tournament_configs


def test_one_rotated_tournament_per_opponent() -> None:
    configs = tournament_configs()
    assert experiment("kemps-tom") is SUITE
    assert [c.strategies for c in configs] == [("tom", o, o) for o in OPPONENTS]
    assert all(c.games >= 5_000 and c.games % 6 == 0 and c.seat_scheme == "rotate" for c in configs)
    assert tournament_configs(3)[0].name == "kemps-tom-greedy-n3"


def test_report_from_a_few_games(tmp_path: Path) -> None:
    summaries = {}
    with TournamentStore.open(tmp_path / "k.duckdb") as store:
        for config in tournament_configs(3):
            run_tournament(config, store, jobs=1)
            summaries[config.name] = summarize(config, store.seat_records(config.name))
    text = SUITE.markdown(summaries, "epigames experiment kemps-tom --games 3")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split(" | ")[0] for row in rows[1:]] == [f"| {o}" for o in OPPONENTS]
    assert all(row.split(" | ")[1] == "3" for row in rows[1:])
    for opponent, summary in zip(OPPONENTS, summaries.values(), strict=True):
        tom = next(line for line in summary.strategies if line.label == "tom")
        assert f"{100 * tom.win_rate:.1f}%" in text and f"Against `{opponent}`" in text
    assert text.endswith("Reproduce: `epigames experiment kemps-tom --games 3`\n")
