"""Exact counting of consistent deals, all marginals, and uniform sampling.

The free cards are processed as a sequence of *items*: each block (its assignments
grouped by capacity use), then each class of interchangeable cards as a whole (one option
per way to share its cards among its allowed holders, weighted by the multinomial number
of ways to pick them). A forward pass maps packed capacity states to the number of ways
the items so far reach them; a backward pass over the same states counts the ways to
finish. Then

* ``worlds = backward[0][start]``;
* the number of deals putting an item's option ``o`` in place is
  ``sum(forward[i][x] * weight(o) * backward[i+1][x - delta(o)])``, so every marginal
  costs one more pass (the cards of a class share theirs);
* sampling walks forward, choosing each option with probability proportional to
  ``weight(o) * backward[i+1][x - delta(o)]``, which is exactly uniform over deals (a
  class's cards are drawn one at a time, with the ways to finish counted as needed).

All counts are Python ints (they reach 10^28 for a full deck).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from epigames.cards.blocks import Block, Decomposition
from epigames.cards.public import iter_bits

#: A random source accepted by `CountTable.sample`.
Rng = random.Random | np.random.Generator


@dataclass(frozen=True, slots=True)
class _Item:
    """A step of the tables: a block, or a whole class of interchangeable cards.

    A class is one step, not one per card: its options are the numbers of its cards each
    allowed holder takes, weighted by the ways to pick which cards those are (a
    multinomial), so its ``k`` cards cost one pass where card by card they cost ``k``.
    """

    deltas: tuple[int, ...]
    weights: tuple[int, ...]
    block: Block | None  # None: a class
    cards: tuple[int, ...]  # the class's cards (empty for a block)
    holders: tuple[int, ...]  # the class's allowed holders
    units: tuple[int, ...]  # per allowed holder, its packed unit
    counts: tuple[tuple[int, ...], ...]  # per option, the class's cards per allowed holder


@dataclass(frozen=True, slots=True)
class _Packing:
    """Capacity vectors packed in one int: a field per active holder, guard bit on top.

    A state holds ``remaining + guard`` per field; taking cards subtracts a packed delta,
    and a field that goes below zero clears its guard bit (deltas never exceed a holder's
    capacity, so nothing borrows across fields). A state is valid iff all guards are set.
    """

    start: int
    goal: int
    units: tuple[int, ...]  # per active position

    @classmethod
    def of(cls, caps: tuple[int, ...]) -> _Packing:
        width = max(caps, default=0).bit_length() + 1
        guard = 1 << (width - 1)
        start = goal = 0
        units = []
        for i, cap in enumerate(caps):
            units.append(1 << (width * i))
            start += (cap + guard) << (width * i)
            goal += guard << (width * i)
        return cls(start, goal, tuple(units))

    def delta(self, usage: tuple[int, ...]) -> int:
        return sum(n * u for n, u in zip(usage, self.units, strict=True))


@lru_cache(maxsize=4096)
def _class_options(
    k: int, caps: tuple[int, ...], units: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Deltas, weights and counts per holder of every way to give ``k`` alike cards to
    holders with these capacities and packed units (classes recur from state to state)."""
    counts = tuple(_spreads(k, caps))
    deltas = tuple(sum(n * u for n, u in zip(c, units, strict=True)) for c in counts)
    weights = tuple(_multinomial(c) for c in counts)
    return deltas, weights, counts


def _spreads(k: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to give ``k`` alike cards to holders with these capacities (counts per
    holder), the first holder's count varying slowest."""
    if len(caps) == 1:
        return [(k,)] if k <= caps[0] else []
    room = sum(caps[1:])
    return [
        (n, *rest)
        for n in range(max(0, k - room), min(k, caps[0]) + 1)
        for rest in _spreads(k - n, caps[1:])
    ]


def _items(dec: Decomposition, pack: _Packing) -> list[_Item]:
    items = []
    for block in dec.blocks:
        deltas = tuple(pack.delta(usage) for usage, _ in block.groups)
        weights = tuple(len(a) for _, a in block.groups)
        items.append(_Item(deltas, weights, block, (), (), (), ()))
    for cls in dec.classes:
        positions = [i for i in range(len(dec.active)) if cls.compact >> i & 1]
        holders = tuple(dec.active[i] for i in positions)
        units = tuple(pack.units[i] for i in positions)
        cards = tuple(iter_bits(cls.cards))
        caps = tuple(dec.caps[i] for i in positions)
        deltas, weights, counts = _class_options(len(cards), caps, units)
        items.append(_Item(deltas, weights, None, cards, holders, units, counts))
    return items


def _multinomial(counts: tuple[int, ...]) -> int:
    """The ways to split ``sum(counts)`` distinct cards into groups of these sizes."""
    ways, total = 1, 0
    for n in counts:
        total += n
        ways *= comb(total, n)
    return ways


def randbelow(rng: Rng, n: int) -> int:
    """A uniform integer in ``[0, n)``, exact for any size of ``n``."""
    if isinstance(rng, random.Random):
        return rng.randrange(n)
    if n <= 1 << 62:
        return int(rng.integers(0, n))
    bits = n.bit_length()
    words = (bits + 31) // 32
    while True:
        value = 0
        for word in rng.integers(0, 1 << 32, size=words, dtype=np.uint64):
            value = value << 32 | int(word)
        value >>= words * 32 - bits
        if value < n:
            return value


class CountTable:
    """Forward and backward tables of one decomposition; see the module docstring."""

    __slots__ = (
        "_dec", "_items", "_marginals", "_n_holders", "_pack", "_ways",
        "backward", "forward", "total",
    )  # fmt: skip

    def __init__(self, dec: Decomposition, n_holders: int) -> None:
        self._dec = dec
        self._n_holders = n_holders
        self._pack = pack = _Packing.of(dec.caps)
        self._items = items = _items(dec, pack)
        self._marginals: dict[int, list[int]] | None = None
        # Per (class item, cards of it placed, state): the ways to finish, for `sample`.
        self._ways: dict[tuple[int, int, int], int] = {}
        goal = pack.goal
        forward: list[dict[int, int]] = [{pack.start: 1}]
        last = len(items) - 1
        for n, item in enumerate(items):
            nxt: dict[int, int] = {}
            if n == last:
                # Only the goal finishes a deal: one lookup per state, not one per option.
                weight_of = dict(zip(item.deltas, item.weights, strict=True))
                total = 0
                for x, ways in forward[-1].items():
                    weight = weight_of.get(x - goal)
                    if weight:
                        total += ways * weight
                if total:
                    nxt[goal] = total
            else:
                pairs = tuple(zip(item.deltas, item.weights, strict=True))
                for x, ways in forward[-1].items():
                    for delta, weight in pairs:
                        y = x - delta
                        if y & goal == goal:
                            nxt[y] = nxt.get(y, 0) + ways * weight
            forward.append(nxt)
        backward: list[dict[int, int]] = [{}] * (len(items) + 1)
        backward[-1] = {goal: 1} if goal in forward[-1] else {}
        for i in range(last, -1, -1):
            later, reached = backward[i + 1], forward[i]
            pairs = tuple(zip(items[i].deltas, items[i].weights, strict=True))
            here: dict[int, int] = {}
            if len(later) < len(reached):
                # From the fewer side: each finishing state back through each option.
                for y, after in later.items():
                    for delta, weight in pairs:
                        x = y + delta
                        if x in reached:
                            here[x] = here.get(x, 0) + weight * after
            else:
                for x in reached:
                    ways = 0
                    for delta, weight in pairs:
                        rest = later.get(x - delta)
                        if rest:
                            ways += weight * rest
                    if ways:
                        here[x] = ways
            backward[i] = here
        self.forward = forward
        self.backward = backward
        self.total = backward[0].get(pack.start, 0)

    def marginals(self) -> dict[int, list[int]]:
        """Per free card, per holder, the number of consistent deals putting it there.

        Computed once per table (the seats of a state often share one); read only.
        """
        if self._marginals is None:
            self._marginals = self._count_marginals()
        return self._marginals

    def _count_marginals(self) -> dict[int, list[int]]:
        n_holders = self._n_holders
        result: dict[int, list[int]] = {}
        for i, item in enumerate(self._items):
            here, later = self.forward[i], self.backward[i + 1]
            zs = []
            if len(later) < len(here):
                for delta in item.deltas:
                    z = 0
                    for y, after in later.items():
                        before = here.get(y + delta)
                        if before:
                            z += before * after
                    zs.append(z)
            else:
                for delta in item.deltas:
                    z = 0
                    for x, ways in here.items():
                        rest = later.get(x - delta)
                        if rest:
                            z += ways * rest
                    zs.append(z)
            block = item.block
            if block is None:
                # A card of the class goes to a holder in the share n/k of the ways to
                # take n of its k cards; every card of the class has the same row.
                k = len(item.cards)
                row = [0] * n_holders
                for z, weight, counts in zip(zs, item.weights, item.counts, strict=True):
                    if z:
                        for h, n in zip(item.holders, counts, strict=True):
                            row[h] += z * (weight * n // k)
                for c in item.cards:
                    result[c] = row
                continue
            for c in block.cards:
                result[c] = [0] * n_holders
            cards, groups = block.cards, block.groups
            for g in range(len(groups)):  # index loops: see `blocks._block`
                z = zs[g]
                if not z:
                    continue
                for assign in groups[g][1]:
                    for j in range(len(cards)):
                        result[cards[j]][assign[j]] += z
        return result

    def sample(self, rng: Rng) -> dict[int, int]:
        """A uniformly random consistent placement of the free cards (card -> holder).

        A class's cards are drawn one by one (each holder with the share of the deals
        that follow), so a seed gives the same deal as tables kept card by card would.
        """
        placed: dict[int, int] = {}
        x = self._pack.start
        for i, item in enumerate(self._items):
            later = self.backward[i + 1]
            r = randbelow(rng, self.backward[i][x])
            if item.block is None:
                for j, card in enumerate(item.cards):
                    if j:
                        r = randbelow(rng, self._finishing(i, j, x))
                    for h, unit in zip(item.holders, item.units, strict=True):
                        share = self._finishing(i, j + 1, x - unit)
                        if r < share:
                            placed[card] = h
                            x -= unit
                            break
                        r -= share
                continue
            for n, (delta, weight) in enumerate(zip(item.deltas, item.weights, strict=True)):
                rest = later.get(x - delta, 0)
                share = weight * rest
                if r < share:
                    assign = item.block.groups[n][1][r // rest]
                    for c, h in zip(item.block.cards, assign, strict=True):
                        placed[c] = h
                    x -= delta
                    break
                r -= share
        return placed

    def _finishing(self, i: int, j: int, x: int) -> int:
        """The ways to place the rest of the deal from state ``x`` after the first ``j``
        cards of class item ``i`` (0 for a state past some capacity)."""
        goal = self._pack.goal
        if x & goal != goal:
            return 0
        item = self._items[i]
        if j == len(item.cards):
            return self.backward[i + 1].get(x, 0)
        key = (i, j, x)
        ways = self._ways.get(key)
        if ways is None:
            ways = sum(self._finishing(i, j + 1, x - unit) for unit in item.units)
            self._ways[key] = ways
        return ways
