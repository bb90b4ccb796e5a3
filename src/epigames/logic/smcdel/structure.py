"""An SMCDEL file's knowledge structure (VARS, LAW, OBS): an explicit S5 model or on BDDs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from epigames.errors import ModelError
from epigames.logic import formula as fm
from epigames.logic.formula import Formula
from epigames.logic.model import KripkeModel
from epigames.logic.relations import AnyRelation, Mask, Partition
from epigames.logic.smcdel.engines import MAX_VARIABLES, choose_engine, modal_quantifier
from epigames.logic.smcdel.errors import SmcdelModelError
from epigames.logic.smcdel.jobs import Job, State, state_text

if TYPE_CHECKING:
    from epigames.logic.symbolic import KnowledgeStructure

__all__ = ["MAX_VARIABLES", "SmcdelInput", "modal_quantifier_message"]


def modal_quantifier_message(q: fm.Quantified) -> str:
    """Why the explicit engine does not answer a quantifier over a modality."""
    word = "Forall" if isinstance(q, fm.Forall) else "Exists"
    return (
        f"{word} over a formula with modalities ('{q}'): SMCDEL quantifies the formula's "
        "BDD, so its values outside the states count; only the symbolic engine reads it "
        "so (use --engine symbolic or auto)"
    )


@dataclass(frozen=True, eq=False)
class SmcdelInput:
    """A parsed SMCDEL file: the knowledge structure (VARS, LAW, OBS) and its jobs.

    Attributes:
        variables: the declared variables, in the order written.
        law: the Boolean formula every state satisfies.
        observations: agent → the variables it observes, in OBS order.
        jobs: the questions, in file order.
        source: the file's text (for error messages).
    """

    variables: tuple[int, ...]
    law: Formula
    observations: Mapping[str, tuple[int, ...]]
    jobs: tuple[Job, ...] = ()
    source: str = ""
    law_position: tuple[int, int] = (1, 1)
    vars_position: tuple[int, int] = (1, 1)
    _built: list[tuple[KripkeModel, list[State]]] = field(
        default_factory=list, repr=False, compare=False
    )
    _structure: list[KnowledgeStructure] = field(default_factory=list, repr=False, compare=False)

    @property
    def agents(self) -> tuple[str, ...]:
        """The agents, in OBS order."""
        return tuple(self.observations)

    def _error(self, message: str, where: tuple[int, int]) -> SmcdelModelError:
        return SmcdelModelError(message, self.source, where[0], where[1])

    def explicit(self) -> tuple[KripkeModel, list[State]]:
        """The model and its states (in world order), built once.

        Raises:
            SmcdelModelError: the LAW holds nowhere, or there are too many variables.
        """
        if self._built:
            return self._built[0]
        vs = sorted(self.variables)
        if len(vs) > MAX_VARIABLES:
            raise self._error(
                f"{len(vs)} variables give 2^{len(vs)} valuations, too many for an explicit "
                f"model (at most {MAX_VARIABLES} variables)",
                self.vars_position,
            )
        # Row i of `bits` is the valuation whose binary digits are i (variable vs[j] ↔ bit j).
        codes = np.arange(1 << len(vs), dtype=np.int64)
        bits = ((codes[:, None] >> np.arange(len(vs), dtype=np.int64)) & 1).astype(bool)
        everything = KripkeModel(
            (), tuple(str(i) for i in range(len(codes))),
            {str(v): bits[:, j] for j, v in enumerate(vs)}, {},
        )  # fmt: skip
        keep = everything.truth_set(self.law)
        if not keep.any():
            raise self._error("the LAW is satisfied by no valuation of VARS", self.law_position)
        kept = bits[keep]
        states = [tuple(v for v, b in zip(vs, row, strict=True) if b) for row in kept.tolist()]
        order = sorted(range(len(states)), key=states.__getitem__)
        kept = kept[order]
        states = [states[i] for i in order]
        column = {v: j for j, v in enumerate(vs)}
        relations: dict[str, AnyRelation] = {}
        for agent, observed in self.observations.items():
            ids = np.zeros(len(states), dtype=np.int64)
            for k, v in enumerate(sorted(set(observed))):
                ids |= kept[:, column[v]].astype(np.int64) << k
            relations[agent] = Partition.from_ids(ids)
        valuation: dict[str, Mask] = {}
        for j, v in enumerate(vs):
            mask = np.ascontiguousarray(kept[:, j])
            if mask.any():
                mask.flags.writeable = False
                valuation[str(v)] = mask
        model = KripkeModel(self.agents, tuple(state_text(s) for s in states), valuation, relations)
        self._built.append((model, states))
        return model, states

    def _engine(self, formula: Formula, engine: str) -> str:
        """The engine for one formula; the explicit one refuses SMCDEL's modal quantifiers."""
        q = modal_quantifier(formula)
        chosen = choose_engine(len(self.variables), engine, modal_quantifiers=q is not None)
        if chosen == "explicit" and q is not None:
            raise ModelError(modal_quantifier_message(q))
        return chosen

    def structure(self, backend: str | None = None) -> KnowledgeStructure:
        """The knowledge structure on BDDs (built once per input; any number of variables).

        Its atoms are the variables as text (`"1"`, `"2"`, …), in ascending order.

        Raises:
            SmcdelModelError: the LAW holds nowhere.
            SymbolicUnavailableError: the package `dd` is not installed.
        """
        if self._structure and backend in (None, self._structure[0].manager.backend):
            return self._structure[0]
        # Imported here: the explicit engine alone must work without the symbolic extra.
        from epigames.logic.symbolic import KnowledgeStructure

        vocabulary = [str(v) for v in sorted(self.variables)]
        observations = {a: [str(v) for v in vs] for a, vs in self.observations.items()}
        try:
            built = KnowledgeStructure.build(
                vocabulary, self.law, observations, backend=backend, bdd_quantifiers=True
            )
        except ModelError as exc:
            if "satisfied by no" in str(exc):
                raise self._error(
                    "the LAW is satisfied by no valuation of VARS", self.law_position
                ) from None
            raise
        if not self._structure:
            self._structure.append(built)
        return built

    def model(self) -> KripkeModel:
        """The S5 Kripke model: one world per state, named like `{1,2}`, in WHERE? order.

        Raises:
            SmcdelModelError: the LAW holds nowhere, or there are too many variables.
        """
        return self.explicit()[0]

    def states(self) -> list[frozenset[int]]:
        """The states (the valuations satisfying LAW), in the model's world order."""
        return [frozenset(s) for s in self.explicit()[1]]

    def where(self, formula: Formula, engine: str = "explicit") -> list[frozenset[int]]:
        """The states where the formula is true, sorted as `WHERE?` lists them.

        `engine` is `explicit`, `symbolic` or `auto` (see `choose_engine`).
        """
        if self._engine(formula, engine) == "symbolic":
            return [frozenset(int(v) for v in s) for s in self.structure().where(formula)]
        model, states = self.explicit()
        return [frozenset(states[i]) for i in np.flatnonzero(model.truth_set(formula))]

    def valid(self, formula: Formula, engine: str = "explicit") -> bool:
        """Whether the formula is true in every state (`engine` as for `where`)."""
        if self._engine(formula, engine) == "symbolic":
            return self.structure().valid(formula)
        return self.model().valid(formula)

    def true_at(self, state: Iterable[int], formula: Formula, engine: str = "explicit") -> bool:
        """Whether the formula is true at the state whose true variables are given.

        `engine` as for `where`.

        Raises:
            ModelError: a variable is not declared, or the state does not satisfy the LAW.
        """
        key = tuple(sorted(set(state)))
        undeclared = sorted(set(key) - set(self.variables))
        if undeclared:
            raise ModelError(
                f"state {state_text(key)} names {_plural('variable', undeclared)} not in VARS"
            )
        if self._engine(formula, engine) == "symbolic":
            structure = self.structure()
            try:
                return structure.holds(formula, [str(v) for v in key])
            except ModelError:
                raise ModelError(f"state {state_text(key)} does not satisfy the LAW") from None
        index = self.state_index(key)
        if index is None:
            raise ModelError(f"state {state_text(key)} does not satisfy the LAW")
        return bool(self.model().truth_set(formula)[index])

    def state_index(self, key: State) -> int | None:
        """The index of the world of state `key` (sorted, no duplicates), None if none."""
        states = self.explicit()[1]
        # States are sorted, so bisect instead of building a dict per call.
        lo, hi = 0, len(states)
        while lo < hi:
            mid = (lo + hi) // 2
            if states[mid] < key:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < len(states) and states[lo] == key else None


def _plural(word: str, items: Sequence[int]) -> str:
    listed = ", ".join(str(i) for i in items)
    return f"{word} {listed}" if len(items) == 1 else f"{word}s {listed}"
