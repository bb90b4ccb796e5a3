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
