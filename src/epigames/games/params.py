"""Game parameters: declarations, and the `name(key=value,...)` game-string syntax."""

from __future__ import annotations

import re
from dataclasses import dataclass

from epigames.errors import InputError, UnknownNameError

#: A parameter value: games take ints, bools, floats or strings.
ParamValue = int | bool | float | str


class GameStringError(InputError):
    """A game string that does not parse, or a parameter value of the wrong type or range."""


class UnknownGameError(UnknownNameError):
    """A game name that is not registered."""


class UnknownParameterError(UnknownNameError):
    """A parameter name that the game does not declare."""


_TYPE_WORDS: dict[type, str] = {
    int: "an integer",
    bool: "a boolean (true or false)",
    float: "a number",
    str: "a string",
}
_BOOL_WORDS = {"true": True, "false": False}
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_GAME_RE = re.compile(rf"\s*({_NAME})\s*(?:\((.*)\))?\s*", re.DOTALL)
_PAIR_RE = re.compile(rf"\s*({_NAME})\s*=\s*([^=,()\s]+)\s*")


@dataclass(frozen=True, slots=True)
class Param:
    """One declared parameter of a game.

    Attributes:
        name: the key in game strings, and the field name on the game dataclass.
        type: `int`, `bool`, `float` or `str`.
        default: the value when the game string omits the parameter.
        min: smallest allowed value; numbers must declare one (None for other types).
        max: largest allowed value; numbers must declare one, so that no game string
            asks for unbounded work (a web request for a billion turns).
        choices: allowed values (strings only), or None for any.
        help: one line for `--help` texts and listings.
        field: the field name on the game dataclass when it differs from `name` (a name
            the `Game` base class already uses, such as `teams`).
    """

    name: str
    type: type
    default: ParamValue
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] | None = None
    help: str = ""
    field: str = ""

    @property
    def attr(self) -> str:
        """The field name on the game dataclass."""
        return self.field or self.name

    def __post_init__(self) -> None:
        if self.type not in _TYPE_WORDS:
            raise TypeError(f"parameter {self.name!r}: unsupported type {self.type!r}")
        if self.type in (int, float) and (self.min is None or self.max is None):
            raise TypeError(f"parameter {self.name!r}: a number needs both min and max")
        self.check(self.default, game="(declaration)")

    def describe_range(self) -> str:
        """The allowed values in words, e.g. `3..6` or `one of: a, b`."""
        if self.choices is not None:
            return "one of: " + ", ".join(self.choices)
        if self.type is bool:
            return "true or false"
        low = "" if self.min is None else format_value(self.min)
        high = "" if self.max is None else format_value(self.max)
        return f"{low}..{high}" if (low or high) else "any value"

    def parse(self, text: str, game: str) -> ParamValue:
        """Read a value from a game string and check it; `game` names the game in messages."""
        value: ParamValue
        try:
            if self.type is bool:
                value = _BOOL_WORDS[text.lower()]
            elif self.type is int:
                value = int(text, 10)
            elif self.type is float:
                value = float(text)
            else:
                value = text
        except (KeyError, ValueError):
            raise GameStringError(
                f"{game}: {self.name}={text!r} is not {_TYPE_WORDS[self.type]}"
            ) from None
        return self.check(value, game)

    def check(self, value: object, game: str) -> ParamValue:
        """Return `value` if it has the right type and lies in range, else raise."""
        # bool is a subclass of int: refuse it where an int is meant, and vice versa.
        ok_type = type(value) is self.type or (self.type is float and type(value) is int)
        if not ok_type:
            raise GameStringError(f"{game}: {self.name}={value!r} is not {_TYPE_WORDS[self.type]}")
        assert isinstance(value, int | float | str)
        if self.choices is not None and value not in self.choices:
            raise GameStringError(f"{game}: {self.name}={value!r} is not {self.describe_range()}")
        if isinstance(value, int | float) and not isinstance(value, bool):
            too_low = self.min is not None and value < self.min
            too_high = self.max is not None and value > self.max
            if too_low or too_high:
                raise GameStringError(
                    f"{game}: {self.name}={format_value(value)} is out of range "
                    f"{self.describe_range()}"
                )
        return value


def format_value(value: ParamValue) -> str:
    """The canonical game-string spelling of a value (`true`, `3`, `0.5`, `abc`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    # repr keeps a float's `.0`, so `3.0` reads back as a float, not an int.
    return repr(value) if isinstance(value, float) else str(value)


def split_game_string(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Split `name(k=v,...)` into the name and the raw `(key, value)` pairs, in order.

    Raises:
        GameStringError: the text is not of the form `name` or `name(key=value,...)`.
    """
    match = _GAME_RE.fullmatch(text)
    if match is None:
        raise GameStringError(f"cannot read game {text!r}; expected NAME or NAME(key=value,...)")
    name, body = match.group(1), match.group(2)
    pairs: list[tuple[str, str]] = []
    if body is not None and body.strip():
        for part in body.split(","):
            pair = _PAIR_RE.fullmatch(part)
            if pair is None:
                raise GameStringError(
                    f"cannot read {part.strip()!r} in game {text!r}; expected key=value"
                )
            pairs.append((pair.group(1), pair.group(2)))
    return name, pairs
