"""Action models with pre- and postconditions, and product update.

An action model is a Kripke model of events: each event has a precondition (when it can
happen) and a postcondition (atoms it sets, each to the truth value a formula had before
the event: factual change). The product update of a model with an action model has a world
`(w, e)` for every world `w` where `pre(e)` holds; an agent cannot tell `(w, e)` from
`(v, f)` when it could not tell `w` from `v` nor `e` from `f`.

The standard action models for who learns a formula φ, for a group G of agents:

- `ActionModel.public_announcement`: one event, precondition φ; everyone sees it, so φ
  becomes common knowledge.
- `ActionModel.private_announcement` (a secret group announcement): events `tell` (φ) and
  `skip` (⊤); G tells them apart, the others cannot, so G learns φ (commonly, within G)
  while the others consider that nothing happened.
- `ActionModel.semi_private_announcement`: events `yes` (φ) and `no` (¬φ), both designated;
  G tells them apart, the others cannot, so G learns whether φ and everyone knows that G
  did.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from epigames.errors import ModelError, UnknownAgentError
from epigames.logic.formula import Formula, Not, Top
from epigames.logic.model import KripkeModel
from epigames.logic.relations import AnyRelation, Mask, Partition, Relation, as_relation


@dataclass(frozen=True, eq=False)
class ActionModel:
    """Events with preconditions, postconditions, per-agent relations and designated events."""

    agents: tuple[str, ...]
    events: tuple[str, ...]
    pre: tuple[Formula, ...]
    post: tuple[Mapping[str, Formula], ...]
    relations: Mapping[str, AnyRelation]
    designated: tuple[int, ...]

    @classmethod
    def build(
        cls,
        events: Mapping[str, Formula | tuple[Formula, Mapping[str, Formula]]],
        *,
        partitions: Mapping[str, Iterable[Iterable[str]]] | None = None,
        relations: Mapping[str, Iterable[tuple[str, str]]] | None = None,
        designated: Iterable[str] = (),
    ) -> ActionModel:
        """Build from event name → precondition (or (precondition, postconditions))."""
        names = tuple(events)
        index = {e: i for i, e in enumerate(names)}
        pres: list[Formula] = []
        posts: list[Mapping[str, Formula]] = []
        for spec in events.values():
            if isinstance(spec, tuple):
                pres.append(spec[0])
                posts.append(dict(spec[1]))
            else:
                pres.append(spec)
                posts.append({})

        def event(e: str) -> int:
            try:
                return index[e]
            except KeyError:
                raise ModelError(f"{e!r} is not an event of this action model") from None

        rels: dict[str, AnyRelation] = {}
        for agent, blocks in (partitions or {}).items():
            ids = np.full(len(names), -1, dtype=np.int64)
            for b, block in enumerate(blocks):
                for e in block:
                    i = event(e)
                    if ids[i] >= 0:
                        raise ModelError(f"event {e!r} is in two blocks of {agent!r}")
                    ids[i] = b
            if (ids < 0).any():
                raise ModelError(f"the event partition of {agent!r} leaves out events")
            rels[agent] = Partition.from_ids(ids)
        for agent, pairs in (relations or {}).items():
            edges = [(event(a), event(b)) for a, b in pairs]
            rels[agent] = Relation.from_edges(
                len(names), [a for a, _ in edges], [b for _, b in edges]
            )
        des = tuple(event(e) for e in designated)
        return cls(tuple(rels), names, tuple(pres), tuple(posts), rels, des)

    @classmethod
    def public_announcement(cls, agents: Sequence[str], formula: Formula) -> ActionModel:
        """The one-event action model of a truthful public announcement."""
        return cls.build(
            {"announce": formula},
            partitions={a: [["announce"]] for a in agents},
            designated=["announce"],
        )

    @classmethod
    def private_announcement(
        cls, agents: Sequence[str], group: Iterable[str], formula: Formula
    ) -> ActionModel:
        """The group learns the formula; the others cannot tell whether anything happened.

        The designated event `tell` needs the formula; `skip` (precondition ⊤) is what the
        others consider may have happened instead, so their knowledge of the facts stays as
        it was. Within the group the formula becomes common knowledge.

        Raises:
            UnknownAgentError: the group names an agent not in `agents`.
        """
        return cls.build(
            {"tell": formula, "skip": Top()},
            partitions=_group_sees(agents, group, ("tell", "skip")),
            designated=["tell"],
        )

    @classmethod
    def semi_private_announcement(
        cls, agents: Sequence[str], group: Iterable[str], formula: Formula
    ) -> ActionModel:
        """The group learns whether the formula holds; the others know that it did.

        Events `yes` (the formula) and `no` (its negation) are both designated, so the
        product keeps every world, once, with the event that happens there: nothing is
        ruled out, the group's relations are cut by the formula's truth and the others'
        stay as they were (`KripkeModel.split`, as a product update).

        Raises:
            UnknownAgentError: the group names an agent not in `agents`.
        """
        return cls.build(
            {"yes": formula, "no": Not(formula)},
            partitions=_group_sees(agents, group, ("yes", "no")),
            designated=["yes", "no"],
        )


def _group_sees(
    agents: Sequence[str], group: Iterable[str], events: tuple[str, str]
) -> dict[str, list[list[str]]]:
    """Event partitions where the group tells the two events apart and the others cannot."""
    insiders = set(group)
    strangers = sorted(insiders - set(agents))
    if strangers:
        # Silently dropping them would announce to fewer agents than the caller meant.
        raise UnknownAgentError(
            f"the group names {', '.join(map(repr, strangers))}, not among the agents "
            f"{', '.join(agents)}"
        )
    apart = [[events[0]], [events[1]]]
    return {a: (apart if a in insiders else [list(events)]) for a in agents}


def product_update(model: KripkeModel, action: ActionModel) -> KripkeModel:
    """The product update `model ⊗ action`; world names are `w.e`."""
    if set(model.agents) != set(action.agents):
        raise ModelError(
            f"the model's agents {sorted(model.agents)} differ from the action model's "
            f"{sorted(action.agents)}"
        )
    pres = [model.truth_set(p) for p in action.pre]
    worlds: list[tuple[int, int]] = [
        (w, e) for e, pre in enumerate(pres) for w in np.flatnonzero(pre).tolist()
    ]
    n = len(worlds)
    w_of = np.array([w for w, _ in worlds], dtype=np.int64)
    e_of = np.array([e for _, e in worlds], dtype=np.int64)
    names = tuple(f"{model.worlds[w]}.{action.events[e]}" for w, e in worlds)
    if len(set(names)) != len(names):
        # Dots inside the old names made "w.e" ambiguous; bracketed pairs are not.
        names = tuple(f"({model.worlds[w]},{action.events[e]})" for w, e in worlds)
        if len(set(names)) != len(names):
            raise ModelError("product world names clash; rename worlds or events")

    atoms = set(model.valuation) | {p for post in action.post for p in post}
    valuation: dict[str, Mask] = {}
    for p in atoms:
        before = model.valuation.get(p)
        col = np.zeros(n, dtype=bool) if before is None else before[w_of].copy()
        for e, post in enumerate(action.post):
            if p in post:
                here = e_of == e
                col[here] = model.truth_set(post[p])[w_of[here]]
        if col.any():
            col.flags.writeable = False
            valuation[p] = col

    relations: dict[str, AnyRelation] = {}
    for agent in model.agents:
        mr, ar = model.relations[agent], action.relations[agent]
        if isinstance(mr, Partition) and isinstance(ar, Partition):
            relations[agent] = Partition.from_ids(mr.block[w_of] * (ar.blocks + 1) + ar.block[e_of])
        else:
            relations[agent] = _product_edges(as_relation(mr), as_relation(ar), w_of, e_of, n)

    pos = {pair: i for i, pair in enumerate(worlds)}
    designated = tuple(
        pos[(w, e)] for w in model.designated for e in action.designated if (w, e) in pos
    )
    if (model.designated and action.designated) and not designated:
        raise ModelError("no designated event can happen at a designated world")
    return KripkeModel(model.agents, names, valuation, relations, designated)


def _product_edges(
    mr: Relation, ar: Relation, w_of: np.ndarray, e_of: np.ndarray, n: int
) -> Relation:
    index: dict[tuple[int, int], int] = {
        (int(w), int(e)): i for i, (w, e) in enumerate(zip(w_of, e_of, strict=True))
    }
    by_world: dict[int, list[int]] = {}
    for a, b in zip(mr.src.tolist(), mr.dst.tolist(), strict=True):
        by_world.setdefault(a, []).append(b)
    src: list[int] = []
    dst: list[int] = []
    for e, f in zip(ar.src.tolist(), ar.dst.tolist(), strict=True):
        for w in np.flatnonzero(e_of == e).tolist():
            wv = int(w_of[w])
            for v in by_world.get(wv, ()):
                j = index.get((v, f))
                if j is not None:
                    src.append(w)
                    dst.append(j)
    return Relation.from_edges(n, src, dst)
