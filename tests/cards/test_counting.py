"""Counting with alike blocks taken together, and with shapes counted before, against the
deals listed one by one."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from itertools import product

import pytest

from epigames.cards import CardKnowledge, CardLayout, PublicInfo, counting
from epigames.cards.counting import CountTable

KINDS, MEMBERS, PLAYERS = 4, 3, 3


def knowledge(alike: int) -> CardKnowledge:
    """Seat 0 holds one card of each kind; ``alike`` of the kinds carry the same
    at-least-one fact about seat 1 (alike blocks), the others one about seat 2."""
    cards = [f"{k}{m}" for k in range(KINDS) for m in range(MEMBERS)]
    layout = CardLayout.create(cards, [f"P{i}" for i in range(PLAYERS)])
    public = PublicInfo.start(layout, [4, 4, 4])
    for k in range(KINDS):
        public = public.at_least_one(1 if k < alike else 2, [f"{k}1", f"{k}2"])
    hand = [f"{k}0" for k in range(KINDS)]
    return CardKnowledge.create(public, 0, hand)


def listed(me: CardKnowledge) -> list[dict[int, int]]:
    """Every deal of the other cards that the facts allow."""
    layout, public = me.layout, me.public
    free = [c for c in range(layout.n_cards) if not me.hand >> c & 1]
    deals = []
    for holders in product(range(1, PLAYERS), repeat=len(free)):
        deal = dict(zip(free, holders, strict=True))
        if Counter(holders) != Counter({h: public.counts[h] for h in range(1, PLAYERS)}):
            continue
        if any(public.lacking[h] >> c & 1 for c, h in deal.items()):
            continue
        if all(
            any(deal.get(c) == h for c in range(layout.n_cards) if mask >> c & 1)
            for h, mask in public.constraints
        ):
            deals.append(deal)
    return deals


@pytest.mark.parametrize("alike", [1, 2, 3, 4])
def test_alike_blocks_count_as_listed(alike: int) -> None:
    me = knowledge(alike)
    deals = listed(me)
    assert me.worlds_count() == len(deals) > 0
    table = me._solved().table()
    assert isinstance(table, CountTable)
    sizes = sorted(len(members) for _, members in table._groups)
    assert sizes[-1] == max(alike, KINDS - alike)  # the alike blocks were taken together
    counts = table.marginals()
    for c, row in counts.items():
        assert list(row) == [sum(1 for d in deals if d[c] == h) for h in range(PLAYERS)]
    # Uniform sampling: every listed deal can come out, and nothing else.
    rng = random.Random(alike)
    drawn = {tuple(sorted(table.sample(rng).items())) for _ in range(400)}
    assert drawn <= {tuple(sorted(d.items())) for d in deals}
    assert len(drawn) == len(deals)


def lacking(lacks: list[tuple[str, int]]) -> CardKnowledge:
    """Seat 0 holds 00 and 01; the other seats lack the cards named (no blocks)."""
    cards = [f"{k}{m}" for k in range(KINDS) for m in range(MEMBERS)]
    layout = CardLayout.create(cards, [f"P{i}" for i in range(PLAYERS)])
    public = PublicInfo.start(layout, [2, 5, 5])
    for card, holder in lacks:
        public = public.lacks(card, holder)
    return CardKnowledge.create(public, 0, ["00", "01"])


def test_a_shape_counted_before_gives_the_counts_of_its_own_cards() -> None:
    counting._SHAPES.clear()
    first = lacking([("10", 1), ("11", 2), ("12", 2)])
    second = lacking([("22", 1), ("30", 2), ("31", 2)])  # other cards, the same shape
    one, two = first._solved().table(), second._solved().table()
    one.marginals()  # counts the shape, and drops its passes (a draw makes them again)
    assert not one._built
    again = CountTable(second._solved().dec(), PLAYERS)
    assert not again._built  # total and marginals from the shape
    for me, table in ((first, one), (second, again), (second, two)):
        deals = listed(me)
        assert table.total == len(deals) > 0
        for c, row in table.marginals().items():
            assert list(row) == [sum(1 for d in deals if d[c] == h) for h in range(PLAYERS)]
    free = second._solved().problem.free  # the cards a sample places
    rng = random.Random(0)
    drawn = {tuple(sorted(again.sample(rng).items())) for _ in range(600)}
    assert drawn == {
        tuple(sorted((c, h) for c, h in d.items() if free >> c & 1)) for d in listed(second)
    }


def test_a_decomposition_pickles_with_its_blocks_patterns() -> None:
    me = knowledge(3)
    dec = me._solved().dec()
    copy = pickle.loads(pickle.dumps(dec))
    assert [b.cards for b in copy.blocks] == [b.cards for b in dec.blocks]
    assert [b.tallies() for b in copy.blocks] == [b.tallies() for b in dec.blocks]
    assert CountTable(copy, PLAYERS).marginals() == me._solved().table().marginals()
