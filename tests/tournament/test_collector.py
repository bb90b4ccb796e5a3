"""Tournament workers play with the collector tuned for games (`backend.tune_collector`)."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from epigames.tournament import TournamentStore, run_tournament
from epigames.tournament.backend import GAME_THRESHOLDS
from epigames.tournament.synthetic import SyntheticResult, synthetic_match
from tests.tournament.helpers import fake_config


def threshold_match(game: str, strategies: Sequence[str], seed: int) -> SyntheticResult:
    """`synthetic_match`, its move count the collector's first threshold where it ran."""
    result = synthetic_match(game, strategies, seed)
    return SyntheticResult(result.returns, result.winners, gc.get_threshold()[0])


def test_tune_collector_freezes_what_is_alive_and_raises_the_thresholds() -> None:
    code = (
        "import gc; from epigames.tournament import backend as b; "
        "before = gc.get_threshold(); b.tune_collector(); "
        "print(before != b.GAME_THRESHOLDS, gc.get_threshold() == b.GAME_THRESHOLDS, "
        "gc.get_freeze_count() > 1000)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True", "True"]


def test_worker_processes_play_with_the_tuned_collector(tmp_path: Path) -> None:
    config = fake_config(games=40)
    with TournamentStore.open(tmp_path / "t.duckdb") as store:
        run_tournament(config, store, jobs=2, match=threshold_match)
        moves = {row.moves for row in store.rows(config.name)}
    assert moves == {GAME_THRESHOLDS[0]}
