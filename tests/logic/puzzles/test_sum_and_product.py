"""Sum and Product, checked against a plain-Python oracle."""

from __future__ import annotations

from collections import Counter

import pytest

from epigames.errors import ModelError
from epigames.logic import Atom, K
from epigames.logic.puzzles import sum_and_product, sum_and_product_model


def oracle_sum_and_product(limit: int) -> list[list[tuple[int, int]]]:
    """The classic elimination in plain Python, for comparison."""
    pairs = [(x, y) for x in range(2, limit) for y in range(x + 1, limit) if x + y <= limit]
    products = Counter(x * y for x, y in pairs)
    p_unsure = [p for p in pairs if products[p[0] * p[1]] > 1]
    good_sums = {
        s for s in {x + y for x, y in pairs}
        if all(products[x * y] > 1 for x, y in pairs if x + y == s)
    }  # fmt: skip
    second = [p for p in pairs if sum(p) in good_sums]
    products2 = Counter(x * y for x, y in second)
    third = [p for p in second if products2[p[0] * p[1]] == 1]
    sums3 = Counter(x + y for x, y in third)
    fourth = [p for p in third if sums3[sum(p)] == 1]
    return [p_unsure, second, third, fourth]


def test_sum_and_product_answer() -> None:
    solution = sum_and_product()
    assert solution.initial.size == 2352
    assert solution.answer == (4, 13)
    second = solution.steps[1].model
    sums = {sum(map(int, w.split(","))) for w in second.worlds}
    assert sums == {11, 17, 23, 27, 29, 35, 37, 41, 47, 53}
    assert set(second.worlds) <= set(solution.steps[0].model.worlds)


@pytest.mark.parametrize("limit", [30, 62, 100])
def test_sum_and_product_matches_oracle(limit: int) -> None:
    solution = sum_and_product(limit)
    expected = oracle_sum_and_product(limit)
    for step, pairs in zip(solution.steps, expected, strict=True):
        assert set(step.model.worlds) == {f"{x},{y}" for x, y in pairs}
    assert set(solution.answers) == set(expected[-1])


def test_sum_and_product_model() -> None:
    m = sum_and_product_model(10)
    # Pairs 2 ≤ x < y, x + y ≤ 10.
    expected = [(x, y) for x in range(2, 10) for y in range(x + 1, 10) if x + y <= 10]
    assert len(expected) == 12
    assert m.worlds == tuple(f"{x},{y}" for x, y in expected)
    assert m.where(K("P", Atom("x2") & Atom("y3"))) == ["2,3"]
    assert m.where(K("S", Atom("x2") & Atom("y3"))) == ["2,3"]  # the only sum 5
    with pytest.raises(ModelError):
        sum_and_product_model(4)


def test_sum_and_product_statements_true_at_the_answer() -> None:
    solution = sum_and_product()
    solution.initial.with_designated(["4,13"]).announce(solution.steps[0].formula)
    # "I knew you didn't know" is about the initial model (see sum_and_product).
    model = solution.initial.with_designated(["4,13"]).announce(solution.steps[1].formula)
    for step in solution.steps[2:]:
        model = model.announce(step.formula)
    assert model.holds(K("S", Atom("x4") & Atom("y13")) & K("P", Atom("x4") & Atom("y13")))
