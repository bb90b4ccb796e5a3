"""What every puzzle returns (`Step`, `Solution`) and the helpers the puzzles share."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from epigames.errors import ModelError
from epigames.logic.formula import Atom, Formula, K, Top, disj
from epigames.logic.model import KripkeModel
from epigames.logic.relations import Mask
from epigames.logic.symbolic import KnowledgeStructure

T = TypeVar("T")


def frozen_mask(mask: Mask) -> Mask:
    """The mask, made read-only (a model's valuation must not change under it)."""
    mask.flags.writeable = False
    return mask


@dataclass(frozen=True)
class Step:
    """One public statement of a puzzle and the model after it.

    Attributes:
        speaker: who speaks (an agent of the model).
        says: the statement in plain English.
        formula: what is publicly announced.
        model: the model after the announcement.
    """

    speaker: str
    says: str
    formula: Formula
    model: KripkeModel


@dataclass(frozen=True)
class Solution(Generic[T]):
    """A solved puzzle: the initial model, the statements in order and the answers left.

    Attributes:
        initial: the model before anybody speaks.
        steps: the statements, each with the model after it.
        answers: the worlds that survive every statement, as puzzle values.
    """

    initial: KripkeModel
    steps: tuple[Step, ...]
    answers: tuple[T, ...]

    @property
    def final(self) -> KripkeModel:
        """The model after the last statement."""
        return self.steps[-1].model if self.steps else self.initial

    @property
    def answer(self) -> T:
        """The unique answer; raises ModelError when zero or several worlds survive."""
        if len(self.answers) != 1:
            raise ModelError(f"the puzzle has {len(self.answers)} answers, not exactly one")
        return self.answers[0]


def knows_which(agent: str, atoms: Iterable[str]) -> Formula:
    """The agent knows which of these (mutually exclusive) atoms is true."""
    return disj(*(K(agent, Atom(a)) for a in atoms))


def chosen_agents(
    n: int, chosen: Iterable[int], *, too_few: str, chosen_name: str, agents: str
) -> frozenset[int]:
    """The chosen agents of `1..n` as a set, checked.

    Raises:
        ModelError: `f"{too_few}, got n={n}"` when n < 1, or `f"{chosen_name} [..] are not
            {agents} 1..{n}"` naming the chosen numbers out of range.
    """
    if n < 1:
        raise ModelError(f"{too_few}, got n={n}")
    members = frozenset(chosen)
    bad = sorted(c for c in members if not 1 <= c <= n)
    if bad:
        raise ModelError(f"{chosen_name} {bad} are not {agents} 1..{n}")
    return members


def atom_per_agent(
    letter: str, n: int, chosen: frozenset[int], *, sees_own: bool, backend: str | None = None
) -> KnowledgeStructure:
    """Atoms `<letter>1` … `<letter>n`, one per agent `"1"` … `"n"`, on a knowledge structure.

    Agent i observes its own atom only (`sees_own`) or every atom but its own; the chosen
    agents' atoms are true in the designated state.
    """
    atoms = [f"{letter}{i}" for i in range(1, n + 1)]
    observations = {
        str(i): [a for a in atoms if (a == f"{letter}{i}") == sees_own] for i in range(1, n + 1)
    }
    structure = KnowledgeStructure.build(atoms, Top(), observations, backend=backend)
    return structure.with_designated([[f"{letter}{i}" for i in chosen]])
