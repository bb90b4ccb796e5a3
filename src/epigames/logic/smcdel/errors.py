"""Errors of SMCDEL files that parse but mean nothing valid, with a caret at the spot."""

from __future__ import annotations

from epigames.errors import ModelError, UnknownAgentError

__all__ = ["SmcdelModelError", "SmcdelUnknownAgentError"]


def _render(message: str, text: str, line: int, column: int) -> str:
    """The message with the offending source line and a caret, as FormulaSyntaxError shows."""
    lines = text.splitlines() or [""]
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    return f"line {line}, column {column}: {message}\n  {src}\n  {' ' * (column - 1)}^"


class _Located(Exception):
    """Mixin: an error that knows its 1-based line and column and shows a caret there."""

    def __init__(self, message: str, text: str, line: int, column: int) -> None:
        self.message = message
        self.text = text
        self.line = line
        self.column = column
        super().__init__(_render(message, text, line, column))


class SmcdelModelError(_Located, ModelError):
    """A well-formed SMCDEL file that describes no valid structure or question."""


class SmcdelUnknownAgentError(_Located, UnknownAgentError):
    """A formula in an SMCDEL file names an agent that OBS does not list."""
