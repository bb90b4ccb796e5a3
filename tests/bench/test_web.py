"""`epigames bench web`, the tables workload: its quick run against a real server, and how
its report judges the goals.

Only shapes and counts are checked (moves made, every push received once, no error),
never a time.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from epigames.bench import web as bench

pytest.importorskip("uvicorn", reason="the 'web' extra")
pytest.importorskip("websockets.asyncio.client", reason="the 'web' extra")


def markdown_rows(text: str) -> list[list[str]]:
    """The cells of every Markdown table row in `text` (rules left out)."""
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in text.splitlines()
        if line.startswith("| ")
    ]


@pytest.mark.slow
def test_quick_tables_run_pushes_every_move_to_every_client() -> None:
    out = io.StringIO()
    report = bench.run_tables(Console(file=out, width=200), quick=True)
    text = out.getvalue()
    assert report.setting == bench.QUICK
    assert report.errors == 0, report.reasons
    assert report.moves_made > 0
    assert report.pushes_received == report.pushes_expected == 4 * report.moves_made
    assert len(report.pushes.latencies) == 4 * len(report.moves.latencies)
    # Every move's seat asked for its frame first; each table opened once more per ended game.
    assert len(report.frames.latencies) == len(report.moves.latencies)
    assert len(report.opened.latencies) == bench.QUICK.tables + report.games_finished
    assert all(x > 0 for x in report.pushes.latencies)
    assert report.server_cpu > 0 and report.wall > 0
    assert report.rss_start > 0 and len(report.memory) >= 3
    assert all(mb > 0 for _, mb in report.memory)
    rows = markdown_rows(text)
    assert rows[0] == ["tables", "count", "per s", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors"]
    counts = {cells[0]: cells[1] for cells in rows[1:5]}
    assert counts["move (POST, to its answer)"] == f"{report.moves_made:,}"
    assert counts["push (each client, from the move sent)"] == f"{report.pushes_received:,}"
    goals = {cells[0]: cells[1:] for cells in rows[6:]}
    assert rows[5] == ["goal", "measured", "met"] and len(goals) == 4
    assert goals["0 errors"] == ["0", "met"]
    received = f"{report.pushes_received:,}"
    assert goals["every push received"] == [f"{received} of {received}", "met"]
    assert all(cells[1] in ("met", "not met") for cells in goals.values())


def test_memory_is_flat_within_a_share_or_some_megabytes_of_after_the_warm_up() -> None:
    report = bench.TablesReport(bench.QUICK)
    warm = bench.QUICK.warm_up
    report.memory = [(0.0, 50.0), (warm, 100.0), (warm + 1, 112.0), (warm + 2, 119.0)]
    assert report.rss_after_warm_up == 100.0 and report.rss_end == 119.0
    assert report.flat  # 19 MB more: within 20 MB
    report.memory.append((warm + 3, 121.0))
    assert not report.flat
    report.memory = [(warm, 400.0), (warm + 60, 439.0)]
    assert report.flat  # 39 MB more: within 10% of 400
    assert report.growth_per_minute() == pytest.approx(39.0)
    met = {goal: ok for goal, _, ok in report.goals()}
    assert met["0 errors"] and met["every push received"]  # nothing was moved or pushed


def test_errors_count_in_their_row_and_by_reason() -> None:
    report = bench.TablesReport(bench.QUICK)
    report.moves.add(0.01, True)
    report.fail(report.pushes, "duplicate push")
    report.fail(report.pushes, "duplicate push")
    report.fail(report.moves, "move: 500", 0.02)
    assert report.errors == 3 and report.reasons["duplicate push"] == 2
    assert report.moves_made == 1 and report.pushes_expected == 4
    report.wall = 1.0
    rows = markdown_rows(bench.tables_table(report))
    assert [cells[-1] for cells in rows[1:]] == ["0", "0", "1", "2"]
    goals = markdown_rows(bench.goals_table(report))
    assert goals[2] == ["0 errors", "3", "not met"]
    assert goals[3] == ["every push received", "0 of 4", "not met"]
