"""`bench.cards.sweep`: the `ask` sweep behind issue 37's "< 2 s at any step"."""

from __future__ import annotations

from rich.console import Console

from epigames.bench import cards as bench
from epigames.games import Match, load_game

GAME = "kwartet(players=3,kinds=3)"
FORMULAS = ("K_0 holds(1, <1,1>)", "K_1 ~K_2 holds(0, <2,2>) | C_{0,1} ~holds(2, <3,4>)")


def _asked_steps(seed: int, every: int) -> int:
    """How many steps of the seeded match the sweep asks at (every `every`-th, from 0)."""
    game = load_game(GAME)
    match = Match(game, [game.default_strategy] * game.num_players, seed)
    step = asked = 0
    while True:
        match.run_chance()
        asked += step % every == 0
        if match.over:
            return asked
        match.step()
        step += 1


def test_the_sweep_asks_every_formula_at_every_kth_step_and_names_the_worst() -> None:
    console = Console(record=True, width=120)
    times = bench.sweep(console, asked={GAME: FORMULAS}, seeds=(0, 1), every=3)
    expected = len(FORMULAS) * (_asked_steps(0, 3) + _asked_steps(1, 3))
    assert len(times) == expected > 2 * len(FORMULAS)
    assert all(t >= 0 for t in times)
    text = console.export_text()
    assert GAME in text and str(expected) in text and "worst at" in text
    assert "seed 0 step" in text or "seed 1 step" in text


def test_quick_sweeps_fewer_steps_than_the_full_one_by_default() -> None:
    quick = Console(record=True, width=120)
    full = Console(record=True, width=120)
    few = bench.sweep(quick, quick=True, asked={GAME: FORMULAS[:1]})
    many = bench.sweep(full, asked={GAME: FORMULAS[:1]})
    assert len(few) == _asked_steps(0, 25)
    assert len(many) == sum(_asked_steps(seed, 5) for seed in (0, 1, 2)) > len(few)
