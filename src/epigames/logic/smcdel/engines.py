"""Which engine answers an SMCDEL file: the explicit Kripke model or the BDDs."""

from __future__ import annotations

from typing import Literal

from epigames.errors import InputError
from epigames.logic import formula as fm
from epigames.logic.formula import Formula

__all__ = [
    "AUTO_SYMBOLIC_ABOVE",
    "ENGINES",
    "MAX_VARIABLES",
    "Engine",
    "choose_engine",
    "modal_quantifier",
]

Engine = Literal["auto", "explicit", "symbolic"]
#: The engines there are, `auto` first.
ENGINES: tuple[Engine, ...] = ("auto", "explicit", "symbolic")
#: The explicit model has 2^|VARS| candidate valuations; beyond this it does not fit memory.
MAX_VARIABLES = 20
#: `auto` answers files with more variables than this symbolically: from about here on
#: the BDDs are faster than the 2^|VARS| candidate worlds of the explicit model.
AUTO_SYMBOLIC_ABOVE = 12


def modal_quantifier(f: Formula) -> fm.Quantified | None:
    """The first `Forall`/`Exists` whose argument has a modality or an announcement.

    SMCDEL quantifies such a formula's BDD, so its values outside the states count; the
    explicit engine has only the states, and so answers these with the symbolic engine.
    """
    for g in f.walk():
        if isinstance(g, fm.Quantified) and not all(
            isinstance(h, (fm.Top, fm.Bot, fm.Atom, fm.Connective, fm.Quantified))
            for h in g.arg.walk()
        ):
            return g
    return None


def choose_engine(
    variables: int, engine: str = "auto", *, modal_quantifiers: bool = False
) -> Literal["explicit", "symbolic"]:
    """The engine for a structure of that many variables: `engine`, or for `auto` by size.

    `auto` is symbolic above `AUTO_SYMBOLIC_ABOVE` variables and wherever a quantifier
    reaches over a modality (`modal_quantifiers`, see `modal_quantifier`). Without the
    package `dd` it keeps to the explicit engine, which then refuses what it cannot do
    with its own message.

    Raises:
        InputError: an engine name that is not one of `ENGINES`.
    """
    if engine == "explicit":
        return "explicit"
    if engine == "symbolic":
        return "symbolic"
    if engine != "auto":
        raise InputError(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    if variables <= AUTO_SYMBOLIC_ABOVE and not modal_quantifiers:
        return "explicit"
    from epigames.logic.symbolic import backend_name

    return "explicit" if backend_name() is None else "symbolic"
