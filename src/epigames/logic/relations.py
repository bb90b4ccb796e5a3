"""Accessibility relations over worlds `0..n-1`, vectorised with numpy.

A `Partition` (S5: an equivalence relation) stores one block id per world; a `Relation`
(any K, KD45, … relation) stores its edges as two parallel arrays. World sets are numpy
boolean arrays of length n.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from epigames.errors import ModelError

Mask = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]


def _renumber(keys: Ints) -> tuple[Ints, int]:
    """Dense ids 0..k-1 for arbitrary integer keys, in order of first appearance."""
    if keys.size == 0:
        return keys.astype(np.int64), 0
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first, kind="stable"), kind="stable")
    return order[inverse].astype(np.int64), int(first.size)


@dataclass(frozen=True, eq=False)
class Partition:
    """An equivalence relation given by a block id per world."""

    block: Ints
    blocks: int

    @classmethod
    def from_ids(cls, ids: npt.ArrayLike) -> Partition:
        """From any integer label per world (equal labels ⇒ same block)."""
        block, count = _renumber(np.asarray(ids, dtype=np.int64))
        block.flags.writeable = False
        return cls(block, count)

    @property
    def size(self) -> int:
        return int(self.block.size)

    def box(self, truth: Mask) -> Mask:
        """Worlds whose whole block lies inside `truth` (□ for this agent)."""
        bad = np.bincount(self.block[~truth], minlength=self.blocks)
        result: Mask = bad[self.block] == 0
        return result

    def restrict(self, keep: Mask) -> Partition:
        return Partition.from_ids(self.block[keep])

    def split(self, truth: Mask) -> Partition:
        """Refine every block by the truth value of a formula."""
        return Partition.from_ids(self.block * 2 + truth.astype(np.int64))

    def edges(self) -> tuple[Ints, Ints]:
        """All ordered pairs of worlds in the same block (including loops)."""
        order = np.argsort(self.block, kind="stable")
        sizes = np.bincount(self.block, minlength=self.blocks)
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        src_parts: list[Ints] = []
        dst_parts: list[Ints] = []
        for b in range(self.blocks):
            members = order[starts[b] : starts[b] + sizes[b]]
            src_parts.append(np.repeat(members, sizes[b]))
            dst_parts.append(np.tile(members, sizes[b]))
        if not src_parts:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        return np.concatenate(src_parts), np.concatenate(dst_parts)

    def classes(self) -> list[list[int]]:
        """The blocks as sorted lists of worlds."""
        out: list[list[int]] = [[] for _ in range(self.blocks)]
        for w, b in enumerate(self.block.tolist()):
            out[b].append(w)
        return out


@dataclass(frozen=True, eq=False)
class Relation:
    """An arbitrary relation given by its edges `src[i] → dst[i]`."""

    src: Ints
    dst: Ints
    size: int

    @classmethod
    def from_edges(cls, n: int, src: npt.ArrayLike, dst: npt.ArrayLike) -> Relation:
        s = np.asarray(src, dtype=np.int64)
        d = np.asarray(dst, dtype=np.int64)
        if s.shape != d.shape:
            raise ModelError("a relation needs as many sources as targets")
        if s.size and (min(s.min(), d.min()) < 0 or max(s.max(), d.max()) >= n):
            raise ModelError(f"a relation names a world outside 0..{n - 1}")
        # Deduplicate so that edge counts mean something and intersections are exact.
        codes = np.unique(s * n + d) if n else s
        src_u, dst_u = (codes // n, codes % n) if n else (s, d)
        src_u.flags.writeable = False
        dst_u.flags.writeable = False
        return cls(src_u, dst_u, n)

    def box(self, truth: Mask) -> Mask:
        """Worlds all of whose successors lie inside `truth`."""
        bad = np.zeros(self.size, dtype=bool)
        bad[self.src[~truth[self.dst]]] = True
        return ~bad

    def restrict(self, keep: Mask) -> Relation:
        index = np.cumsum(keep) - 1
        ok = keep[self.src] & keep[self.dst]
        return Relation.from_edges(int(keep.sum()), index[self.src[ok]], index[self.dst[ok]])

    def split(self, truth: Mask) -> Relation:
        ok = truth[self.src] == truth[self.dst]
        return Relation.from_edges(self.size, self.src[ok], self.dst[ok])

    def edges(self) -> tuple[Ints, Ints]:
        return self.src, self.dst

    def codes(self) -> Ints:
        return self.src * self.size + self.dst

    def is_serial(self) -> bool:
        has = np.zeros(self.size, dtype=bool)
        has[self.src] = True
        return bool(has.all())


AnyRelation = Partition | Relation


def as_relation(r: AnyRelation) -> Relation:
    """Any relation as explicit edges."""
    if isinstance(r, Relation):
        return r
    src, dst = r.edges()
    return Relation.from_edges(r.size, src, dst)


def intersection(rels: list[AnyRelation], n: int) -> AnyRelation:
    """The intersection of relations (distributed knowledge)."""
    if all(isinstance(r, Partition) for r in rels):
        ids = np.zeros(n, dtype=np.int64)
        for r in rels:
            assert isinstance(r, Partition)
            ids = ids * (r.blocks + 1) + r.block
            ids, _ = _renumber(ids)
        return Partition.from_ids(ids)
    codes = as_relation(rels[0]).codes()
    for r in rels[1:]:
        codes = np.intersect1d(codes, as_relation(r).codes(), assume_unique=True)
    return Relation.from_edges(n, codes // n if n else codes, codes % n if n else codes)


def components(rels: list[Partition], n: int) -> Ints:
    """Connected components of the union of partitions, as a label per world."""
    labels = np.arange(n, dtype=np.int64)
    changed = True
    while changed:
        changed = False
        for r in rels:
            low = np.full(r.blocks, n, dtype=np.int64)
            np.minimum.at(low, r.block, labels)
            new = low[r.block]
            if not np.array_equal(new, labels):
                labels = new
                changed = True
    return labels
