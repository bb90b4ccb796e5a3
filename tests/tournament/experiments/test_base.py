"""The reports' experiments: configurations, refusal when strategies are missing, the report."""

from __future__ import annotations

import numpy as np
import pytest

from epigames.games import strategies_for
from epigames.tournament import TournamentConfig, summarize
from epigames.tournament.experiments import (
    EXPERIMENTS,
    Experiment,
    ExperimentUnavailableError,
    Published,
    experiment,
    experiment_config,
    experiment_markdown,
    reading,
)
from epigames.tournament.synthetic import synthetic_match
from tests.tournament.helpers import cli


def test_list_and_unknown() -> None:
    listed = cli("experiment", "--list")
    assert listed.returncode == 0
    assert "kwartet-2020" in listed.stdout and "quartet-2023" in listed.stdout
    unknown = cli("experiment", "kwartet-1999")
    assert unknown.returncode == 2 and "unknown experiment 'kwartet-1999'" in unknown.stderr


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_config_or_clear_refusal(name: str) -> None:
    exp = experiment(name)
    missing = set(exp.strategies) - set(strategies_for("kwartet"))
    if missing:
        with pytest.raises(ExperimentUnavailableError, match="not registered yet"):
            experiment_config(exp)
    else:
        config = experiment_config(exp, games=50)
        assert config.name == f"{name}-n50" and config.seat_scheme == exp.seat_scheme
        assert experiment_config(exp).games == exp.games


def _synthetic_summary(exp: Experiment, games: int) -> object:
    from epigames.tournament import game_seed, seat_strategies

    cols: dict[str, list[object]] = {
        k: [] for k in ("game_index", "seat", "strategy", "ret", "won", "n_winners", "moves")
    }
    for i in range(games):
        seats = seat_strategies(exp.strategies, i, exp.seat_scheme)
        result = synthetic_match(exp.game, seats, game_seed(1, i))
        for seat, name in enumerate(seats):
            cols["game_index"].append(i)
            cols["seat"].append(seat)
            cols["strategy"].append(name)
            cols["ret"].append(result.returns[seat])
            cols["won"].append(seat in result.winners)
            cols["n_winners"].append(len(result.winners))
            cols["moves"].append(result.moves)
    rec = {k: np.array(v, dtype=object if k == "strategy" else None) for k, v in cols.items()}
    config = TournamentConfig(
        name=exp.name,
        game=exp.game,
        strategies=exp.strategies,
        games=games,
        seat_scheme=exp.seat_scheme,
    )
    return summarize(config, rec)


def test_markdown_reading_is_computed() -> None:
    exp = Experiment(
        name="demo",
        title="A demo",
        source="nowhere",
        game="fake",
        strategies=("a", "strong"),
        seat_scheme="rotate",
        games=1000,
        seed=1,
        published={"a": Published(50, 10), "strong": Published(900, 40)},
        published_length=110.0,
    )
    summary = _synthetic_summary(exp, 400)
    text = experiment_markdown(exp, summary, "epigames experiment demo")  # type: ignore[arg-type]
    a, _ = summary.strategies  # type: ignore[attr-defined]
    assert f"| a | {a.wins} | {a.ties} |" in text
    assert "| strong |" in text and "| 900 | 40 | 90.0% |" in text
    sentences = reading(exp, summary)  # type: ignore[arg-type]
    assert any(s.startswith("The ranking is the same: strong > a") for s in sentences)
    assert any("Mean length: ours" in s for s in sentences)
    # Move a published number far away: the reading must say it is outside.
    far = Experiment(
        **{
            **{f: getattr(exp, f) for f in exp.__dataclass_fields__},
            "published": {"a": Published(990), "strong": Published(10)},
        }
    )
    sentences = reading(far, summary)  # type: ignore[arg-type]
    assert any("a: published 99.0% lies above our 95% interval" in s for s in sentences)
    assert any(s.startswith("The ranking differs") for s in sentences)
