"""Games stopped at a turn cap are stored and summed up apart from finished ones."""

from __future__ import annotations

from pathlib import Path

import duckdb

from epigames.tournament import TournamentStore, checked_config, run_tournament, summarize
from tests.tournament.helpers import fake_config, run_fake


def test_capped_games_are_stored_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "r.duckdb"
    # Three turns are far too few for a 52-card game to end by its rules; 60 are enough
    # for most greedy games of this seed, not for all.
    capped = checked_config("kemps(max_turns=3)", ("greedy",) * 3, 3, seed=1, name="c")
    mixed = checked_config("kemps(max_turns=60)", ("greedy",) * 3, 6, seed=1, name="m")
    with TournamentStore.open(path) as store:
        for config in (capped, mixed):
            run_tournament(config, store, jobs=1)
    with TournamentStore.open(path, read_only=True) as store:
        assert [row.capped for row in store.rows("c")] == [True] * 3
        summary = summarize(capped, store.seat_records("c"))
        assert summary.capped_games == 3 and summary.to_dict()["capped_games"] == 3
        assert any("3 of 3 games stopped at the turn cap" in note for note in summary.notes)
        flags = [row.capped for row in store.rows("m")]
        summary = summarize(mixed, store.seat_records("m"))
    assert True in flags and False in flags
    assert summary.capped_games == flags.count(True)


def test_a_results_file_from_before_the_capped_column(tmp_path: Path) -> None:
    """Read as all finished; opened for writing, the column is added."""
    path = tmp_path / "old.duckdb"
    config = fake_config(games=6)
    run_fake(path, config)
    with duckdb.connect(str(path)) as con:
        con.execute("ALTER TABLE games DROP COLUMN capped")
    with TournamentStore.open(path, read_only=True) as store:
        assert [row.capped for row in store.rows(config.name)] == [False] * 6
        assert summarize(config, store.seat_records(config.name)).capped_games == 0
    with TournamentStore.open(path) as store:
        assert store.count(config.name) == 6
    with duckdb.connect(str(path), read_only=True) as con:
        columns = [r[0] for r in con.execute("DESCRIBE games").fetchall()]
    assert columns[-1] == "capped"
