"""Exact counting of consistent deals, all marginals, and uniform sampling.

The free cards are processed as a sequence of *items*: each block (its assignments
grouped by capacity use), then each class of interchangeable cards as a whole (one option
per way to share its cards among its allowed holders, weighted by the multinomial number
of ways to pick them). A forward pass maps packed capacity states to the number of ways
the items so far reach them; a backward pass over the same states counts the ways to
finish. Then

* ``worlds = forward[-1][goal]`` (the forward pass alone gives it);
* the number of deals putting an item's option ``o`` in place is
  ``sum(forward[i][x] * weight(o) * backward[i+1][x - delta(o)])``, summed during the
  backward pass, so marginals cost no pass of their own (a class's cards share theirs);
* sampling walks forward, choosing each option with probability proportional to
  ``weight(o) * backward[i+1][x - delta(o)]``, which is exactly uniform over deals (a
  class's cards are drawn one at a time, with the ways to finish counted as needed).

All counts are Python ints (they reach 10^28 for a full deck).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from operator import mul

import numpy as np

from epigames.cards.blocks import Block, Decomposition, _evict_half
from epigames.cards.public import iter_bits, popcount
from epigames.cards.slots import slot_maker

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
    # Per allowed holder, per option: the option's ways that put one given card of the
    # class with that holder (n/k of its weight for n of the class's k cards there).
    columns: tuple[tuple[int, ...], ...]


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
        units = self.units
        found = 0
        for j in range(len(units)):  # index loops: see `blocks._block`
            found += usage[j] * units[j]
        return found


@lru_cache(maxsize=4096)
def _class_options(
    k: int, caps: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Counts per holder, weights and `_Item.columns` of every way to give ``k`` alike
    cards to holders with these capacities (classes recur from state to state; the packed
    deltas, which also depend on the packing's field width, are summed per table)."""
    counts = tuple(_spreads(k, caps))
    weights = tuple(_multinomial(c) for c in counts)
    columns = tuple(
        tuple(w * c[j] // k for w, c in zip(weights, counts, strict=True)) for j in range(len(caps))
    )
    return counts, weights, columns


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
        groups = block.groups
        deltas = tuple([pack.delta(usage) for usage, _ in groups])
        weights = tuple([len(a) for _, a in groups])
        items.append(_item(deltas, weights, block, (), (), (), ()))
    for cls in dec.classes:
        positions = [i for i in range(len(dec.active)) if cls.compact >> i & 1]
        holders = tuple([dec.active[i] for i in positions])
        units = tuple([pack.units[i] for i in positions])
        cards = tuple(iter_bits(cls.cards))
        k = len(cards)
        # A capacity above k bounds nothing here, so the options recur as capacities change.
        caps = tuple([min(dec.caps[i], k) for i in positions])
        counts, weights, columns = _class_options(k, caps)
        deltas = tuple([sum(map(mul, c, units)) for c in counts])
        items.append(_item(deltas, weights, None, cards, holders, units, columns))
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


#: A step of the passes: the packed deltas of its options and their weights.
Step = tuple[tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=1024)
def _powers(step: Step, m: int, start: int, goal: int) -> tuple[dict[int, int], ...]:
    """The options of 1, 2, …, ``m`` copies of ``step`` taken together (delta -> weight),
    each without the sums that exceed some capacity of ``start``.

    A sum whose fields are all within the capacities is a valid state subtracted from
    ``start``; a field of a sum of two such deltas stays below its guard bit plus its
    capacity, so adding one more option borrows nothing before the check.
    """
    single = dict(zip(*step, strict=True))
    found = [single]
    for _ in range(m - 1):
        nxt: dict[int, int] = {}
        for d, w in found[-1].items():
            for e, v in single.items():
                total = d + e
                if (start - total) & goal == goal:
                    nxt[total] = nxt.get(total, 0) + w * v
        found.append(nxt)
    return tuple(found)


def _forward(steps: Sequence[Step], start: int, goal: int) -> tuple[dict[int, int], ...]:
    """Per step, the ways to reach each state from ``start`` (the last only at ``goal``)."""
    forward: list[dict[int, int]] = [{start: 1}]
    last = len(steps) - 1
    for n, (deltas, weights) in enumerate(steps):
        nxt: dict[int, int] = {}
        if n == last:
            # Only the goal finishes a deal: one lookup per state, not one per option.
            weight_of = dict(zip(deltas, weights, strict=True))
            total = 0
            for x, ways in forward[-1].items():
                weight = weight_of.get(x - goal)
                if weight:
                    total += ways * weight
            if total:
                nxt[goal] = total
        else:
            pairs = tuple(zip(deltas, weights, strict=True))
            for x, ways in forward[-1].items():
                for delta, weight in pairs:
                    y = x - delta
                    if y & goal == goal:
                        nxt[y] = nxt.get(y, 0) + ways * weight
        forward.append(nxt)
    return tuple(forward)


def _backward(
    steps: Sequence[Step], forward: Sequence[dict[int, int]], goal: int
) -> tuple[list[dict[int, int]], list[list[int]]]:
    """Per step, the ways to finish from each state the forward pass reached; and per
    step and option, the deals through it less the option's own weight."""
    backward: list[dict[int, int]] = [{}] * (len(steps) + 1)
    backward[-1] = {goal: 1} if goal in forward[-1] else {}
    shares: list[list[int]] = [[]] * len(steps)
    for i in range(len(steps) - 1, -1, -1):
        later, reached = backward[i + 1], forward[i]
        deltas, weights = steps[i]
        here: dict[int, int] = {}
        zs = [0] * len(deltas)
        if len(later) < len(reached):
            # From the fewer side: each finishing state back through each option.
            for y, after in later.items():
                for o in range(len(deltas)):  # index loops: see `blocks._block`
                    x = y + deltas[o]
                    before = reached.get(x)
                    if before:
                        here[x] = here.get(x, 0) + weights[o] * after
                        zs[o] += before * after
        else:
            for x, before in reached.items():
                ways = 0
                for o in range(len(deltas)):
                    rest = later.get(x - deltas[o])
                    if rest:
                        ways += weights[o] * rest
                        zs[o] += before * rest
                if ways:
                    here[x] = ways
        backward[i] = here
        shares[i] = zs
    return backward, shares


#: Per shape of a decomposition without blocks (`_shape`): the total and, per class, the
#: deals putting one of its cards with each holder. Sevens and Klaverjas meet the same
#: shapes again and again (other cards, the same counts); bounded like the other memos.
_SHAPES: dict[tuple[object, ...], tuple[int, tuple[tuple[int, ...], ...]]] = {}
_SHAPES_LIMIT = 4096


def _shape(dec: Decomposition, n_holders: int) -> tuple[object, ...] | None:
    """What the counts of a decomposition without blocks depend on; None with blocks."""
    if dec.blocks:
        return None
    classes = tuple([(c.compact, popcount(c.cards)) for c in dec.classes])
    return (n_holders, dec.active, dec.caps, classes)


class CountTable:
    """Forward and backward tables of one decomposition; see the module docstring.

    Items with the same options (in Kwartet, kinds with the same unknown cards, holders
    and facts) are taken together as one step of the passes (`_powers`): m alike blocks
    cost one step, not m, and share their marginals. The forward pass gives the total;
    the backward pass runs on the first `marginals`, summing each option's share as it
    goes. A decomposition of classes only whose shape was counted before (`_SHAPES`) takes
    its total and marginals from there and makes no table unless it samples. `sample`
    draws item by item in the decomposition's order (tables over the items one by one,
    made on the first draw), so a seed gives the same deal whatever was merged or reused.
    """

    __slots__ = (
        "_built", "_dec", "_groups", "_items", "_marginals", "_n_holders", "_pack",
        "_rows", "_sampling", "_shape", "_steps", "_ways", "forward", "total",
    )  # fmt: skip

    def __init__(self, dec: Decomposition, n_holders: int) -> None:
        self._dec = dec
        self._n_holders = n_holders
        self._pack = _Packing.of(dec.caps)
        self._marginals: dict[int, tuple[int, ...]] | None = None
        self._sampling: list[dict[int, int]] | None = None
        # Per (class item, cards of it placed, state): the ways to finish, for `sample`.
        self._ways: dict[tuple[int, int, int], int] = {}
        self._built = False
        # Tuples, empty until built: see `_count_marginals`.
        self._items: tuple[_Item, ...] = ()
        self._groups: tuple[tuple[Step, tuple[int, ...]], ...] = ()
        self._steps: tuple[Step, ...] = ()
        self.forward: tuple[dict[int, int], ...] = ()
        self._rows: tuple[tuple[int, ...], ...] = ()
        self._shape = shape = _shape(dec, n_holders)
        known = _SHAPES.get(shape) if shape is not None else None
        if known is not None:
            self.total, self._rows = known
        else:
            self.total = self._build()[-1].get(self._pack.goal, 0)

    def _build(self) -> tuple[dict[int, int], ...]:
        """The items, their steps (alike items merged) and the forward pass (returned)."""
        if self._built:
            return self.forward
        self._built = True
        pack = self._pack
        self._items = items = tuple(_items(self._dec, pack))
        # Alike items, in order of first appearance: their step, and their indices.
        alike: dict[Step, list[int]] = {}
        for i, item in enumerate(items):
            alike.setdefault((item.deltas, item.weights), []).append(i)
        # The largest groups first: a group's options then start from the one start state,
        # so the forward pass takes them as they are, with no pass over them.
        self._groups = groups = tuple(
            sorted([(s, tuple(m)) for s, m in alike.items()], key=lambda g: -len(g[1]))
        )
        steps: list[Step] = []
        for step, members in groups:
            if len(members) == 1:
                steps.append(step)
            else:
                merged = _powers(step, len(members), pack.start, pack.goal)[-1]
                steps.append((tuple(merged), tuple(merged.values())))
        self._steps = tuple(steps)
        self.forward = _forward(steps, pack.start, pack.goal)
        return self.forward

    def marginals(self) -> dict[int, tuple[int, ...]]:
        """Per free card, per holder, the number of consistent deals putting it there.

        Computed once per table (the seats of a state often share one). Rows are tuples:
        a table kept in a memo then holds no lists for the garbage collector to walk.
        """
        if self._marginals is None:
            self._marginals = self._count_marginals()
        return self._marginals

    def _item_shares(self) -> list[list[int]]:
        """Per item, per option: the deals that take it, less its own weight."""
        self._build()
        pack = self._pack
        _, shares = _backward(self._steps, self.forward, pack.goal)
        found: list[list[int]] = [[]] * len(self._items)
        for (step, members), zs in zip(self._groups, shares, strict=True):
            if len(members) > 1:
                # One item's option o with the others' options together (q, weight w):
                # the deals through the merged option o + q, w ways for the others.
                powers = _powers(step, len(members), pack.start, pack.goal)
                through = dict(zip(powers[-1], zs, strict=True))
                others = powers[-2]
                zs = [
                    sum([w * through.get(delta + q, 0) for q, w in others.items()])
                    for delta in step[0]
                ]
            for i in members:
                found[i] = zs
        return found

    def _count_marginals(self) -> dict[int, tuple[int, ...]]:
        result: dict[int, tuple[int, ...]] = {}
        classes = self._dec.classes
        if self._rows:
            for cls, known in zip(classes, self._rows, strict=True):
                for c in iter_bits(cls.cards):
                    result[c] = known
            return result
        n_holders = self._n_holders
        sums: dict[int, list[int]] = {}
        for item, zs in zip(self._items, self._item_shares(), strict=True):
            block = item.block
            if block is None:
                # A card of the class goes to a holder in the share n/k of the ways to
                # take n of its k cards; every card of the class has the same row.
                row = [0] * n_holders
                for h, column in zip(item.holders, item.columns, strict=True):
                    row[h] = sum(map(mul, zs, column))
                shared = tuple(row)
                for c in item.cards:
                    result[c] = shared
                continue
            for c in block.cards:
                sums[c] = [0] * n_holders
            cards, tallies = block.cards, block.tallies()
            for g in range(len(tallies)):  # index loops: see `blocks._block`
                z = zs[g]
                if z:
                    for p, h, n in tallies[g]:
                        sums[cards[p]][h] += z * n
        for c, counted in sums.items():
            result[c] = tuple(counted)
        if self._sampling is None:
            # The marginals are all a memo's table is usually asked for again: what the
            # passes built is dropped (made again if a draw needs it), so a memo's entries
            # hold few objects for the garbage collector to walk.
            self._built = False
            self._items, self._groups, self._steps, self.forward = (), (), (), ()
        if self._shape is not None and classes:
            _evict_half(_SHAPES, _SHAPES_LIMIT)
            _SHAPES[self._shape] = (
                self.total,
                tuple([result[(c.cards & -c.cards).bit_length() - 1] for c in classes]),
            )
        return result

    @property
    def backward(self) -> list[dict[int, int]]:
        """Per item of the decomposition, in order, the ways to finish the deal from each
        state its items before it reach (for `sample`)."""
        if self._sampling is None:
            self._build()
            steps = tuple([(item.deltas, item.weights) for item in self._items])
            if steps == self._steps:
                forward = self.forward
            else:
                forward = _forward(steps, self._pack.start, self._pack.goal)
            self._sampling = _backward(steps, forward, self._pack.goal)[0]
        return self._sampling

    def sample(self, rng: Rng) -> dict[int, int]:
        """A uniformly random consistent placement of the free cards (card -> holder).

        A class's cards are drawn one by one (each holder with the share of the deals
        that follow), so a seed gives the same deal as tables kept card by card would.
        """
        placed: dict[int, int] = {}
        backward = self.backward
        x = self._pack.start
        for i, item in enumerate(self._items):
            later = backward[i + 1]
            r = randbelow(rng, backward[i][x])
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


# Made for every block of every count, so through the attributes' own setters.
_item = slot_maker(_Item)
