"""Boolean formulas over ``holds(holder, card)`` atoms, as nested tuples, and their DNF.

Syntax (a stand-in until the project's ``Formula`` class is adapted):
``("holds", holder, card)`` with a holder index or name and a card object or its
``str()``; ``("not", f)``; ``("and", f, ...)``; ``("or", f, ...)``; ``("implies", f, g)``;
``("iff", f, g)``; and the constants ``True`` and ``False``.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import product
from typing import Any

from epigames.cards.errors import UnknownCardError
from epigames.cards.layout import CardLayout

#: A formula as nested tuples; see the module docstring.
CardFormula = tuple[Any, ...] | bool

#: A conjunction of literals: ``(positives, negatives)``, each a set of (card, holder).
Term = tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]


def _card(layout: CardLayout, ref: Hashable) -> int:
    if isinstance(ref, str):
        return layout.parse_card(ref)
    return layout.card_index(ref)


def dnf(layout: CardLayout, formula: CardFormula, negate: bool = False) -> list[Term]:
    """The formula (or its negation) as a list of consistent terms; empty means false."""
    if isinstance(formula, bool):
        return [(frozenset(), frozenset())] if formula != negate else []
    if not isinstance(formula, tuple) or not formula or not isinstance(formula[0], str):
        raise UnknownCardError(
            f"bad card formula {formula!r}; expected a tuple such as ('holds', holder, card)"
        )
    op, args = formula[0], formula[1:]
    if op == "holds":
        if len(args) != 2:
            raise UnknownCardError(f"bad atom {formula!r}; expected ('holds', holder, card)")
        lit = (_card(layout, args[1]), layout.holder_index(args[0]))
        if negate:
            return [(frozenset(), frozenset([lit]))]
        return [(frozenset([lit]), frozenset())]
    if op == "not" and len(args) == 1:
        return dnf(layout, args[0], not negate)
    if op == "implies" and len(args) == 2:
        return dnf(layout, ("or", ("not", args[0]), args[1]), negate)
    if op == "iff" and len(args) == 2:
        a, b = args
        return dnf(layout, ("or", ("and", a, b), ("and", ("not", a), ("not", b))), negate)
    if op in ("and", "or"):
        conjunctive = (op == "and") != negate
        parts = [dnf(layout, arg, negate) for arg in args]
        if not conjunctive:
            return [term for part in parts for term in part]
        terms: list[Term] = []
        for combo in product(*parts):
            pos = frozenset().union(*(t[0] for t in combo))
            neg = frozenset().union(*(t[1] for t in combo))
            if _consistent(pos, neg):
                terms.append((pos, neg))
        return terms
    raise UnknownCardError(
        f"bad card formula operator {op!r} in {formula!r}; "
        "expected holds, not, and, or, implies or iff"
    )


def _consistent(pos: frozenset[tuple[int, int]], neg: frozenset[tuple[int, int]]) -> bool:
    if pos & neg:
        return False
    placed: dict[int, int] = {}
    return all(placed.setdefault(card, holder) == holder for card, holder in pos)
