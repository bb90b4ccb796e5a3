"""The card engine's C paths (`_engine.c`) answer as their Python versions, on the facts
as given: the reduction of the facts and the flow's possible holders."""

from __future__ import annotations

import random

import pytest

from epigames import native
from epigames.cards import CardLayout, flow, problem
from epigames.cards.errors import InconsistentCardsError

Facts = tuple[
    list[int], list[int], tuple[int, ...], int, int,
    tuple[tuple[int, int], ...], tuple[int, ...], tuple[tuple[int, int], ...],
]  # fmt: skip


def random_facts(rng: random.Random, n_cards: int) -> Facts:
    """Facts as `CardKnowledge._direct_possible` passes them: mostly true of one random
    deal (so many have deals), some made up (so some have none)."""
    n_holders = rng.randint(2, 6)
    deal = [rng.randrange(n_holders) for _ in range(n_cards)]
    removed = sum(1 << c for c in range(n_cards) if rng.random() < 0.1)
    hands = [0] * n_holders
    for c, h in enumerate(deal):
        if not removed >> c & 1:
            hands[h] |= 1 << c
    counts = [h.bit_count() for h in hands]
    holding = [sum(1 << c for c in range(n_cards) if hands[h] >> c & 1 and rng.random() < 0.3)
               for h in range(n_holders)]  # fmt: skip
    free = (1 << n_cards) - 1 & ~removed
    for h in holding:
        free &= ~h
    lacking = []
    for h in range(n_holders):
        lacks = sum(1 << c for c in range(n_cards) if not hands[h] >> c & 1 and rng.random() < 0.4)
        if rng.random() < 0.1:
            lacks |= 1 << rng.randrange(n_cards)  # possibly false
        if rng.random() < 0.2:
            lacks |= -1 << n_cards  # as a seat's lacks of cards beyond the deck: negative
        lacking.append(lacks)
    size = rng.choice((2, 3, 4))
    kinds = [sum(1 << c for c in range(k, min(k + size, n_cards))) for k in range(0, n_cards, size)]
    constraints = []
    for _ in range(rng.randint(0, 6)):
        h, kind = rng.randrange(n_holders), rng.choice(kinds)
        if hands[h] & kind or rng.random() < 0.15:
            constraints.append((h, kind))
    groups = tuple(k for k in kinds if rng.random() < 0.4 and all(h & k != k for h in hands))
    not_all = []
    for _ in range(rng.randint(0, 3)):
        h, kind = rng.randrange(n_holders), rng.choice(kinds)
        if hands[h] & kind != kind or rng.random() < 0.15:
            not_all.append((h, kind))
    if rng.random() < 0.05:
        counts[rng.randrange(n_holders)] += 1  # a count no deal meets
    return (
        counts, holding, tuple(lacking), free, removed,
        tuple(constraints), groups, tuple(not_all),
    )  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
def test_c_and_python_flows_agree(seed: int) -> None:
    rng = random.Random(seed)
    answered = none = 0
    for i in range(1500):
        facts = random_facts(rng, rng.randint(2, 16) if i % 5 else rng.randint(17, 64))
        want = flow.python_possible_from_facts(*facts)
        assert flow.possible_from_facts(*facts) == want, facts
        answered += want is not None
        none += want is None
    assert answered > 300 and none > 100  # both outcomes are compared


def _reduced(reduce: object, facts: Facts) -> object:
    """The reduced problem, or the error's type and message."""
    counts, holding, lacking, _, removed, constraints, groups, not_all = facts
    layout = CardLayout.create(range(_cards(facts)), tuple(f"h{h}" for h in range(len(counts))))
    try:
        return reduce(  # type: ignore[operator]
            layout, counts, holding, lacking, removed, constraints, groups, not_all
        )
    except InconsistentCardsError as error:
        return (type(error), str(error))


def _cards(facts: Facts) -> int:
    holding, free, removed = facts[1], facts[3], facts[4]
    every = free | removed
    for h in holding:
        every |= h
    return every.bit_length()


@pytest.mark.parametrize("seed", range(6))
def test_c_and_python_reductions_agree(seed: int) -> None:
    rng = random.Random(seed)
    solved = contradicted = 0
    for i in range(1500):
        facts = random_facts(rng, rng.randint(2, 16) if i % 5 else rng.randint(17, 64))
        want = _reduced(problem.python_reduce_facts, facts)
        assert _reduced(problem.reduce_facts, facts) == want, facts
        solved += isinstance(want, problem.Problem)
        contradicted += not isinstance(want, problem.Problem)
    assert solved > 300 and contradicted > 100  # both outcomes are compared


def test_c_reduction_leaves_large_layouts_to_python() -> None:
    c = native.c_module("epigames.cards._engine")
    if c is None:
        pytest.skip(f"the C engine is not built ({native.status()})")
    facts = random_facts(random.Random(3), 70)
    counts, holding, lacking, _, removed, constraints, groups, not_all = facts
    args = (70, counts, holding, lacking, removed, constraints, groups, not_all)
    assert c.reduce_facts(*args) is NotImplemented
    assert _reduced(problem.reduce_facts, facts) == _reduced(problem.python_reduce_facts, facts)


def _c_flow() -> object:
    c = native.c_module("epigames.cards._engine")
    if c is None:
        pytest.skip(f"the C flow is not built ({native.status()})")
    return c.possible_from_facts


def test_c_flow_leaves_large_problems_to_python() -> None:
    c_flow = _c_flow()
    rng = random.Random(7)
    for n_cards in (65, 80):
        facts = random_facts(rng, n_cards)
        assert c_flow(*facts) is NotImplemented  # type: ignore[operator]
        want = flow.python_possible_from_facts(*facts)
        assert flow.possible_from_facts(*facts) == want


def test_c_flow_runs_wherever_the_compiled_modules_do() -> None:
    # A build that compiled the Python modules but not the C one would quietly run slower.
    if native.status() != "compiled":
        pytest.skip(native.status())
    assert flow._C_FLOW is not None
    facts = random_facts(random.Random(1), 20)
    assert _c_flow()(*facts) == flow.python_possible_from_facts(*facts)  # type: ignore[operator]


def test_c_flow_reads_pairs_of_other_shapes_through_python() -> None:
    c_flow = _c_flow()
    args = ([1, 1], [0, 0], (0, 0), 0b11, 0, ([0, 0b11],), (), ())
    assert c_flow(*args) is NotImplemented  # type: ignore[operator]
