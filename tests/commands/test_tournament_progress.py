"""The progress bar's rate: games played in this run over the time since it started."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from epigames.commands.tournament import RunRate, _Bar
from epigames.tournament import TournamentStore, run_tournament
from epigames.tournament.synthetic import synthetic_match
from tests.tournament.helpers import fake_config, run_fake


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_rate_counts_this_run_only_from_its_start() -> None:
    clock = FakeClock()
    bar = _Bar("t", clock=clock)
    bar.start(700, 1000)  # 700 games stored by an earlier run: not part of this rate
    assert bar.rate.per_second() is None
    for _ in range(4):  # batches arriving in bursts, as from several workers at once
        clock.now += 0.5
        bar.advance(25)
        bar.advance(25)
    assert bar.rate.per_second() == 100.0  # 200 games in 2 s
    task = bar.progress.tasks[0]
    columns = [column.render(task).plain for column in bar.progress.columns[3:]]
    assert "  100.0 games/s" in columns
    assert "ETA 0:00:01" in columns  # 100 games left at 100 games/s
    assert "0:00:02" in columns  # elapsed, on the same clock


def test_rate_before_any_game_and_after_time_passes() -> None:
    clock = FakeClock()
    rate = RunRate(clock)
    rate.start()
    rate.advance(10)
    assert rate.per_second() is None  # no time has passed: no honest rate yet
    clock.now += 4
    assert rate.per_second() == 2.5
    assert rate.seconds_left(5) == 2.0


def test_resumed_run_rate_is_games_played_now_over_elapsed(tmp_path: Path) -> None:
    path = tmp_path / "r.duckdb"
    run_fake(path, fake_config(60))
    clock = FakeClock()
    bar = _Bar("t", clock=clock)
    with TournamentStore.open(path) as store:
        report = run_tournament(
            dataclasses.replace(fake_config(60), games=100),
            store,
            jobs=1,
            match=synthetic_match,
            progress=bar,
        )
    assert report.played == 40
    clock.now += 8
    assert bar.rate.played == 40
    assert bar.rate.per_second() == 5.0
    assert bar.progress.tasks[0].completed == 100
