"""examples/rl_knowledge.py trains on both observations (a few games, as a smoke test)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).parents[2] / "examples" / "rl_knowledge.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rl_knowledge", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("observation", ["hand", "knowledge"])
def test_training_plays_games_and_is_seeded(observation: str) -> None:
    example = _example()
    args = ("kwartet(players=3,kinds=2)", observation, 6, ["random", "random"], 3, 0.1)
    returns = example.train(*args)
    assert len(returns) == 6 and all(0 <= r <= 2 for r in returns)
    assert example.train(*args) == returns
    x, means = example.blocks(returns, 3)
    assert list(x) == [3, 6] and means[0] == pytest.approx(sum(returns[:3]) / 3)
