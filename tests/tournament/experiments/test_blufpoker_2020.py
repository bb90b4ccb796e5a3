"""The blufpoker-2020 experiment definition and its Markdown report."""

from __future__ import annotations

from typing import NamedTuple

from epigames.games import strategies_for
from epigames.tournament.experiments.blufpoker_2020 import (
    CONFIGURATIONS,
    THIRD_PLAYERS,
    comparison_markdown,
    losses_from_seats,
    run_configuration,
    tournaments,
)


def test_nine_configurations_of_registered_strategies() -> None:
    assert len(CONFIGURATIONS) == 9 and len(tournaments()) == 18
    known = set(strategies_for("blufpoker"))
    for _, _, _, strategies in tournaments():
        assert set(strategies) <= known
    assert CONFIGURATIONS[6].published == (2414, 1049, 6537)


def test_run_and_report() -> None:
    results = {
        (i, t): (6, run_configuration(i, t, games=6)) for i in range(9) for t in THIRD_PLAYERS
    }
    assert all(sum(losses) == 6 for _, losses in results.values())
    text = comparison_markdown(results)
    assert text.count("\n| ") == 10 and "6537" in text and "configurations." in text


def test_losses_from_seat_lines() -> None:
    class Line(NamedTuple):
        games: int
        wins: int
        ties: int

    assert losses_from_seats([Line(10, 0, 7), Line(10, 0, 6), Line(10, 0, 7)]) == (10, (3, 4, 3))
