"""Whether the cards outside a quotient's worlds complete every world, whatever a group holds.

For a component of items, the vectors of how many of its cards each holder gets form an
M-convex set (the placements of a network flow, when its facts are laminar per holder);
their sum over the components contains the rooms `r` exactly when ``r(B) <= sum of
max x(B)`` for every set B of holders, since the components' rank functions add up. For
a group of seats (one seat, or those whose hands distributed knowledge pools), the worst
way the group may hold its cards (so many per member, as its rooms leave) minimises the
right-hand side; a dynamic program over the components finds that minimum for every B at
once, with numpy over the 2^q sets.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
import numpy.typing as npt

from epigames.cards.items import Placement, Split, laminar

__all__ = ["MAX_GROUP_VECTORS", "MAX_LISTED_CANDIDATES", "MAX_LISTED_CARDS", "Completion"]

#: The most cards of a component of several items whose placements are listed.
MAX_LISTED_CARDS = 10
#: The most candidate placements of a component of several items that are tried.
MAX_LISTED_CANDIDATES = 200_000
#: The most ways (cards per member) a group may hold its cards that are tracked.
MAX_GROUP_VECTORS = 100_000

_Vector = tuple[int, ...]  # per member of a group: how many cards it holds
_Cost = dict[_Vector, npt.NDArray[np.int64]]  # per vector: the least rank per subset
_INF = np.iinfo(np.int64).max // 4  # no way to hold that vector
Group = tuple[int, ...]  # hidden positions
# A chain of components folded: still ok, the ranks, the rows each group got last.
_Verdicts = dict[tuple[int, ...], tuple[bool, bool]]
_Folded = tuple[bool, list[npt.NDArray[np.int64]], dict[Group, frozenset[object]], _Verdicts]


@dataclass(frozen=True, slots=True)
class _Frame:
    """A group's side of the check: its members' rooms and the subsets of the others.

    Attributes:
        group: the members (hidden positions); empty for the check that anything completes.
        holders: the other holders with room.
        subsets: a 0/1 matrix, one row per holder, one column per subset of them.
        most: per member, its room.
    """

    group: Group
    holders: tuple[int, ...]
    subsets: npt.NDArray[np.int64]
    most: _Vector

    @classmethod
    def of(cls, split: Split, group: Group, positive: Sequence[int]) -> _Frame:
        """The frame of a group within a split."""
        holders = tuple(j for j in positive if j not in group)
        q = len(holders)
        subsets = np.array(
            [[(b >> k) & 1 for b in range(1 << q)] for k in range(q)], dtype=np.int64
        ).reshape(q, 1 << q)
        return cls(group, holders, subsets, tuple(split.room[g] for g in group))

    def fits(self, vector: _Vector) -> bool:
        """Whether the members have room for so many cards."""
        return all(n <= m for n, m in zip(vector, self.most, strict=True))


class Completion:
    """The untouched components' check for the whole table and for each group.

    Attributes:
        ok: False when a component is not handled (too many cards to list, facts not
            laminar, or a group with too many ways to hold them): then nothing is claimed.
        shown: per group, the components added by `extended` with the rows the group may
            have in each (what the group can hold beyond the shared components).
    """

    def __init__(self, split: Split, groups: Sequence[Group]) -> None:
        self.positive = tuple(j for j, r in enumerate(split.room) if r > 0)
        self.ok = True
        self.frames = [_Frame.of(split, (), self.positive)]
        for group in dict.fromkeys(groups):
            frame = _Frame.of(split, group, self.positive)
            # A group that holds all the room has nothing left to complete.
            if frame.holders and sum(frame.most) > 0:
                self.frames.append(frame)
        self.shown: dict[Group, tuple[tuple[tuple[int, ...], frozenset[object]], ...]] = {
            f.group: () for f in self.frames
        }
        # Per frame, a dense array over the members' counts (then the subsets): the least
        # total rank, `_INF` where the group cannot hold that many.
        self.ranks: list[npt.NDArray[np.int64]] = []
        for frame in self.frames:
            shape = tuple(m + 1 for m in frame.most)
            self.ok = self.ok and prod(shape) <= MAX_GROUP_VECTORS
            ranks = np.full((*shape, frame.subsets.shape[1]) if self.ok else 0, _INF, np.int64)
            if self.ok:
                ranks[(0,) * len(shape)] = 0
            self.ranks.append(ranks)
        if self.ok:
            self._add(split, split.components[split.touched :], show=False)
        # Per chain of component shapes folded by `extended`: its outcome.
        self.folded: dict[object, _Folded] = {}
        # `verdict` per rooms, shared by the copies with the same ranks.
        self.verdicts: _Verdicts = {}

    def extended(self, split: Split, components: Sequence[tuple[int, ...]]) -> Completion:
        """A copy with more components (of `split`: the same items, rooms and holders)."""
        copy = object.__new__(Completion)
        copy.positive, copy.ok = self.positive, self.ok
        copy.frames, copy.ranks, copy.shown = self.frames, list(self.ranks), dict(self.shown)
        copy.folded, copy.verdicts = self.folded, self.verdicts
        if not copy.ok:
            return copy
        # The worlds of a quotient leave their touched kinds' other cards in components of
        # a few shapes (a six-player Kwartet deal: 1,296 worlds, four such components
        # each): a chain of shapes is folded once. Folding is the same in any order, so
        # the components go in the order of their shapes, and worlds with the same shapes
        # in another order share a chain (five kinds named at the start of six-player
        # Kwartet: 7,776 worlds, 9,330 chains in the given order).
        shaped = []
        for component in components:
            items = [split.items[i] for i in component]
            facts = split.component_facts(component)
            shape = (
                tuple((it.size, it.allowed) for it in items),
                tuple(sorted((f.at, f.some, tuple(component.index(i) for i in sorted(f.items)))
                             for f in facts)),
            )  # fmt: skip
            shaped.append((shape, component))
        shaped.sort(key=lambda pair: pair[0])
        chain: tuple[object, ...] = ()
        for shape, component in shaped:
            chain = (chain, shape)
            done = self.folded.get(chain)
            if done is None:
                before = {g: len(rows) for g, rows in copy.shown.items()}
                copy._add(split, [component], show=True)
                added = {g: rows[-1][1] for g, rows in copy.shown.items() if len(rows) > before[g]}
                done = self.folded[chain] = (copy.ok, list(copy.ranks), added, {})
            else:
                copy.ok, ranks, added, _ = done
                copy.ranks = list(ranks)
                for g, rows in added.items():
                    copy.shown[g] += ((component, rows),)
            copy.verdicts = done[3]
            if not copy.ok:
                return copy
        return copy

    def _add(self, split: Split, components: Sequence[tuple[int, ...]], *, show: bool) -> None:
        """Fold components into every frame's ranks."""
        for component in components:
            listed = None
            if len(component) > 1:
                listed = _listed(split, component)
                if listed is None:
                    self.ok = False
                    return
                totals = np.array(
                    [[sum(col) for col in zip(*p, strict=True)] for p in listed], np.int64
                ).reshape(len(listed), len(split.room))
            for k, frame in enumerate(self.frames):
                found = (
                    _one_item(split, component[0], frame)
                    if listed is None
                    else _cost(listed, totals, frame)
                )
                if found is None:
                    self.ok = False
                    return
                cost, rows = found
                self.ranks[k] = _convolve(self.ranks[k], cost, frame)
                if show and frame.group:
                    self.shown[frame.group] += ((component, rows),)

    def verdict(self, rooms: Sequence[int]) -> tuple[bool, bool]:
        """Whether the untouched cards fill these rooms (per hidden holder) in some deal,
        and whether, besides, every group's every way of holding them completes."""
        key = tuple(rooms)
        found = self.verdicts.get(key)
        if found is None:
            completes, uniform = self.check(np.array([key], np.int64))
            found = self.verdicts[key] = (bool(completes[0]), bool(uniform[0]))
        return found

    def check(
        self, rooms: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """`verdict` for each row of `rooms` (rooms per hidden holder), in one pass of
        array operations."""
        frame = self.frames[0]
        ranks = self.ranks[0][()]
        completes = np.all(rooms[:, list(frame.holders)] @ frame.subsets <= ranks, axis=1)
        uniform = completes.copy()
        for frame, ranks in zip(self.frames[1:], self.ranks[1:], strict=True):
            best = ranks[tuple(rooms[:, g] for g in frame.group)]
            uniform &= best[:, 0] < _INF
            uniform &= np.all(rooms[:, list(frame.holders)] @ frame.subsets <= best, axis=1)
        return completes, uniform


def _convolve(ranks: npt.NDArray[np.int64], cost: _Cost, frame: _Frame) -> npt.NDArray[np.int64]:
    """Ranks over one more component: the least sum per total vector."""
    out = np.full_like(ranks, _INF)
    for vector, rank in cost.items():
        if not frame.fits(vector):
            continue
        into = tuple(slice(x, m + 1) for x, m in zip(vector, frame.most, strict=True))
        come = tuple(slice(0, m + 1 - x) for x, m in zip(vector, frame.most, strict=True))
        np.minimum(out[into], ranks[come] + rank, out=out[into])
    return np.minimum(out, _INF)


def _listed(split: Split, component: Sequence[int]) -> tuple[Placement, ...] | None:
    """The placements of a component of several items, when it is small enough to list
    and its facts are laminar; None otherwise."""
    if sum(split.items[i].size for i in component) > MAX_LISTED_CARDS or not laminar(
        split.component_facts(component)
    ):
        return None
    return split.placements(component, MAX_LISTED_CANDIDATES)


def _cost(
    placements: Sequence[Placement], totals: npt.NDArray[np.int64], frame: _Frame
) -> tuple[_Cost, frozenset[object]] | None:
    """Per vector of a listed component's cards at the group's members, the least over
    the group's ways of holding them of the most the other holders in each subset can
    take, and the rows the group may have; None when it cannot be placed.

    `totals`: per placement, the component's cards at each hidden holder."""
    # Per row (the group's count of each item): the most the others can take.
    if not placements:
        return None  # the component cannot be placed: not a consistent state
    ranks = totals[:, list(frame.holders)] @ frame.subsets
    at: dict[tuple[_Vector, ...], list[int]] = {}
    for k, placement in enumerate(placements):
        at.setdefault(tuple(tuple(col[g] for g in frame.group) for col in placement), []).append(k)
    most = {row: ranks[index].max(axis=0) for row, index in at.items()}
    # Per vector: the least over the rows of that vector (the group's worst way).
    cost: _Cost = {}
    rows: set[object] = set()
    for row, rank in most.items():
        vector = tuple(sum(per_item[m] for per_item in row) for m in range(len(frame.group)))
        if not frame.fits(vector):
            continue
        rows.add(row)
        before = cost.get(vector)
        cost[vector] = rank if before is None else np.minimum(before, rank)
    if not cost:
        return None  # the component cannot be placed: not a consistent state
    return cost, frozenset(rows)


def _one_item(split: Split, i: int, frame: _Frame) -> tuple[_Cost, frozenset[object]] | None:
    """`_cost` of one item: a box per holder (at least one, not all) and a total, so its
    rank is ``min(left - low outside B, high in B)``."""
    item = split.items[i]
    n = len(split.hidden)
    low = [0] * n
    high = [min(item.size, r) if a else 0 for a, r in zip(item.allowed, split.room, strict=True)]
    for fact in split.component_facts([i]):
        if fact.some:
            low[fact.at] = 1
        else:
            high[fact.at] = min(high[fact.at], item.size - 1)
    if any(lo > hi for lo, hi in zip(low, high, strict=True)):
        return None
    others = [j for j in range(n) if j not in frame.group]
    low_others = sum(low[j] for j in others)
    high_others = sum(high[j] for j in others)
    low_in = np.array([low[j] for j in frame.holders], dtype=np.int64) @ frame.subsets
    high_in = np.array([high[j] for j in frame.holders], dtype=np.int64) @ frame.subsets
    cost: _Cost = {}
    ranges = [range(low[g], high[g] + 1) for g in frame.group]
    for vector in itertools.product(*ranges):
        left = item.size - sum(vector)
        if frame.fits(vector) and low_others <= left <= high_others:
            cost[vector] = np.minimum(left - (low_others - low_in), high_in)
    if not cost:
        return None
    return cost, frozenset((vector,) for vector in cost)
