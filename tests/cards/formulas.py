"""Tests write card formulas as nested tuples; the engine takes the logic's `Formula`."""

from __future__ import annotations

from typing import Any

from epigames.cards import holds_atom
from epigames.logic import And, Atom, Bot, Formula, Iff, Implies, Not, Or, Top, Xor


def card_formula(spec: Any) -> Formula:
    """`("holds", holder, card)`, `("not", f)`, `("and", …)`, `("or", …)`, `("implies", f, g)`,
    `("iff", f, g)`, `("xor", …)`, True and False, as a `Formula`."""
    if isinstance(spec, bool):
        return Top() if spec else Bot()
    op, *args = spec
    if op == "holds":
        return Atom(holds_atom(str(args[0]), args[1]))
    parts = [card_formula(a) for a in args]
    if op == "not":
        return Not(parts[0])
    if op == "implies":
        return Implies(parts[0], parts[1])
    if op == "iff":
        return Iff(parts[0], parts[1])
    return {"and": And, "or": Or, "xor": Xor}[op](tuple(parts))
