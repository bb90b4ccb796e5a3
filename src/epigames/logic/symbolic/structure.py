"""Knowledge structures: a vocabulary, a state law as a BDD and what each agent observes.

A knowledge structure (SMCDEL's `KnS`) stands for an S5 Kripke model without listing its
worlds: the states are the assignments of the variables that satisfy the law, and an agent
cannot tell apart two states that agree on every variable it observes. A formula becomes
the BDD of the states where it holds:

* `K_i φ` is `∀(V∖O_i)(law → φ)`: φ holds in every state that agrees with this one on
  what i observes; `D_G φ` quantifies over the variables no member of G observes.
* `C_G φ` is the greatest fixpoint of `X = ⋀_{i∈G} K_i(φ ∧ X)`.
* A public announcement of ψ conjoins ψ to the law. An announcement to a group G (and
  announce-whether) adds a fresh variable q with `q ↔ ψ` to the law that only G observes
  (everyone for a public announce-whether), as SMCDEL does; the answer at a state is read
  with q set to ψ's value there.

Quantifiers follow `Quantified.expand` (substitution, also under modalities) like the
explicit engine; over formulas without modalities that is BDD quantification, which is
used there. With `bdd_quantifiers` (SMCDEL's files) they quantify the argument's BDD
whatever it is, as SMCDEL does: then a formula's values at assignments that are not
states count too, and every operator is SMCDEL's formula for its BDD (`C_G φ` is the
greatest fixpoint of `X = φ ∧ ⋀_{i∈G} K_i X`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from epigames.errors import ModelError
from epigames.logic import formula as fm
from epigames.logic.formula import Formula
from epigames.logic.relations import AnyRelation, Partition
from epigames.logic.symbolic.bdd import Manager, Node

__all__ = ["KnowledgeStructure"]


def _propositional(f: Formula) -> bool:
    """No modality and no announcement (quantifiers allowed)."""
    return all(isinstance(g, (fm.Top, fm.Bot, fm.Atom, fm.Connective, fm.Quantified))
               for g in f.walk())  # fmt: skip


def s5_blocks(
    relations: Mapping[str, AnyRelation], agents: Iterable[str], what: str
) -> dict[str, list[int]]:
    """Each agent's block id per world (or per event) in its relation, which must be S5.

    Raises:
        ModelError: an agent's relation is not a `Partition`; `what` names the relation
            in the message (`relation`, `event relation`).
    """
    blocks: dict[str, list[int]] = {}
    for agent in agents:
        rel = relations[agent]
        if not isinstance(rel, Partition):
            raise ModelError(
                f"the {what} of {agent!r} is not a partition; knowledge structures are S5"
            )
        blocks[agent] = [int(b) for b in rel.block.tolist()]
    return blocks


@dataclass(frozen=True, eq=False)
class KnowledgeStructure:
    """An S5 knowledge structure on BDDs; build one with `KnowledgeStructure.build`.

    Attributes:
        manager: the BDD manager (shared with the structures announcements make from this).
        atoms: atom name → its variable, in vocabulary order. Atoms not listed are false
            in every state, as in an explicit model.
        variables: every variable, the atoms' and hidden ones (fresh variables of group
            announcements, the block bits of a translated Kripke model).
        law: the states: the assignments of `variables` where it is true.
        observations: agent → the variables it observes.
        designated: the actual states (a BDD), or None when none is named.
        bdd_quantifiers: quantifiers quantify their argument's BDD even under modalities
            (SMCDEL's reading) rather than expand by substitution (the explicit engine's).
    """

    manager: Manager
    atoms: Mapping[str, str]
    variables: tuple[str, ...]
    law: Node
    observations: Mapping[str, frozenset[str]]
    designated: Node | None = None
    bdd_quantifiers: bool = False
    _cache: dict[Formula, Node] = field(default_factory=dict, repr=False, compare=False)
    _sets: dict[tuple[str, ...], frozenset[str]] = field(
        default_factory=dict, repr=False, compare=False
    )

    # --- construction -------------------------------------------------------------

    @classmethod
    def build(
        cls,
        vocabulary: Sequence[str],
        law: Formula,
        observations: Mapping[str, Iterable[str]],
        *,
        backend: str | None = None,
        bdd_quantifiers: bool = False,
    ) -> KnowledgeStructure:
        """A structure from atom names, a Boolean law over them and each agent's observed atoms.

        Args:
            vocabulary: the atoms (distinct); their order is the BDD's variable order.
            law: a formula without modalities that every state satisfies.
            observations: agent → the atoms it observes (each in `vocabulary`).
            backend: `dd.cudd` or `dd.autoref`; by default the first that imports.
            bdd_quantifiers: SMCDEL's reading of quantifiers over modal formulas (see
                the class).

        Raises:
            ModelError: repeated or unknown atoms, a law with a modality, a law no
                assignment satisfies.
            SymbolicUnavailableError: the package `dd` is not installed.
        """
        names = [str(a) for a in vocabulary]
        if len(set(names)) != len(names):
            raise ModelError(f"the vocabulary names an atom twice: {names}")
        if not _propositional(law):
            raise ModelError(f"the law must be a Boolean formula, got '{law}'")
        manager = Manager(backend)
        atoms = {name: manager.new_var() for name in names}
        obs: dict[str, frozenset[str]] = {}
        for agent, seen in observations.items():
            seen = list(seen)
            unknown = [a for a in seen if a not in atoms]
            if unknown:
                raise ModelError(
                    f"agent {agent!r} observes {unknown}, which are not in the vocabulary"
                )
            obs[str(agent)] = frozenset(atoms[a] for a in seen)
        blank = cls(manager, atoms, tuple(atoms.values()), manager.true, obs)
        law_bdd = blank.truth(law)
        if law_bdd == manager.false:
            raise ModelError(f"the law '{law}' is satisfied by no assignment of the vocabulary")
        return cls(manager, atoms, blank.variables, law_bdd, obs, None, bdd_quantifiers)

    def _derive(
        self,
        law: Node,
        *,
        variables: tuple[str, ...] | None = None,
        observations: Mapping[str, frozenset[str]] | None = None,
        designated: Node | None = None,
    ) -> KnowledgeStructure:
        return KnowledgeStructure(
            self.manager,
            self.atoms,
            self.variables if variables is None else variables,
            law,
            self.observations if observations is None else observations,
            designated,
            self.bdd_quantifiers,
        )

    # --- basic queries --------------------------------------------------------------

    @property
    def agents(self) -> tuple[str, ...]:
        """The agents, in the order their observations were given."""
        return tuple(self.observations)

    @property
    def vocabulary(self) -> tuple[str, ...]:
        """The atoms, in order."""
        return tuple(self.atoms)

    def count_states(self) -> int:
        """How many states the structure has (worlds of its Kripke model).

        With `dd.cudd` the count is a floating-point number made whole: exact up to 2^53.
        """
        return self.manager.count(self.law, self.variables)

    def truth(self, formula: Formula) -> Node:
        """The BDD of the formula: true at exactly the states where the formula holds."""
        return self._eval(formula)

    def valid(self, formula: Formula) -> bool:
        """Truth at every state."""
        return self.law.implies(self._eval(formula)) == self.manager.true

    def satisfiable(self, formula: Formula) -> bool:
        """Truth at some state."""
        return (self.law & self._eval(formula)) != self.manager.false

    def holds(self, formula: Formula, state: Iterable[str] | None = None) -> bool:
        """Truth at a state (given by its true atoms) or at every designated state.

        With hidden variables, several states may have the same true atoms; the formula
        must hold at each of them.

        Raises:
            ModelError: the atoms are not in the vocabulary or are true together in no
                state; no state given and none designated.
        """
        truth = self._eval(formula)
        if state is None:
            if self.designated is None:
                raise ModelError("the structure has no designated state; name one or use valid()")
            return (self.law & self.designated).implies(truth) == self.manager.true
        at = self._state_bdd(state)
        return at.implies(truth) == self.manager.true

    def _state_bdd(self, state: Iterable[str]) -> Node:
        true_atoms = set(state)
        unknown = sorted(true_atoms - set(self.atoms))
        if unknown:
            raise ModelError(f"the state names {unknown}, which are not in the vocabulary")
        cube = self.manager.cube({v: a in true_atoms for a, v in self.atoms.items()})
        at = self.law & cube
        if at == self.manager.false:
            raise ModelError(f"{sorted(true_atoms)} is not a state: the law is false there")
        return at

    def true_at(self, formula: Formula, assignment: Mapping[str, bool]) -> bool:
        """Truth at the state given as a value for every variable (see `variables`)."""
        missing = [v for v in self.variables if v not in assignment]
        if missing:
            raise ModelError(f"the assignment gives no value to the variables {missing}")
        point = self.manager.let(assignment, self.law & self._eval(formula))
        return point == self.manager.true

    def where(self, formula: Formula) -> list[frozenset[str]]:
        """The states where the formula holds, as sets of true atoms, in vocabulary order.

        States are sorted by the tuple of their true atoms' positions in the vocabulary;
        with hidden variables, states with the same true atoms are listed once.
        """
        position = {v: i for i, v in enumerate(self.atoms.values())}
        name = {v: a for a, v in self.atoms.items()}
        found = self.manager.exist(self._hidden_vars(), self.law & self._eval(formula))
        keys = {
            tuple(sorted(position[v] for v, b in values.items() if b))
            for values in self.manager.assignments(found, self.atoms.values())
        }
        order = list(self.atoms.values())
        return [frozenset(name[order[i]] for i in key) for key in sorted(keys)]

    def _hidden_vars(self) -> frozenset[str]:
        """The variables that are no atom's."""
        return frozenset(self.variables) - frozenset(self.atoms.values())

    def _unobserved(self, agents: Iterable[str]) -> frozenset[str]:
        """The variables that none of the agents observes (memoised per group)."""
        group = tuple(sorted(set(agents)))
        found = self._sets.get(group)
        if found is None:
            seen: set[str] = set()
            for a in group:
                seen |= self._observed(a)
            found = frozenset(self.variables) - seen
            self._sets[group] = found
        return found

    def _observed(self, agent: str) -> frozenset[str]:
        return fm.agent_entry(self.observations, agent, self.agents, "structure")

    # --- model checking -------------------------------------------------------------

    def _eval(self, f: Formula) -> Node:
        cached = self._cache.get(f)
        if cached is None:
            cached = self._compute(f)
            self._cache[f] = cached
        return cached

    def _box(self, agents: Iterable[str], truth: Node) -> Node:
        """Where every state the agents jointly cannot tell from this one satisfies truth."""
        return ~self.manager.and_exists(self._unobserved(agents), self.law, ~truth)

    def _compute(self, f: Formula) -> Node:
        mgr = self.manager
        if isinstance(f, fm.Top):
            return mgr.true
        if isinstance(f, fm.Bot):
            return mgr.false
        if isinstance(f, fm.Atom):
            var = self.atoms.get(f.name)
            return mgr.false if var is None else mgr.var(var)
        if isinstance(f, fm.Not):
            return ~self._eval(f.arg)
        if isinstance(f, fm.And):
            out = mgr.true
            for a in f.args:
                out = out & self._eval(a)
            return out
        if isinstance(f, fm.Or):
            out = mgr.false
            for a in f.args:
                out = out | self._eval(a)
            return out
        if isinstance(f, fm.Xor):
            out = mgr.false
            for a in f.args:
                out = ~out.equiv(self._eval(a))
            return out
        if isinstance(f, fm.OneOf):
            # Two running sets: where none so far is true, where exactly one is.
            none, one = mgr.true, mgr.false
            for a in f.args:
                t = self._eval(a)
                none, one = none & ~t, (one & ~t) | (none & t)
            return one
        if isinstance(f, fm.Implies):
            return self._eval(f.left).implies(self._eval(f.right))
        if isinstance(f, fm.Iff):
            return self._eval(f.left).equiv(self._eval(f.right))
        if isinstance(f, fm.Knowledge):
            truth = self._eval(f.arg)
            if isinstance(f, fm.K):
                return self._box((f.agent,), truth)
            if isinstance(f, fm.M):
                return ~self._box((f.agent,), ~truth)
            return self._box((f.agent,), truth) | self._box((f.agent,), ~truth)
        if isinstance(f, fm.GroupKnowledge):
            return self._group(f)
        if isinstance(f, fm.Announce):
            return self._announce(f)
        if isinstance(f, fm.Quantified):
            return self._quantified(f)
        raise TypeError(f"not a formula: {f!r}")

    def _group(self, f: fm.GroupKnowledge) -> Node:
        for a in f.group:
            self._observed(a)
        truth = self._eval(f.arg)
        if isinstance(f, fm.Ew):
            out = self.manager.true
            for a in f.group:
                out = out & (self._box((a,), truth) | self._box((a,), ~truth))
            return out
        if f.whether:
            return self._group_box(f, truth) | self._group_box(f, ~truth)
        return self._group_box(f, truth)

    def _group_box(self, f: fm.GroupKnowledge, truth: Node) -> Node:
        if isinstance(f, (fm.D, fm.Dw)):
            return self._box(f.group, truth)
        if isinstance(f, (fm.E, fm.Ew)):
            out = self.manager.true
            for a in f.group:
                out = out & self._box((a,), truth)
            return out
        # C: the greatest fixpoint of X = φ ∧ E_G X, SMCDEL's formula. At states it is the
        # fixpoint of X = E_G(φ ∧ X) (S5 is reflexive); SMCDEL's quantifiers see the rest.
        x = self.manager.true
        while True:
            nxt = truth
            for a in f.group:
                nxt = nxt & self._box((a,), x)
            if nxt == x:
                return x
            x = nxt

    def _quantified(self, f: fm.Quantified) -> Node:
        if not self.bdd_quantifiers and not _propositional(f.arg):
            return self._eval(f.expand())
        # Bound atoms outside the vocabulary are constants here, so expand over those only;
        # the vocabulary's are quantified in the BDD.
        outside = [v for v in dict.fromkeys(f.variables) if v not in self.atoms]
        inside = {self.atoms[v] for v in f.variables if v in self.atoms}
        arg = f.arg
        if outside:
            arg = (fm.Forall if isinstance(f, fm.Forall) else fm.Exists)(tuple(outside), arg)
            arg = arg.expand()
        inner = self._eval(arg)
        if isinstance(f, fm.Forall):
            return self.manager.forall(inside, inner)
        return self.manager.exist(inside, inner)

    def _announce(self, f: fm.Announce) -> Node:
        pre = self._eval(f.pre)
        if f.group is None and not f.whether:
            after = self._derive(self.law & pre)
            inner = after._eval(f.post)
            return pre & inner if f.diamond else pre.implies(inner)
        group = self.agents if f.group is None else f.group
        for a in group:
            self._observed(a)
        told, q = self._split(pre, group)
        post = told._eval(f.post)
        if_true = self.manager.let({q: True}, post)
        if f.whether:
            return self.manager.ite(pre, if_true, self.manager.let({q: False}, post))
        return pre & if_true if f.diamond else pre.implies(if_true)

    def _split(self, truth: Node, group: Iterable[str]) -> tuple[KnowledgeStructure, str]:
        """The structure where the group observes a fresh variable q ↔ truth; and q."""
        q = self.manager.new_var()
        members = set(group)
        obs = {a: (o | {q} if a in members else o) for a, o in self.observations.items()}
        law = self.law & self.manager.var(q).equiv(truth)
        designated = None
        if self.designated is not None:
            designated = self.designated & self.manager.var(q).equiv(truth)
        return (
            self._derive(law, variables=(*self.variables, q), observations=obs,
                         designated=designated),
            q,
        )  # fmt: skip

    # --- updates --------------------------------------------------------------------

    def _truthful(self, truth: Node, formula: Formula) -> None:
        if (self.law & truth) == self.manager.false:
            raise ModelError(f"'{formula}' is true in no state, so it cannot be announced")
        if (
            self.designated is not None
            and (self.designated & self.law & truth) == self.manager.false
        ):
            raise ModelError(
                f"'{formula}' is false at every designated state, so it cannot be announced"
            )

    def announce(self, formula: Formula) -> KnowledgeStructure:
        """Public announcement: keep the states where the formula is true."""
        truth = self._eval(formula)
        self._truthful(truth, formula)
        designated = None if self.designated is None else self.designated & truth
        return self._derive(self.law & truth, designated=designated)

    def announce_whether(self, formula: Formula) -> KnowledgeStructure:
        """Everyone learns whether the formula is true (a fresh variable everyone observes)."""
        return self._split(self._eval(formula), self.agents)[0]

    def announce_to(self, group: Iterable[str], formula: Formula) -> KnowledgeStructure:
        """The group learns the formula and the others see that they do (SMCDEL's semantics)."""
        members = tuple(group)
        for a in members:
            self._observed(a)
        truth = self._eval(formula)
        self._truthful(truth, formula)
        told = self._split(truth, members)[0]
        if told.designated is not None:
            return told._derive(told.law, designated=told.designated & truth)
        return told

    def with_designated(self, states: Iterable[Iterable[str]]) -> KnowledgeStructure:
        """The same structure with the given states (each as its true atoms) designated."""
        out = self.manager.false
        for state in states:
            out = out | self._state_bdd(state)
        return self._derive(self.law, designated=out)

    def __repr__(self) -> str:
        return (
            f"<KnowledgeStructure {len(self.atoms)} atoms, {len(self.variables)} variables, "
            f"agents {list(self.agents)}>"
        )
