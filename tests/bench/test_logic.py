"""`epigames bench logic`: the table's rows and round counts (never its timings)."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from epigames.bench import logic as bench
from epigames.logic.puzzles import muddy_children_story


def row(text: str, n: int) -> list[str] | None:
    for line in text.splitlines():
        cells = line.split()
        if cells and cells[0] == str(n) and len(cells) >= 3 and "," not in cells[0]:
            return cells
    return None


def test_quick_run_prints_the_rows() -> None:
    out = io.StringIO()
    results = bench.run(Console(file=out), quick=True)
    text = out.getvalue()
    assert [r.n for r in results] == list(bench.QUICK_SIZES) == [6, 8]
    for r in results:
        assert r.worlds == 2**r.n
        assert r.rounds == r.n  # the father's announcement plus n - 1 "nobody knows"
        assert r.knowers == r.n
        assert r.naive_s is not None
        cells = row(text, r.n)
        assert cells is not None, text
        assert cells[1] == f"{2**r.n:,}"
        assert cells[2] == str(r.n)
    assert "DEMO-S5" in text
    assert "212 s" in text
    assert re.search(r"n=6", text)


def test_in_process_measurement_agrees_with_the_story() -> None:
    m = bench.measure(5, naive=True)
    story = muddy_children_story(5, range(1, 6))
    assert m.rounds == len(story.rounds) == 5
    assert m.knowers == 5
    assert m.total_s == pytest.approx(m.build_s + m.announce_s)
    assert m.traced_peak_mib > 0


def test_run_without_subprocesses() -> None:
    out = io.StringIO()
    results = bench.run(Console(file=out, width=120), quick=True, fresh_process=False)
    assert [r.rounds for r in results] == [6, 8]


@pytest.mark.parametrize("n", range(1, 8))
def test_naive_checker_agrees(n: int) -> None:
    assert (
        bench.naive_muddy_children(n) == n == len(muddy_children_story(n, range(1, n + 1)).rounds)
    )


def test_naive_model_basics() -> None:
    from epigames.logic import Atom, K, Kw, Not

    worlds = frozenset({0, 1, 2})
    model = bench.NaiveModel.from_keys(
        worlds, {"p": frozenset({0, 1})}, {"a": lambda w: w < 2, "b": lambda w: w}
    )
    assert model.truth(K("a", Atom("p"))) == {0, 1}
    assert model.truth(Kw("b", Atom("p"))) == worlds
    assert model.truth(Not(Kw("a", Atom("p")))) == frozenset()
    assert model.announce(Not(Atom("p"))).worlds == {2}
    with pytest.raises(TypeError):
        model.truth(Atom("p") >> Atom("p"))


# --- the symbolic table -----------------------------------------------------------------------


def test_quick_run_prints_the_symbolic_rows() -> None:
    out = io.StringIO()
    bench.run(Console(file=out, width=120), quick=True, fresh_process=False)
    text = out.getvalue()
    symbolic = text[text.index("symbolic engine") :]
    for n in (*bench.QUICK_SIZES, *bench.QUICK_SYMBOLIC_LARGE):
        cells = row(symbolic, n)
        assert cells is not None, symbolic
        assert cells[2] == str(n)  # rounds
    forty = row(symbolic, 40)
    assert forty is not None
    assert forty[1] == f"{2**40 - 1:.3g}"
    assert forty[6] == "0.45"  # SMCDEL's published figure, printed as reference
    assert forty[4] == forty[5] == "-"  # no explicit run past 20 variables
    assert forty[7:9] == ["<", "1"]  # the goal
    assert "×" in (row(symbolic, 6) or [])[5]


def test_symbolic_measurement_agrees_with_the_explicit_story() -> None:
    m = bench.measure_symbolic(7)
    assert (m.rounds, m.knowers, m.states) == (7, 7, 2**7 - 1)
    assert m.backend in ("dd.cudd", "dd.autoref")


def test_without_the_symbolic_table() -> None:
    out = io.StringIO()
    bench.run(Console(file=out, width=120), quick=True, fresh_process=False, symbolic=False)
    assert "symbolic engine" not in out.getvalue()
    assert "Sum and Product, x + y ≤ 100" in out.getvalue()


def test_sum_and_product_line() -> None:
    out = io.StringIO()
    _, answer = bench.sum_and_product_line(Console(file=out, width=200))
    assert answer == (4, 13)
    assert "answer (4, 13); goal < 1 s:" in out.getvalue()
