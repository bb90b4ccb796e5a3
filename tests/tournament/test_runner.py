"""The runner: injected match functions, workers, resumption, failures, real games."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from epigames.tournament import (
    MatchFailedError,
    TournamentStore,
    checked_config,
    load_summary,
    run_tournament,
)
from epigames.tournament.synthetic import SyntheticResult, synthetic_match
from tests.tournament.helpers import SMALL_GAME, fake_config, run_fake


def _keys(path: Path, name: str = "t") -> list[tuple[object, ...]]:
    with TournamentStore.open(path, read_only=True) as store:
        return [row.key() for row in store.rows(name)]


def test_one_and_two_workers_identical(tmp_path: Path) -> None:
    config = fake_config(games=300)
    run_fake(tmp_path / "one.duckdb", config, jobs=1)
    run_fake(tmp_path / "two.duckdb", config, jobs=2)
    one, two = _keys(tmp_path / "one.duckdb"), _keys(tmp_path / "two.duckdb")
    assert len(one) == 300 and one == two
    assert load_summary(str(tmp_path / "one.duckdb")) == load_summary(str(tmp_path / "two.duckdb"))


def test_resume_plays_only_missing_games(tmp_path: Path) -> None:
    full, part = tmp_path / "full.duckdb", tmp_path / "part.duckdb"
    run_fake(full, fake_config(games=100))
    # A run that stored some games out of order, as an interrupted parallel run would.
    with TournamentStore.open(full, read_only=True) as store:
        some = [r for r in store.rows("t") if r.index % 3 == 0]
    with TournamentStore.open(part) as store:
        store.prepare(fake_config(games=100))
        store.write("t", some)
    calls: list[int] = []

    def counting(game: str, names: Sequence[str], seed: int) -> SyntheticResult:
        calls.append(seed)
        return synthetic_match(game, names, seed)

    with TournamentStore.open(part) as store:
        report = run_tournament(fake_config(games=100), store, jobs=1, match=counting)
    assert report.played == len(calls) == 100 - len(some)
    assert _keys(part) == _keys(full)


def test_failed_match_keeps_finished_games(tmp_path: Path) -> None:
    def breaks_at_40(game: str, names: Sequence[str], seed: int) -> SyntheticResult:
        from epigames.tournament import game_seed

        if seed == game_seed(7, 40):
            raise RuntimeError("boom")
        return synthetic_match(game, names, seed)

    path = tmp_path / "r.duckdb"
    with TournamentStore.open(path) as store:
        with pytest.raises(MatchFailedError, match=r"game 40 .* RuntimeError: boom"):
            run_tournament(fake_config(games=100), store, jobs=1, match=breaks_at_40)
        stored = store.count("t")
    assert 0 < stored < 100 and 40 not in {k[0] for k in _keys(path)}


def test_real_kwartet_random_players(tmp_path: Path) -> None:
    config = checked_config(SMALL_GAME, ["random"] * 3, 60, seed=3, name="t")
    path = tmp_path / "k.duckdb"
    with TournamentStore.open(path) as store:
        report = run_tournament(config, store, jobs=2)
    assert report.played == report.stored == 60
    from epigames.games import play_match
    from epigames.tournament import game_seed

    rows = {k[0]: k for k in _keys(path)}
    for i in (0, 31, 59):
        result = play_match(SMALL_GAME, rows[i][2], game_seed(3, i))  # type: ignore[arg-type]
        assert rows[i][3:] == (result.returns, result.winners, result.moves, result.capped)
    summary = load_summary(str(path))
    assert summary.complete and summary.strategies[0].games == 180
    assert summary.strategies[0].fractional_wins == pytest.approx(60)
