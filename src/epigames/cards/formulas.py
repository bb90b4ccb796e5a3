"""Propositional formulas over ``holds(holder, card)`` atoms, and their DNF.

The card engine decides formulas of the logic engine (`epigames.logic.Formula`) whose
atoms are named ``holds(<holder>, <card>)``: a holder's name or index, a comma and a
space, and a card's ``str()`` (e.g. ``holds(West, ⟨8,4⟩)``, the atoms of the Kripke
pictures). Connectives are ⊤, ⊥, ¬, ∧, ∨, →, ↔, xor and one-of; modal operators are for
the logic engine, which works on worlds (the card engine works on counts).
"""

from __future__ import annotations

from itertools import product

from epigames.cards.errors import UnknownCardError
from epigames.cards.layout import CardLayout
from epigames.logic.formula import (
    And,
    Atom,
    Bot,
    Formula,
    FormulaError,
    Iff,
    Implies,
    Not,
    OneOf,
    Or,
    Top,
    Xor,
)

#: A conjunction of literals: ``(positives, negatives)``, each a set of (card, holder).
Term = tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]


def holds_atom(holder: str, card: object) -> str:
    """The atom name for "`holder` holds `card`", e.g. ``holds(West, ⟨8,4⟩)``."""
    return f"holds({holder}, {card})"


def literal(layout: CardLayout, name: str) -> tuple[int, int]:
    """The ``(card, holder)`` indices of a ``holds(holder, card)`` atom.

    Raises:
        UnknownCardError: the name is not such an atom, or names an unknown holder or card.
    """
    inner = name[6:-1] if name.startswith("holds(") and name.endswith(")") else ""
    holder, sep, card = inner.partition(", ")
    if not sep:
        raise UnknownCardError(
            f"unknown atom {name!r}; the card engine reads atoms like "
            f"{holds_atom(layout.holders[0], layout.cards[0])!r}"
        )
    who: int | str = int(holder) if holder.isdigit() else holder
    return layout.parse_card(card), layout.holder_index(who)


def dnf(layout: CardLayout, formula: Formula, negate: bool = False) -> list[Term]:
    """The formula (or its negation) as a list of consistent terms; empty means false.

    Raises:
        FormulaError: a modal operator (the card engine decides holder facts only).
        UnknownCardError: an atom that names no holder or card of the layout.
    """
    match formula:
        case Top() | Bot():
            return [(frozenset(), frozenset())] if isinstance(formula, Top) != negate else []
        case Atom(name):
            lit = frozenset([literal(layout, name)])
            return [(frozenset(), lit)] if negate else [(lit, frozenset())]
        case Not(arg):
            return dnf(layout, arg, not negate)
        case Implies(left, right):
            return dnf(layout, Or((Not(left), right)), negate)
        case Iff(left, right):
            both = And((left, right))
            return dnf(layout, Or((both, And((Not(left), Not(right))))), negate)
        case Xor(args):
            return dnf(layout, _odd(args), negate)
        case OneOf(args):
            exactly = (
                And((a, *(Not(b) for j, b in enumerate(args) if j != i)))
                for i, a in enumerate(args)
            )
            return dnf(layout, Or(tuple(exactly)), negate)
        case And(args) | Or(args):
            conjunctive = isinstance(formula, And) != negate
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
    raise FormulaError(
        f"the card engine decides formulas about who holds which card (holds atoms and "
        f"connectives), not {formula}"
    )


def _odd(args: tuple[Formula, ...]) -> Formula:
    """Exclusive or, pairwise: an odd number of `args` is true."""
    result: Formula = Bot()
    for arg in args:
        result = Or((And((result, Not(arg))), And((Not(result), arg))))
    return result


def _consistent(pos: frozenset[tuple[int, int]], neg: frozenset[tuple[int, int]]) -> bool:
    if pos & neg:
        return False
    placed: dict[int, int] = {}
    return all(placed.setdefault(card, holder) == holder for card, holder in pos)
