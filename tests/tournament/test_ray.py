"""The Ray backend stores exactly the games the local backend stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from epigames.tournament import TournamentStore, checked_config, load_summary, run_tournament
from tests.tournament.helpers import SMALL_GAME

pytest.importorskip("ray")


def test_local_and_ray_identical(tmp_path: Path) -> None:
    config = checked_config(SMALL_GAME, ["random"] * 3, 240, seed=5, name="t")
    keys = {}
    for backend in ("local", "ray"):
        path = tmp_path / f"{backend}.duckdb"
        with TournamentStore.open(path) as store:
            report = run_tournament(config, store, jobs=2, backend=backend)
            assert report.stored == 240
            keys[backend] = [row.key() for row in store.rows("t")]
    assert keys["local"] == keys["ray"]
    assert load_summary(str(tmp_path / "local.duckdb")) == load_summary(
        str(tmp_path / "ray.duckdb")
    )
    import ray

    assert not ray.is_initialized()  # the backend shut down the Ray it started
