"""Statistics against hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from epigames.tournament import TournamentConfig, mean_interval, summarize, wilson_interval


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        # Known values (e.g. statsmodels proportion_confint(method="wilson")).
        (5, 10, 0.236593, 0.763407),
        (0, 10, 0.0, 0.277533),
        (1, 10, 0.017876, 0.404150),
        (10, 10, 0.722467, 1.0),
        (50, 100, 0.403830, 0.596170),
    ],
)
def test_wilson_known_values(successes: int, n: int, low: float, high: float) -> None:
    got = wilson_interval(successes, n)
    assert got == pytest.approx((low, high), abs=2e-6)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 12, 49, 1000, 12345])
def test_wilson_holds_the_rate_even_at_0_and_1(n: int) -> None:
    # At 0 of 12 rounding once put the low bound at 1e-17, above the rate, and the
    # tournament plots failed on the negative error bar.
    for successes in (0, n, n / 3, n - 0.5):
        low, high = wilson_interval(successes, n)
        assert 0.0 <= low <= successes / n <= high <= 1.0


def test_wilson_empty_is_nan() -> None:
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_mean_interval_by_hand() -> None:
    values = np.array([1.0, 2.0, 3.0, 4.0])
    mean, low, high = mean_interval(values)
    # s = sqrt(5/3); half = 1.959964 * s / 2
    half = 1.959963984540054 * math.sqrt(5 / 3) / 2
    assert (mean, low, high) == pytest.approx((2.5, 2.5 - half, 2.5 + half))
    assert math.isnan(mean_interval(np.array([3.0]))[1])


def _records(games: list[tuple[list[str], list[float], int]]) -> dict[str, np.ndarray]:
    cols: dict[str, list[object]] = {
        k: [] for k in ("game_index", "seat", "strategy", "ret", "won", "n_winners", "moves")
    }
    for i, (names, returns, moves) in enumerate(games):
        best = max(returns)
        winners = [s for s, r in enumerate(returns) if r == best]
        for seat, (name, ret) in enumerate(zip(names, returns, strict=True)):
            cols["game_index"].append(i)
            cols["seat"].append(seat)
            cols["strategy"].append(name)
            cols["ret"].append(ret)
            cols["won"].append(seat in winners)
            cols["n_winners"].append(len(winners))
            cols["moves"].append(moves)
    return {k: np.array(v, dtype=object if k == "strategy" else None) for k, v in cols.items()}


def test_summary_by_hand() -> None:
    """Three games of x vs y; a tie counts 1/2 to each."""
    config = TournamentConfig(name="t", game="fake", strategies=("x", "y"), games=3)
    rec = _records(
        [
            (["x", "y"], [2.0, 1.0], 10),  # x wins at seat 0
            (["y", "x"], [3.0, 3.0], 20),  # tie
            (["x", "y"], [0.0, 5.0], 30),  # y wins at seat 1
        ]
    )
    s = summarize(config, rec)
    x, y = s.strategies
    assert (x.label, x.games, x.wins, x.ties, x.fractional_wins) == ("x", 3, 1, 1, 1.5)
    assert (y.games, y.wins, y.ties, y.fractional_wins) == (3, 1, 1, 1.5)
    assert x.win_rate == pytest.approx(0.5)
    assert (x.win_low, x.win_high) == pytest.approx(wilson_interval(1.5, 3))
    assert x.mean_return == pytest.approx((2 + 3 + 0) / 3)
    assert y.mean_return == pytest.approx((1 + 3 + 5) / 3)
    assert x.mean_length == pytest.approx(20.0)
    seat0, seat1 = s.seats
    assert (seat0.wins, seat0.ties, seat0.fractional_wins) == (1, 1, 1.5)
    assert seat1.mean_return == pytest.approx((1 + 3 + 5) / 3)
    assert (s.games, s.tie_games, s.mean_length) == (3, 1, 20.0)
    assert s.complete
    assert s.notes == [
        "3 is not a multiple of 2: seats are not balanced (use a multiple of 2 for "
        "every permutation equally often)"
    ]
    data = s.to_dict()
    assert data["strategies"][0]["fractional_wins"] == 1.5
