"""The questions of an SMCDEL file (`TRUE?`, `VALID?`, `WHERE?`) and their answers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from epigames.logic.formula import Formula

__all__ = ["Job", "JobKind", "JobResult", "State", "state_text"]

JobKind = Literal["TRUE?", "VALID?", "WHERE?"]
#: A state: its true variables, ascending.
State = tuple[int, ...]


def state_text(state: Iterable[int]) -> str:
    """A state as SMCDEL writes it: its true variables in braces, `{1,2}` or `{}`."""
    return "{" + ",".join(str(v) for v in sorted(state)) + "}"


@dataclass(frozen=True, slots=True)
class Job:
    """One question of a file: `TRUE? {…} φ`, `VALID? φ` or `WHERE? φ`.

    `text` is the formula as written (comments dropped, whitespace collapsed); `line` and
    `column` locate the job's keyword; `state` (TRUE? only) is the state's true variables.
    """

    kind: JobKind
    formula: Formula
    text: str
    line: int
    column: int
    state: State | None = None
    state_line: int = 0
    state_column: int = 0


@dataclass(frozen=True, slots=True)
class JobResult:
    """The answer to one job: a truth value, or (WHERE?) the states where the formula holds."""

    kind: JobKind
    line: int
    text: str
    formula: Formula
    state: State | None
    answer: bool | list[frozenset[int]]

    def answer_text(self) -> str:
        """The answer as SMCDEL-style text: `True`, `False` or `[{1},{2},{3}]`."""
        if isinstance(self.answer, bool):
            return str(self.answer)
        return "[" + ",".join(state_text(s) for s in self.answer) + "]"

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict: kind, line, formula, state (TRUE? only), answer.

        WHERE? answers are lists of sorted int lists.
        """
        out: dict[str, object] = {"kind": self.kind, "line": self.line, "formula": self.text}
        if self.state is not None:
            out["state"] = list(self.state)
        if isinstance(self.answer, bool):
            out["answer"] = self.answer
        else:
            out["answer"] = [sorted(s) for s in self.answer]
        return out
