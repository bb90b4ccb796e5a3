"""A component's placements, listed depth first and kept, are every product of its items'
spreads that keeps the rooms and the facts, in the product's order."""

from __future__ import annotations

import itertools
import random

from epigames.cards.items import Placement, Split, _spread
from epigames.cards.symbolic import CardStructure
from tests.cards.test_quotient import made_up_states


def listed_by_brute_force(split: Split, component: tuple[int, ...]) -> list[Placement]:
    items = [split.items[i] for i in component]
    spreads = [list(_spread(it.size, it.allowed, split.room)) for it in items]
    facts = split.component_facts(component)
    sizes = [it.size for it in split.items]
    index = {i: k for k, i in enumerate(component)}
    found = []
    for placement in itertools.product(*spreads):
        totals = [sum(col) for col in zip(*placement, strict=True)]
        if all(n <= r for n, r in zip(totals, split.room, strict=True)) and all(
            f.holds(placement, sizes, index) for f in facts
        ):
            found.append(placement)
    return found


def test_placements_are_the_filtered_product_in_order() -> None:
    rng = random.Random(11)
    compared = several = 0
    for public, not_all, _ in made_up_states(rng, 120):
        split = Split.of(CardStructure.from_public(public, not_all), frozenset())
        for component in split.components:
            expected = listed_by_brute_force(split, component)
            for _ in range(2):  # the second answer comes from what was kept
                assert list(split.placements(component, 10**6) or ()) == expected
            compared += 1
            several += len(component) > 1 and len(expected) > 1
    assert compared > 100 and several > 10  # components of several items were listed
