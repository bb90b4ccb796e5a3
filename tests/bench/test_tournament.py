"""`epigames bench tournament`: its rows, and a peak memory that is the measured process's own."""

from __future__ import annotations

import pytest

from epigames.bench import tournament as bench
from tests.bench.helpers import quick_run

pytest.importorskip("duckdb")


def test_quick_run_prints_the_runner_rows_and_both_memory_measures() -> None:
    _, text = quick_run(lambda console, quick, seed_programs: bench.run(console, quick))
    for label in (
        "plain loop (baseline)",
        "runner, 2 workers",
        "peak RSS, N=1,000 (synthetic)",
        "peak RSS, N=40 (real)",
        "peak RSS, N=400 (real)",
    ):
        assert label in " ".join(text.split())


def test_the_peak_memory_is_not_the_starting_process_s() -> None:
    """Linux carries a process's peak RSS (ru_maxrss) over an exec: a measuring process
    started by one that holds 400 MB would report at least that much."""
    held = bytearray(400 * 2**20)
    held[::4096] = b"x" * len(held[::4096])  # touch every page: resident, not just mapped
    measured = bench._memory(10)
    assert 0 < measured["self_kb"] < 300 * 1024
    assert measured["stored"] == 10
    del held
