"""Bisimulation contraction: the smallest model that agrees with a given one on every formula."""

from __future__ import annotations

import numpy as np

from epigames.logic.model import KripkeModel
from epigames.logic.relations import AnyRelation, Ints, Mask, Partition, Relation, _renumber


def reachable(model: KripkeModel) -> Mask:
    """The worlds reachable from the designated ones by any agents' steps (them included).

    No formula evaluated at a designated world looks anywhere else, so the generated
    submodel on these worlds agrees with the model there. Without designated worlds, all.
    """
    if not model.designated:
        return np.ones(model.size, dtype=bool)
    seen = np.zeros(model.size, dtype=bool)
    seen[list(model.designated)] = True
    frontier = seen.copy()
    while frontier.any():
        nxt = np.zeros(model.size, dtype=bool)
        for rel in model.relations.values():
            if isinstance(rel, Partition):
                blocks = np.zeros(rel.blocks, dtype=bool)
                blocks[rel.block[frontier]] = True
                nxt |= blocks[rel.block]
            else:
                nxt[rel.dst[frontier[rel.src]]] = True
        frontier = nxt & ~seen
        seen |= nxt
    return seen


def bisimilarity_classes(model: KripkeModel) -> Ints:
    """The coarsest bisimulation as a class id per world (partition refinement)."""
    n = model.size
    atoms = sorted(model.valuation)
    ids = np.zeros(n, dtype=np.int64)
    for a in atoms:
        ids = ids * 2 + model.valuation[a].astype(np.int64)
        ids, _ = _renumber(ids)
    count = len(set(ids.tolist()))
    while True:
        signatures: list[tuple[object, ...]] = [(int(i),) for i in ids.tolist()]
        for agent in model.agents:
            succ = _successor_classes(model.relations[agent], ids)
            for w in range(n):
                signatures[w] += (succ[w],)
        table: dict[tuple[object, ...], int] = {}
        new = np.array([table.setdefault(s, len(table)) for s in signatures], dtype=np.int64)
        if len(table) == count:
            return new
        ids, count = new, len(table)


def _successor_classes(rel: AnyRelation, ids: Ints) -> list[frozenset[int]]:
    n = ids.size
    if isinstance(rel, Partition):
        per_block: list[set[int]] = [set() for _ in range(rel.blocks)]
        for b, c in zip(rel.block.tolist(), ids.tolist(), strict=True):
            per_block[b].add(c)
        frozen = [frozenset(s) for s in per_block]
        return [frozen[b] for b in rel.block.tolist()]
    out: list[set[int]] = [set() for _ in range(n)]
    idl = ids.tolist()
    for a, b in zip(rel.src.tolist(), rel.dst.tolist(), strict=True):
        out[a].add(idl[b])
    return [frozenset(s) for s in out]


def join_classes(rel: Partition, ids: Ints, k: int) -> list[int]:
    parent = list(range(k))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    first_in_block: dict[int, int] = {}
    for b, c in zip(rel.block.tolist(), ids.tolist(), strict=True):
        root = first_in_block.setdefault(b, c)
        parent[find(c)] = find(root)
    return [find(c) for c in range(k)]


def contract(model: KripkeModel) -> KripkeModel:
    """The bisimulation quotient: one world per class of bisimilar worlds.

    A model with designated worlds is first restricted to the worlds reachable from them
    (`reachable`): the others cannot change the truth of anything at the designated
    worlds. World names are those of each class's first world; S5 agents stay S5.
    """
    keep = reachable(model)
    if not keep.all():
        model = model.restrict(keep)
    ids = bisimilarity_classes(model)
    ids, k = _renumber(ids)
    first = [-1] * k
    for w, c in enumerate(ids.tolist()):
        if first[c] < 0:
            first[c] = w
    rep = np.array(first, dtype=np.int64)
    valuation = {}
    for a, m in model.valuation.items():
        col = m[rep].copy()
        col.flags.writeable = False
        valuation[a] = col
    relations: dict[str, AnyRelation] = {}
    for agent, rel in model.relations.items():
        if isinstance(rel, Partition):
            # Bisimilar worlds see the same classes, so the quotient of an equivalence is
            # one: two classes are related iff some members share a block.
            relations[agent] = Partition.from_ids(join_classes(rel, ids, k))
        else:
            relations[agent] = Relation.from_edges(k, ids[rel.src], ids[rel.dst])
    designated = tuple(sorted({int(ids[d]) for d in model.designated}))
    return KripkeModel(
        model.agents, tuple(model.worlds[w] for w in first), valuation, relations, designated
    )
