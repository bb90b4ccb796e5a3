"""What every puzzle returns (`Step`, `Solution`) and the helpers the puzzles share."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from epigames.errors import ModelError
from epigames.logic.formula import Atom, Formula, K, disj
from epigames.logic.model import KripkeModel
from epigames.logic.relations import Mask

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
