"""Possible holders by one feasible flow agree with the general solver (blocks and Hall)."""

from __future__ import annotations

import itertools
import random

import pytest

from epigames.cards import CardKnowledge, CardLayout, PublicInfo
from epigames.cards.errors import InconsistentCardsError
from epigames.cards.feasibility import possible_holders
from epigames.cards.flow import NOT_FLOW, groups_of, possible_by_flow
from epigames.cards.knowledge import _Solved
from epigames.cards.problem import Problem, reduce_facts


def random_problem(rng: random.Random) -> tuple[Problem, int] | None:
    """Random facts over kinds (at-least-one, groups, not-all, lacks), reduced; None when
    reduction already finds them contradictory or leaves no fact that ties cards."""
    n_holders, n_cards = rng.randint(2, 5), rng.randint(2, 14)
    layout = CardLayout.create(range(n_cards), tuple(f"h{i}" for i in range(n_holders)))
    size = rng.randint(2, 4)
    kinds = [sum(1 << c for c in range(k, min(k + size, n_cards))) for k in range(0, n_cards, size)]
    counts = [0] * n_holders
    for _ in range(n_cards):
        counts[rng.randrange(n_holders)] += 1
    lacking = [sum(1 << c for c in range(n_cards) if rng.random() < 0.3) for _ in range(n_holders)]
    at_least = [(rng.randrange(n_holders), rng.choice(kinds)) for _ in range(rng.randint(0, 5))]
    groups = [k for k in kinds if rng.random() < 0.5]
    not_all = [(rng.randrange(n_holders), rng.choice(kinds)) for _ in range(rng.randint(0, 3))]
    try:
        problem = reduce_facts(
            layout, counts, [0] * n_holders, lacking, 0, at_least, groups, not_all
        )
    except InconsistentCardsError:
        return None
    if not (problem.constraints or problem.exclusions):
        return None
    return problem, n_holders


def general(problem: Problem, n_holders: int) -> list[int] | None:
    """The general solver's answer (None where it finds no deal)."""
    names = tuple(f"h{i}" for i in range(n_holders))
    try:
        return possible_holders(_Solved(problem, names).dec(), n_holders)
    except InconsistentCardsError:
        return None


@pytest.mark.parametrize("seed", range(4))
def test_the_flow_answers_as_the_general_solver(seed: int) -> None:
    rng = random.Random(seed)
    compared = infeasible = 0
    while compared < 400:
        made = random_problem(rng)
        if made is None:
            continue
        problem, n_holders = made
        groups = groups_of(problem.caps, problem.may, problem.constraints, problem.exclusions)
        assert groups is not None  # sets over kinds never overlap unequally
        expected = general(problem, n_holders)
        assert possible_by_flow(groups, problem.free, n_holders) == expected, problem
        compared += 1
        infeasible += expected is None
    assert infeasible  # the cases include facts that no deal meets


def brute_possible(counts: list[int], facts: list[tuple[str, int, int]]) -> list[int]:
    """Per holder, the cards some deal meeting `facts` gives it, by enumeration."""
    n_cards = sum(counts)
    found = [0] * len(counts)
    for deal in itertools.product(range(len(counts)), repeat=n_cards):
        if any(deal.count(h) != n for h, n in enumerate(counts)):
            continue
        held = [sum(1 << c for c in range(n_cards) if deal[c] == h) for h in range(len(counts))]
        ok = all(
            (held[h] & cards) if kind == "some" else (held[h] & cards) != cards
            for kind, h, cards in facts
        )
        if ok:
            for c, h in enumerate(deal):
                found[h] |= 1 << c
    return found


def test_bounds_from_both_fact_kinds_on_one_set() -> None:
    # Cards 0-2 are a kind: holder 0 has one of them but not all; holder 1 also has one.
    # Holder 0 takes three cards, holder 1 one, holder 2 two, among six cards.
    counts = [3, 1, 2]
    facts = [("some", 0, 0b111), ("not all", 0, 0b111), ("some", 1, 0b111)]
    layout = CardLayout.create(range(6), ("a", "b", "c"))
    problem = reduce_facts(layout, counts, [0, 0, 0], [0, 0, 0], 0, [(0, 7), (1, 7)], (), [(0, 7)])
    groups = groups_of(problem.caps, problem.may, problem.constraints, problem.exclusions)
    assert groups is not None
    got = possible_by_flow(groups, problem.free, 3)
    assert got is not None
    assert [k | f for k, f in zip(problem.known, got, strict=True)] == brute_possible(counts, facts)


def test_overlapping_sets_of_one_holder_go_to_the_general_solver() -> None:
    # Holder a has one of {0, 1} and one of {1, 2}: the sets overlap, so no flow of groups.
    layout = CardLayout.create(range(5), ("a", "b", "c"))
    public = PublicInfo.start(layout, [2, 2, 1]).at_least_one(0, [0, 1]).at_least_one(0, [1, 2])
    problem = CardKnowledge.public_view(public)._reduced()
    assert problem.constraints
    assert groups_of(problem.caps, problem.may, problem.constraints, problem.exclusions) is NOT_FLOW
    knowledge = CardKnowledge.public_view(public)
    brute = brute_possible([2, 2, 1], [("some", 0, 0b011), ("some", 0, 0b110)])
    assert knowledge.possible_masks() == tuple(brute)
