"""Which engine answers an SMCDEL file: the explicit Kripke model or the BDDs."""

from __future__ import annotations

from typing import Literal

from epigames.errors import InputError

__all__ = ["AUTO_SYMBOLIC_ABOVE", "ENGINES", "MAX_VARIABLES", "Engine", "choose_engine"]

Engine = Literal["auto", "explicit", "symbolic"]
#: The engines there are, `auto` first.
ENGINES: tuple[Engine, ...] = ("auto", "explicit", "symbolic")
#: The explicit model has 2^|VARS| candidate valuations; beyond this it does not fit memory.
MAX_VARIABLES = 20
#: `auto` answers files with more variables than this symbolically: from about here on
#: the BDDs are faster than the 2^|VARS| candidate worlds of the explicit model.
AUTO_SYMBOLIC_ABOVE = 12


def choose_engine(variables: int, engine: str = "auto") -> Literal["explicit", "symbolic"]:
    """The engine for a structure of that many variables: `engine`, or for `auto` by size.

    Without the package `dd`, `auto` keeps to the explicit engine (which then refuses
    more than `MAX_VARIABLES` variables with its own message).

    Raises:
        InputError: an engine name that is not one of `ENGINES`.
    """
    if engine == "explicit":
        return "explicit"
    if engine == "symbolic":
        return "symbolic"
    if engine != "auto":
        raise InputError(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    if variables <= AUTO_SYMBOLIC_ABOVE:
        return "explicit"
    from epigames.logic.symbolic import backend_name

    return "explicit" if backend_name() is None else "symbolic"
