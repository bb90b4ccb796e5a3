"""`epigames experiment rl-knowledge` on a few games: the report names both observations,
and a second run reads the kept runs instead of training again."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("matplotlib")

from typer.testing import CliRunner

from epigames.cli import app
from epigames.tournament.experiments import experiment, rl_knowledge
from epigames.tournament.experiments.rl_knowledge import (
    OBSERVATIONS,
    UNTRAINED,
    TrainingOutcome,
    seed_interval,
)


def test_the_experiment_trains_both_observations_per_setting_and_seed() -> None:
    exp = experiment("rl-knowledge")
    assert exp is rl_knowledge.EXPERIMENT and len(exp.seeds) >= 3
    tasks = exp.tasks(8)
    assert {t.setting for t in tasks} == {"Kwartet", "Klaverjas"}
    assert {t.observation for t in tasks} == {*OBSERVATIONS, UNTRAINED}
    assert len(tasks) == len(exp.settings) * len(exp.seeds) * 3
    assert all(t.episodes == (0 if t.observation == UNTRAINED else 8) for t in tasks)
    assert len({t.key for t in tasks}) == len(tasks)


def test_seed_interval_is_a_t_interval() -> None:
    mean, low, high = seed_interval([0.1, 0.2, 0.3])
    assert mean - low == pytest.approx(high - mean)
    assert mean == pytest.approx(0.2) and high - mean == pytest.approx(4.303 * 0.1 / 3**0.5)
    assert seed_interval([0.5]) == (0.5, 0.5, 0.5)


def test_a_tiny_run_writes_the_report_and_resumes(tmp_path: Path) -> None:
    args = ["experiment", "rl-knowledge", "--games", "4", "-j", "1"]
    args += ["--db", str(tmp_path / "e.duckdb"), "--out", str(tmp_path / "out")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = tmp_path / "out" / "rl-knowledge-n4.md"
    text = report.read_text(encoding="utf-8")
    for word in ("| Kwartet | hand |", "| Kwartet | knowledge |", "| Klaverjas | hand |"):
        assert word in text
    assert "| Klaverjas | knowledge |" in text and "| Klaverjas | untrained |" in text
    assert "Reproduce: `epigames experiment rl-knowledge --games 4`" in text
    assert (tmp_path / "out" / "rl-knowledge-n4.png").stat().st_size > 1000
    kept = sorted((tmp_path / "e.rl").glob("*.json"))
    assert len(kept) == len(rl_knowledge.EXPERIMENT.tasks(4))
    outcome = TrainingOutcome.from_json(kept[0].read_text(encoding="utf-8"))
    assert outcome.task.key == kept[0].stem
    times = [path.stat().st_mtime_ns for path in kept]
    report.unlink()
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    assert [path.stat().st_mtime_ns for path in kept] == times
    assert report.read_text(encoding="utf-8") == text
