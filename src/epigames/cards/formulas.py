"""Propositional formulas over ``holds(holder, card)`` atoms, and their DNF.

The card engine decides formulas of the logic engine (`epigames.logic.Formula`) whose
atoms are named ``holds(<holder>, <card>)``: a holder's name or index, a comma and a
space, and a card's ``str()`` (e.g. ``holds(West, ⟨8,4⟩)``, the atoms of the Kripke
pictures). Connectives are ⊤, ⊥, ¬, ∧, ∨, →, ↔, xor and one-of; modal operators are for
the logic engine, which works on worlds (the card engine works on counts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
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
    return list(dnf_terms(layout, formula, negate))


def dnf_terms(
    layout: CardLayout,
    formula: Formula,
    negate: bool = False,
    keep: Callable[[Term], bool] | None = None,
) -> Iterator[Term]:
    """The terms of `dnf`, made one at a time, only those `keep` accepts.

    `keep` must accept every term that extends an accepted one by nothing it rejects
    (a test of whether a term can be true, say): it prunes the parts of a conjunction
    before they are combined, so a part with no term left empties the whole product at
    once, and a reader that stops at the first term never makes the rest. A conjunction
    of conjunctions is combined as one, so the pruning reaches every part.

    Raises:
        FormulaError: a modal operator (the card engine decides holder facts only).
        UnknownCardError: an atom that names no holder or card of the layout.
    """
    match formula:
        case Top() | Bot():
            if isinstance(formula, Top) != negate:
                yield (frozenset(), frozenset())
            return
        case Atom(name):
            lit = frozenset([literal(layout, name)])
            term: Term = (frozenset(), lit) if negate else (lit, frozenset())
            if keep is None or keep(term):
                yield term
            return
        case Not(arg):
            yield from dnf_terms(layout, arg, not negate, keep)
            return
        case Implies() | Iff() | Xor() | OneOf():
            yield from dnf_terms(layout, _rewritten(formula), negate, keep)
            return
        case And(args) | Or(args):
            if isinstance(formula, And) == negate:
                for arg in args:
                    yield from dnf_terms(layout, arg, negate, keep)
                return
            parts = [list(dnf_terms(layout, f, n, keep)) for f, n in _conjuncts(formula, negate)]
            parts.sort(key=len)  # an empty part ends the product before it starts
            for combo in product(*parts):
                pos = frozenset().union(*(t[0] for t in combo))
                neg = frozenset().union(*(t[1] for t in combo))
                if _consistent(pos, neg) and (keep is None or keep((pos, neg))):
                    yield (pos, neg)
            return
    raise FormulaError(
        f"the card engine decides formulas about who holds which card (holds atoms and "
        f"connectives), not {formula}"
    )


def _rewritten(formula: Formula) -> Formula:
    """Implication, equivalence, exclusive or and one-of with and, or and not."""
    match formula:
        case Implies(left, right):
            return Or((Not(left), right))
        case Iff(left, right):
            return Or((And((left, right)), And((Not(left), Not(right)))))
        case Xor(args):
            return _odd(args)
        case OneOf(args):
            return Or(
                tuple(
                    And((a, *(Not(b) for j, b in enumerate(args) if j != i)))
                    for i, a in enumerate(args)
                )
            )
    return formula


def _conjuncts(formula: Formula, negate: bool) -> Iterator[tuple[Formula, bool]]:
    """The parts of a conjunction (of `formula`, or of its negation when `negate`), with
    nested conjunctions and negations opened: `(part, negate)` pairs."""
    match formula:
        case Not(arg):
            yield from _conjuncts(arg, not negate)
            return
        case And(args) | Or(args) if isinstance(formula, And) != negate:
            for arg in args:
                yield from _conjuncts(arg, negate)
            return
    yield formula, negate


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
