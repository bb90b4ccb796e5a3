"""`epigames experiment --backend ray` writes the report the local backend writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.helpers import cli

#: A few games of the cheapest experiment: enough for both backends to share the work.
ARGS = ("experiment", "quartet-2023", "--games", "6", "-j", "2")


def test_address_needs_the_ray_backend(tmp_path: Path) -> None:
    result = cli(*ARGS, "--address", "127.0.0.1:6379", "--db", str(tmp_path / "e.duckdb"))
    assert result.returncode == 2 and "--address needs --backend ray" in result.stderr
    assert not (tmp_path / "e.duckdb").exists()


def test_experiment_on_ray_writes_the_local_report(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    reports = {}
    for backend in ("local", "ray"):
        out = tmp_path / backend
        db = str(tmp_path / f"{backend}.duckdb")
        result = cli(*ARGS, "--backend", backend, "--db", db, "--out", str(out))
        assert result.returncode == 0, result.stderr
        assert f"({backend})" in " ".join(result.stderr.split())
        reports[backend] = (out / "quartet-2023-n6.md").read_text(encoding="utf-8")
    # Seeds come from the experiment's seed and the game index only: same games, same report.
    assert reports["ray"] == reports["local"]
