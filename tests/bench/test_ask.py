"""`epigames bench ask`: the command timed on the largest card settings, and a seat's
`knows` against the quotient. Only the tables' shape and the answers are checked."""

from __future__ import annotations

import pytest

from epigames.bench import ask as bench
from epigames.errors import EpigamesError
from tests.bench.helpers import quick_run, table_rows


def test_quick_run_asks_every_formula_at_each_step_and_the_two_ways_agree() -> None:
    report, text = quick_run(lambda console, quick, seed_programs: bench.run(console, quick))
    rows = table_rows(text)
    for game, formulas, propositional in bench.SETTINGS:
        steps = bench.steps_of(game, bench.QUICK_STEPS)
        assert steps[0] == 0 and len(steps) == bench.QUICK_STEPS
        asked = [(a.step, a.formula) for a in report.asks if a.game == game]
        assert asked == [(step, f) for step in steps for f in formulas]
        assert all(a.cpu > 0 and a.wall > 0 for a in report.asks)
        for f in formulas:
            cells = next(c for c in rows if c[:2] == [game, f])
            assert cells[2] == ", ".join(map(str, steps))
            assert cells[-1] in ("< 2 met", "< 2 not met")
        compared = [v for v in report.versus if v.game == game]
        assert [(v.step, v.formula) for v in compared] == [
            (step, f) for step in steps for f in propositional
        ]
        # The second formula of each setting says no card lies in two hands: known by all.
        assert all(v.value for v in compared if v.formula == propositional[1])
    assert report.startup > 0


def test_a_failing_command_is_reported_with_its_error() -> None:
    with pytest.raises(EpigamesError, match="failed"):
        bench.time_ask("kwartet(players=6)", 100_000, "K_0 holds(1, <1,1>)")
