"""Explicit Kripke models and model checking.

Worlds are numbered `0..n-1` (with display names); a world set is a numpy boolean array.
Each agent has either a `Partition` (S5) or an arbitrary `Relation` (K, KD45, …). Truth sets
are memoised per model, so asking many formulas that share subformulas is cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from epigames.errors import ModelError
from epigames.logic import formula as fm
from epigames.logic.formula import Formula
from epigames.logic.relations import (
    AnyRelation,
    Mask,
    Partition,
    Relation,
    components,
    intersection,
)
from epigames.logic.svg import model_svg


def _frozen(mask: Mask) -> Mask:
    mask.flags.writeable = False
    return mask


@dataclass(frozen=True, eq=False)
class KripkeModel:
    """A multi-agent Kripke model with designated (actual) worlds.

    Build one with `KripkeModel.build(...)`; the constructor takes the internal arrays.
    """

    agents: tuple[str, ...]
    worlds: tuple[str, ...]
    valuation: Mapping[str, Mask]
    relations: Mapping[str, AnyRelation]
    designated: tuple[int, ...] = ()
    _cache: dict[Formula, Mask] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.worlds)
        if set(self.relations) != set(self.agents):
            raise ModelError(
                f"every agent needs exactly one relation; agents {list(self.agents)}, "
                f"relations for {sorted(self.relations)}"
            )
        for agent, rel in self.relations.items():
            if rel.size != n:
                raise ModelError(f"the relation of {agent!r} covers {rel.size} worlds, not {n}")
        for atom, mask in self.valuation.items():
            if mask.shape != (n,):
                raise ModelError(f"the valuation of {atom!r} has the wrong length")
        bad = [w for w in self.designated if not 0 <= w < n]
        if bad:
            raise ModelError(f"designated worlds {bad} are not worlds of the model")

    # --- construction -------------------------------------------------------------

    @classmethod
    def build(
        cls,
        worlds: Sequence[str | int],
        valuation: Mapping[str | int, Iterable[str]],
        *,
        partitions: Mapping[str, Iterable[Iterable[str | int]]] | None = None,
        relations: Mapping[str, Iterable[tuple[str | int, str | int]]] | None = None,
        designated: Iterable[str | int] = (),
    ) -> KripkeModel:
        """Build a model from world names, the atoms true in each world and the relations.

        Args:
            worlds: world names (any distinct strings or ints).
            valuation: world name → the atoms true there (missing worlds: none true).
            partitions: agent → blocks of world names (S5); every world in exactly one block.
            relations: agent → (from, to) pairs of world names (any relation).
            designated: the actual world(s).
        """
        names = tuple(str(w) for w in worlds)
        index = {name: i for i, name in enumerate(names)}
        if len(index) != len(names):
            raise ModelError("world names must be distinct")

        def world(w: str | int, where: str) -> int:
            try:
                return index[str(w)]
            except KeyError:
                raise ModelError(f"{where} names {w!r}, which is not a world") from None

        n = len(names)
        truth: dict[str, Mask] = {}
        for w, atoms in valuation.items():
            i = world(w, "the valuation")
            for a in atoms:
                truth.setdefault(str(a), np.zeros(n, dtype=bool))[i] = True
        rels: dict[str, AnyRelation] = {}
        for agent, blocks in (partitions or {}).items():
            ids = np.full(n, -1, dtype=np.int64)
            for b, block in enumerate(blocks):
                for w in block:
                    i = world(w, f"the partition of {agent!r}")
                    if ids[i] >= 0:
                        raise ModelError(f"world {w!r} is in two blocks of {agent!r}")
                    ids[i] = b
            missing = [names[i] for i in np.flatnonzero(ids < 0)]
            if missing:
                raise ModelError(f"the partition of {agent!r} leaves out worlds {missing}")
            rels[agent] = Partition.from_ids(ids)
        for agent, pairs in (relations or {}).items():
            if agent in rels:
                raise ModelError(f"agent {agent!r} has both a partition and a relation")
            edges = [(world(a, f"{agent!r}'s relation"), world(b, f"{agent!r}'s relation"))
                     for a, b in pairs]  # fmt: skip
            rels[agent] = Relation.from_edges(n, [e[0] for e in edges], [e[1] for e in edges])
        des = tuple(world(w, "designated") for w in designated)
        return cls(tuple(rels), names, {a: _frozen(m) for a, m in truth.items()}, rels, des)

    # --- basic queries --------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of worlds."""
        return len(self.worlds)

    @property
    def atoms(self) -> tuple[str, ...]:
        """Atoms true somewhere (all others are false everywhere)."""
        return tuple(sorted(self.valuation))

    def is_s5(self) -> bool:
        """True when every agent's relation is a partition."""
        return all(isinstance(r, Partition) for r in self.relations.values())

    def truth_set(self, formula: Formula) -> Mask:
        """The worlds where the formula is true, as a read-only boolean array."""
        return self._eval(formula)

    def where(self, formula: Formula) -> list[str]:
        """Names of the worlds where the formula is true."""
        return [self.worlds[i] for i in np.flatnonzero(self._eval(formula))]

    def holds(self, formula: Formula, world: str | int | None = None) -> bool:
        """Truth at one world (by name), or at every designated world when none is given."""
        truth = self._eval(formula)
        if world is not None:
            try:
                return bool(truth[self.worlds.index(str(world))])
            except ValueError:
                raise ModelError(f"{world!r} is not a world of this model") from None
        if not self.designated:
            raise ModelError("the model has no designated world; name one or use valid()")
        return bool(truth[list(self.designated)].all())

    def valid(self, formula: Formula) -> bool:
        """Truth at every world."""
        return bool(self._eval(formula).all())

    def world_atoms(self, world: int) -> frozenset[str]:
        """The atoms true at a world (by index)."""
        return frozenset(a for a, m in self.valuation.items() if m[world])

    # --- model checking -------------------------------------------------------------

    def _relation(self, agent: str) -> AnyRelation:
        return fm.agent_entry(self.relations, agent, self.agents, "model")

    def _eval(self, f: Formula) -> Mask:
        cached = self._cache.get(f)
        if cached is None:
            cached = _frozen(self._compute(f))
            self._cache[f] = cached
        return cached

    def _compute(self, f: Formula) -> Mask:
        n = self.size
        if isinstance(f, fm.Top):
            return np.ones(n, dtype=bool)
        if isinstance(f, fm.Bot):
            return np.zeros(n, dtype=bool)
        if isinstance(f, fm.Atom):
            m = self.valuation.get(f.name)
            return m.copy() if m is not None else np.zeros(n, dtype=bool)
        if isinstance(f, fm.Not):
            return ~self._eval(f.arg)
        if isinstance(f, fm.And):
            out = np.ones(n, dtype=bool)
            for a in f.args:
                out &= self._eval(a)
            return out
        if isinstance(f, fm.Or):
            out = np.zeros(n, dtype=bool)
            for a in f.args:
                out |= self._eval(a)
            return out
        if isinstance(f, fm.Xor):
            out = np.zeros(n, dtype=bool)
            for a in f.args:
                out ^= self._eval(a)
            return out
        if isinstance(f, fm.OneOf):
            count = np.zeros(n, dtype=np.int64)
            for a in f.args:
                count += self._eval(a)
            exactly_one: Mask = count == 1
            return exactly_one
        if isinstance(f, fm.Implies):
            return ~self._eval(f.left) | self._eval(f.right)
        if isinstance(f, fm.Iff):
            same: Mask = self._eval(f.left) == self._eval(f.right)
            return same
        if isinstance(f, fm.Knowledge):
            rel = self._relation(f.agent)
            truth = self._eval(f.arg)
            if isinstance(f, fm.K):
                return rel.box(truth)
            if isinstance(f, fm.M):
                return ~rel.box(~truth)
            assert isinstance(f, fm.Kw)
            return rel.box(truth) | rel.box(~truth)
        if isinstance(f, fm.GroupKnowledge):
            truth = self._eval(f.arg)
            if not f.group:
                raise ModelError(f"{type(f).__name__} needs a non-empty group")
            if isinstance(f, fm.Ew):
                # Each member knows whether; on non-S5 relations this is weaker than
                # "everybody knows φ, or everybody knows ¬φ".
                out = np.ones(n, dtype=bool)
                for member in f.group:
                    rel = self._relation(member)
                    out &= rel.box(truth) | rel.box(~truth)
                return out
            if f.whether:
                return self._group_box(f, truth) | self._group_box(f, ~truth)
            return self._group_box(f, truth)
        if isinstance(f, fm.Announce):
            return self._announce(f)
        if isinstance(f, fm.Quantified):
            return self._eval(f.expand())
        raise TypeError(f"not a formula: {f!r}")

    def _group_box(self, f: fm.GroupKnowledge, truth: Mask) -> Mask:
        rels = [self._relation(a) for a in f.group]
        if isinstance(f, (fm.E, fm.Ew)):
            out = np.ones(self.size, dtype=bool)
            for r in rels:
                out &= r.box(truth)
            return out
        if isinstance(f, (fm.D, fm.Dw)):
            return intersection(rels, self.size).box(truth)
        assert isinstance(f, (fm.C, fm.Cw))
        if all(isinstance(r, Partition) for r in rels):
            comp = components([r for r in rels if isinstance(r, Partition)], self.size)
            bad = np.bincount(comp[~truth], minlength=self.size)
            result: Mask = bad[comp] == 0
            return result
        # Greatest fixpoint X = E_G(φ ∧ X): all worlds reachable in ≥ 1 step satisfy φ.
        x = np.ones(self.size, dtype=bool)
        while True:
            nxt = np.ones(self.size, dtype=bool)
            for r in rels:
                nxt &= r.box(truth & x)
            if np.array_equal(nxt, x):
                return x
            x = nxt

    def _announce(self, f: fm.Announce) -> Mask:
        pre = self._eval(f.pre)
        if f.group is None and not f.whether:
            sub = self.restrict(pre)
            inner = np.zeros(self.size, dtype=bool)
            inner[pre] = sub._eval(f.post)
        else:
            agents = self.agents if f.group is None else f.group
            inner = self.split(pre, agents)._eval(f.post)
        if f.whether:
            return inner.copy()
        return (pre & inner) if f.diamond else (~pre | inner)

    # --- updates --------------------------------------------------------------------

    def restrict(self, keep: Mask) -> KripkeModel:
        """The submodel on the worlds in `keep` (designated worlds kept where they survive)."""
        keep = np.asarray(keep, dtype=bool)
        index = np.cumsum(keep) - 1
        return KripkeModel(
            self.agents,
            tuple(w for w, k in zip(self.worlds, keep.tolist(), strict=True) if k),
            {a: _frozen(m[keep]) for a, m in self.valuation.items() if m[keep].any()},
            {a: r.restrict(keep) for a, r in self.relations.items()},
            tuple(int(index[d]) for d in self.designated if keep[d]),
        )

    def split(self, truth: Mask, agents: Iterable[str]) -> KripkeModel:
        """The same worlds, with the given agents' relations cut between truth and falsity."""
        chosen = set(agents)
        for a in chosen:
            self._relation(a)
        rels = {a: (r.split(truth) if a in chosen else r) for a, r in self.relations.items()}
        return KripkeModel(self.agents, self.worlds, self.valuation, rels, self.designated)

    def _truthful(self, truth: Mask, formula: Formula) -> None:
        if self.designated and not truth[list(self.designated)].any():
            raise ModelError(
                f"'{formula}' is false at every designated world, so it cannot be announced"
            )

    def announce(self, formula: Formula) -> KripkeModel:
        """Public announcement: keep the worlds where the formula is true."""
        truth = self._eval(formula)
        self._truthful(truth, formula)
        return self.restrict(truth)

    def announce_whether(self, formula: Formula) -> KripkeModel:
        """Everyone learns whether the formula is true: all relations are split by it."""
        return self.split(self._eval(formula), self.agents)

    def announce_to(self, group: Iterable[str], formula: Formula) -> KripkeModel:
        """The group learns the formula and the others see that they do (SMCDEL's semantics).

        The designated worlds must satisfy the formula; the group's relations are split by
        its truth, so in the designated worlds the group knows it.
        """
        truth = self._eval(formula)
        self._truthful(truth, formula)
        return self.split(truth, group).with_designated([d for d in self.designated if truth[d]])

    def with_designated(self, worlds: Iterable[int | str]) -> KripkeModel:
        """The same model with other designated worlds (indices or names)."""
        des = []
        for w in worlds:
            if isinstance(w, int) and 0 <= w < self.size:
                des.append(w)
            elif str(w) in self.worlds and not isinstance(w, int):
                des.append(self.worlds.index(str(w)))
            else:
                raise ModelError(f"{w!r} is not a world of this model")
        return KripkeModel(self.agents, self.worlds, self.valuation, self.relations, tuple(des))

    def _repr_svg_(self) -> str:
        """The model drawn as SVG (`logic.svg.model_svg`): Jupyter shows it so."""
        return model_svg(self)

    def __repr__(self) -> str:
        kinds = ", ".join(
            f"{a}: {'S5' if isinstance(r, Partition) else 'relation'}"
            for a, r in self.relations.items()
        )
        return f"<KripkeModel {self.size} worlds; {kinds}; designated {list(self.designated)}>"
