"""Shared helpers for the tournament tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from epigames.tournament import TournamentConfig, TournamentStore, run_tournament
from epigames.tournament.synthetic import synthetic_match

#: A real game that plays in milliseconds with the `random` strategy.
SMALL_GAME = "kwartet(players=3,kinds=4,ask_own=true)"


def fake_config(games: int = 60, name: str = "t", scheme: str = "rotate") -> TournamentConfig:
    """A tournament for the synthetic match function (no registry check)."""
    return TournamentConfig(
        name=name,
        game="fake",
        strategies=("a", "b", "strong"),
        games=games,
        seed=7,
        seat_scheme=scheme,
    )


def run_fake(path: Path, config: TournamentConfig, jobs: int = 1) -> None:
    """Play a synthetic tournament into `path`."""
    with TournamentStore.open(path) as store:
        run_tournament(config, store, jobs=jobs, match=synthetic_match)


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run `epigames ARGS` in a subprocess, as a user would."""
    return subprocess.run(
        [sys.executable, "-c", "from epigames.cli import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "120"},
        check=False,
    )
