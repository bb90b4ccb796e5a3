"""The kemps-2023 experiment: the program's nine line-ups, fixed seats, and the report that
puts its numbers beside ours."""

from __future__ import annotations

from pathlib import Path

from epigames.tournament import TournamentStore, run_tournament, summarize
from epigames.tournament.experiments import experiment, kemps_2023
from epigames.tournament.experiments.kemps_2023 import LINEUPS, agree
from epigames.tournament.stats import Line


def test_nine_lineups_in_fixed_seats_at_the_programs_size() -> None:
    configs = kemps_2023.tournament_configs()
    assert experiment("kemps-2023") is kemps_2023.SUITE
    assert len(configs) == len(LINEUPS) == 9
    assert len({lineup.strategies for lineup in LINEUPS}) == 9
    assert all(c.games >= 7_000 and c.seat_scheme == "fixed" for c in configs)
    assert [c.strategies for c in configs] == [lineup.strategies for lineup in LINEUPS]
    assert kemps_2023.tournament_configs(4)[0].name == "kemps-2023-greedy-n4"
    # Every game of the program gives out all nine Kemps or stops at the turn cap (the
    # means are rounded to three places).
    assert all(sum(lineup.means) <= 9.0015 for lineup in LINEUPS)


def _line(mean: float, half: float) -> Line:
    return Line("s", 100, 0, 0, 0.0, 0.0, 0.0, 0.0, mean, mean - half, mean + half, 0.0)


def test_agreement_is_within_the_interval_of_the_difference() -> None:
    # Two intervals of half-width 0.03 and 0.04: the difference's is 0.05.
    assert agree(_line(3.0, 0.03), 3.049, 0.04)
    assert not agree(_line(3.0, 0.03), 3.051, 0.04)
    assert agree(_line(3.0, 0.03), 2.951, 0.04)


def test_report_from_a_few_games(tmp_path: Path) -> None:
    summaries = {}
    with TournamentStore.open(tmp_path / "k.duckdb") as store:
        for config in kemps_2023.tournament_configs(2):
            run_tournament(config, store, jobs=1)
            summaries[config.name] = summarize(config, store.seat_records(config.name))
    text = kemps_2023.SUITE.markdown(summaries, "epigames experiment kemps-2023 --games 2")
    comparison, differences = text.split("## What differs from the program")
    rows = [line for line in comparison.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 1 + 3 * len(LINEUPS)
    assert rows[1].startswith("| Greedy | 1: greedy | 3.053 (3.031–3.075) | ")
    # The rule table's last row is the blocking line-up of this run, under our rules.
    lines = differences.splitlines()
    ours = next(line for line in lines if line.startswith("| ours | refused | ours | afresh | "))
    assert ours.endswith("(2 games, above) |")
    # Then the program under our rules beside ours, three seats per measured line-up.
    program = [line for line in lines if line.startswith("| ") and " 1: " in line]
    assert len(program) == len(kemps_2023.PROGRAM_OURS_RULES)
    assert "Reproduce: `epigames experiment kemps-2023 --games 2`" in text
