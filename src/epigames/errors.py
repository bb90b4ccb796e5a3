"""The exception hierarchy: one root, `ValueError` subclasses for bad input."""

from __future__ import annotations


class EpigamesError(Exception):
    """Root of every error epigames raises on purpose."""


def line_and_column(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column of offset `pos`, counting lines as `str.splitlines()` does."""
    lines = text[:pos].splitlines(keepends=True)
    if not lines:
        return 1, 1
    last = lines[-1]
    if last.splitlines()[0] != last:  # the prefix ends with a line break
        return len(lines) + 1, 1
    return len(lines), len(last) + 1


class InputError(EpigamesError, ValueError):
    """Bad input from a user: the message quotes it and says what was expected."""


class FormulaSyntaxError(InputError):
    """A formula or model file that does not parse.

    Carries the source text, 1-based line and column, and what was expected there;
    `str()` shows the offending line with a caret under the spot.
    """

    def __init__(self, message: str, text: str, line: int, column: int, expected: str = "") -> None:
        self.message = message
        self.text = text
        self.line = line
        self.column = column
        self.expected = expected
        super().__init__(self._render())

    def _render(self) -> str:
        # Lines are counted as str.splitlines() splits (see `line_and_column`).
        lines = self.text.splitlines() or [""]
        src = lines[self.line - 1] if 0 < self.line <= len(lines) else ""
        head = f"line {self.line}, column {self.column}: {self.message}"
        if self.expected:
            head += f"; expected {self.expected}"
        return f"{head}\n  {src}\n  {' ' * (self.column - 1)}^"


class UnknownAgentError(InputError):
    """A formula names an agent the model does not have."""


class ModelError(InputError):
    """An ill-formed model: a bad relation, an undeclared variable, an unsatisfiable law."""


class UnknownNameError(InputError):
    """A name (game, strategy, puzzle, experiment) that is not registered."""


class IllegalActionError(InputError):
    """An action that is not legal in the current state."""
