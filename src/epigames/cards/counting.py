"""Exact counting of consistent deals, all marginals, and uniform sampling.

The free cards are processed as a sequence of *items*: each block (its assignments
grouped by capacity use), then each class card on its own (one option per allowed
holder). A forward pass maps packed capacity states to the number of ways the items so
far reach them; a backward pass over the same states counts the ways to finish. Then

* ``worlds = backward[0][start]``;
* the number of deals putting an item's option ``o`` in place is
  ``sum(forward[i][x] * weight(o) * backward[i+1][x - delta(o)])``, so every marginal
  costs one more pass (cards of a class share theirs, only the first is computed);
* sampling walks forward, choosing each option with probability proportional to
  ``weight(o) * backward[i+1][x - delta(o)]``, which is exactly uniform over deals.

All counts are Python ints (they reach 10^28 for a full deck).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from epigames.cards.blocks import Block, Decomposition
from epigames.cards.public import iter_bits

#: A random source accepted by `CountTable.sample`.
Rng = random.Random | np.random.Generator


@dataclass(frozen=True, slots=True)
class _Item:
    deltas: tuple[int, ...]
    weights: tuple[int, ...]
    block: Block | None  # None: a single class card
    card: int  # the class card (unused for blocks)
    holders: tuple[int, ...]  # per option, the holder of the class card
    first: bool  # first card of its class: marginals are computed here


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


def _items(dec: Decomposition, pack: _Packing) -> list[_Item]:
    items = []
    for block in dec.blocks:
        deltas = tuple(pack.delta(usage) for usage, _ in block.groups)
        weights = tuple(len(a) for _, a in block.groups)
        items.append(_Item(deltas, weights, block, -1, (), False))
    for cls in dec.classes:
        positions = [i for i in range(len(dec.active)) if cls.compact >> i & 1]
        holders = tuple(dec.active[i] for i in positions)
        deltas = tuple(pack.units[i] for i in positions)
        ones = (1,) * len(holders)
        for n, card in enumerate(iter_bits(cls.cards)):
            items.append(_Item(deltas, ones, None, card, holders, n == 0))
    return items


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

    __slots__ = ("_dec", "_items", "_n_holders", "_pack", "backward", "forward", "total")

    def __init__(self, dec: Decomposition, n_holders: int) -> None:
        self._dec = dec
        self._n_holders = n_holders
        self._pack = pack = _Packing.of(dec.caps)
        self._items = items = _items(dec, pack)
        goal = pack.goal
        forward: list[dict[int, int]] = [{pack.start: 1}]
        for item in items:
            nxt: dict[int, int] = {}
            pairs = tuple(zip(item.deltas, item.weights, strict=True))
            for x, ways in forward[-1].items():
                for delta, weight in pairs:
                    y = x - delta
                    if y & goal == goal:
                        nxt[y] = nxt.get(y, 0) + ways * weight
            forward.append(nxt)
        backward: list[dict[int, int]] = [{}] * (len(items) + 1)
        backward[-1] = {goal: 1} if goal in forward[-1] else {}
        for i in range(len(items) - 1, -1, -1):
            later = backward[i + 1]
            pairs = tuple(zip(items[i].deltas, items[i].weights, strict=True))
            here: dict[int, int] = {}
            for x in forward[i]:
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
        """Per free card, per holder, the number of consistent deals putting it there."""
        n_holders = self._n_holders
        result: dict[int, list[int]] = {}
        for i, item in enumerate(self._items):
            if item.block is None and not item.first:
                continue
            here, later = self.forward[i], self.backward[i + 1]
            zs = []
            for delta in item.deltas:
                z = 0
                for x, ways in here.items():
                    rest = later.get(x - delta)
                    if rest:
                        z += ways * rest
                zs.append(z)
            if item.block is None:
                row = [0] * n_holders
                for h, z in zip(item.holders, zs, strict=True):
                    row[h] = z
                result[item.card] = row
                continue
            block = item.block
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
        for cls in self._dec.classes:
            first, *others = iter_bits(cls.cards)
            for c in others:
                result[c] = result[first]
        return result

    def sample(self, rng: Rng) -> dict[int, int]:
        """A uniformly random consistent placement of the free cards (card -> holder)."""
        placed: dict[int, int] = {}
        x = self._pack.start
        for i, item in enumerate(self._items):
            later = self.backward[i + 1]
            r = randbelow(rng, self.backward[i][x])
            for n, (delta, weight) in enumerate(zip(item.deltas, item.weights, strict=True)):
                rest = later.get(x - delta, 0)
                share = weight * rest
                if r < share:
                    if item.block is None:
                        placed[item.card] = item.holders[n]
                    else:
                        assign = item.block.groups[n][1][r // rest]
                        for c, h in zip(item.block.cards, assign, strict=True):
                            placed[c] = h
                    x -= delta
                    break
                r -= share
        return placed
