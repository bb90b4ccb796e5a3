"""The DuckDB file: schema round trip, refusal of mismatched, foreign and corrupt files."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from epigames.tournament import (
    ConfigMismatchError,
    CorruptFileError,
    ForeignFileError,
    GameRow,
    StoreError,
    TournamentConfig,
    TournamentStore,
    UnknownTournamentError,
)
from tests.tournament.helpers import fake_config, run_fake


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "r.duckdb"
    config = fake_config(games=3)
    rows = [
        GameRow(
            index=0,
            seed=2**62 + 5,
            strategies=("a", "b", "strong"),
            returns=(1.0, 0.5, 3.0),
            winners=(2,),
            moves=17,
            seconds=0.25,
        ),
        GameRow(
            index=2,
            seed=9,
            strategies=("b", "strong", "a"),
            returns=(2.0, 2.0, 0.0),
            winners=(0, 1),
            moves=1,
            seconds=1e-6,
        ),
    ]
    with TournamentStore.open(path) as store:
        store.prepare(config)
        store.write(config.name, rows)
    with TournamentStore.open(path, read_only=True) as store:
        assert store.tournaments() == [config]
        assert store.get() == config
        assert store.rows(config.name) == rows
        assert store.count(config.name) == 2
        assert list(store.done_mask(config.name, 3)) == [True, False, True]
        rec = store.seat_records(config.name)
        assert list(rec["strategy"]) == ["a", "b", "strong", "b", "strong", "a"]
        assert list(rec["won"]) == [False, False, True, True, True, False]
        assert list(rec["n_winners"]) == [1, 1, 1, 2, 2, 2]
        with pytest.raises(UnknownTournamentError, match="no tournament 'x'"):
            store.get("x")


def test_extend_allowed_shrink_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.duckdb"
    run_fake(path, fake_config(games=10))
    run_fake(path, fake_config(games=20))
    with TournamentStore.open(path, read_only=True) as store:
        assert store.count("t") == 20 and store.get("t").games == 20
    with TournamentStore.open(path) as store, pytest.raises(ConfigMismatchError, match="shrunk"):
        store.prepare(fake_config(games=5))


def test_mismatched_config_refused_file_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "r.duckdb"
    run_fake(path, fake_config(games=12))
    before = path.read_bytes()
    other = TournamentConfig(
        name="t", game="fake", strategies=("a", "b", "strong"), games=12, seed=8
    )
    with (
        TournamentStore.open(path) as store,
        pytest.raises(ConfigMismatchError, match="seed: stored 7, asked 8"),
    ):
        store.prepare(other)
    assert path.read_bytes() == before


def test_foreign_duckdb_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "other.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE sales (id INTEGER)")
    con.close()
    before = path.read_bytes()
    with pytest.raises(ForeignFileError, match="not an epigames results file"):
        TournamentStore.open(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "content", [b"", b"hello, I am a text file\n", b"SQLite format 3\x00" * 64]
)
def test_non_duckdb_refused_unchanged(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "x.duckdb"
    path.write_bytes(content)
    with pytest.raises(StoreError):
        TournamentStore.open(path)
    assert path.read_bytes() == content


def test_corrupt_file_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "r.duckdb"
    run_fake(path, fake_config(games=500))
    data = bytearray(path.read_bytes())
    # Overwrite everything after the file and database headers: the blocks fail checksums.
    for i in range(12288, len(data)):
        data[i] = (data[i] * 7 + 13) % 256
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError) as info:
        TournamentStore.open(path)
    assert isinstance(info.value, (CorruptFileError, ForeignFileError))
    assert path.read_bytes() == bytes(data)


def test_missing_file_for_reading(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no results file"):
        TournamentStore.open(tmp_path / "none.duckdb", read_only=True)
    assert not (tmp_path / "none.duckdb").exists()
