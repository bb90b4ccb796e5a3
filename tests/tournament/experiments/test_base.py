"""The reports' experiments: configurations, refusal when strategies are missing, the report."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import numpy as np
import pytest

from epigames.games import strategies_for
from epigames.tournament import TournamentConfig, summarize
from epigames.tournament.experiments import (
    EXPERIMENTS,
    Experiment,
    ExperimentDataError,
    ExperimentUnavailableError,
    Published,
    experiment,
    experiment_config,
    experiment_markdown,
    reading,
)
from epigames.tournament.experiments.base import experiment_data, experiments_in
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


def test_experiments_are_read_from_the_data() -> None:
    assert list(EXPERIMENTS) == ["kwartet-2020", "quartet-2023"]
    kwartet = EXPERIMENTS["kwartet-2020"]
    assert kwartet.strategies == ("greedy", "silent", "mixed", "random")
    assert kwartet.published["greedy"] == Published(5597, 1545)
    assert kwartet.published_length == 137.2307 and kwartet.length_unit == "turns"
    quartet = EXPERIMENTS["quartet-2023"]
    assert list(quartet.published) == ["random", "owner", "defensive", "aggressive"]
    assert quartet.published["owner"] == Published(298) and quartet.published_length is None
    assert quartet.title.startswith(
        "Quartet (MESA), 4 players, 8 kinds, no asking for own cards: r"
    )
    assert all(isinstance(r, str) and "\n" not in r for r in quartet.remarks)


_ENTRY = """
[[experiment]]
name = "demo"
title = "A demo"
source = "nowhere"
game = "kwartet"
strategies = ["a", "b"]
seat_scheme = "rotate"
games = 10
seed = 1
published = { a = { wins = 6 }, b = { wins = 4, ties = 1 } }
"""


def test_an_experiment_entry_with_only_the_required_keys() -> None:
    (exp,) = experiments_in(tomllib.loads(_ENTRY)).values()
    assert exp.published == {"a": Published(6), "b": Published(4, 1)}
    assert exp.remarks == () and exp.wins_counted_as == "outright"


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (("seed = 1", ""), "experiment 'demo': missing seed"),
        (("seed = 1", "seed = 1\nsede = 2"), "unknown sede"),
        (("games = 10", 'games = "10"'), "games must be an integer, not '10'"),
        (("games = 10", "games = true"), "games must be an integer, not True"),
        (('["a", "b"]', '["a", 2]'), "strategies must be a list of strings"),
        (('"rotate"', '"sideways"'), "seat_scheme must be one of fixed, rotate"),
        (("wins = 6", "wins = 6.5"), "published a: wins must be an integer"),
        (("wins = 6 }", "wins = 6, lost = 4 }"), "published a: unknown lost"),
        (('name = "demo"', "name = 7"), "experiment number 1: name must be a string"),
    ],
)
def test_a_malformed_experiment_entry_is_refused_by_name(
    change: tuple[str, str], says: str
) -> None:
    text = _ENTRY.replace(*change, 1)
    with pytest.raises(ExperimentDataError, match=re.escape(says)):
        experiments_in(tomllib.loads(text))


def test_an_experiment_given_twice_is_refused() -> None:
    with pytest.raises(ExperimentDataError, match="experiment 'demo' is given twice"):
        experiments_in(tomllib.loads(_ENTRY + _ENTRY))


def test_an_experiments_file_that_is_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "experiments.toml"
    path.write_text("[[experiment]\n", encoding="utf-8")
    with pytest.raises(ExperimentDataError, match=r"experiments\.toml is not valid TOML"):
        experiment_data(path)
