"""The epistemic logic engine: formulas, their syntax, Kripke models, updates.

Typical use::

    from epigames.logic import KripkeModel, parse
    m = KripkeModel.build(["w", "v"], {"w": ["p"]},
                          partitions={"a": [["w", "v"]], "b": [["w"], ["v"]]},
                          designated=["w"])
    m.holds(parse("K_b p & ~K_a p"))   # True
"""

from epigames.logic.actions import ActionModel, product_update
from epigames.logic.bisimulation import bisimilarity_classes, contract
from epigames.logic.formula import (
    And,
    Announce,
    Atom,
    Bot,
    C,
    Cw,
    D,
    Dw,
    E,
    Ew,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    K,
    Kw,
    M,
    Not,
    OneOf,
    Or,
    Top,
    Xor,
    conj,
    disj,
    substitute,
)
from epigames.logic.model import KripkeModel
from epigames.logic.relations import Partition, Relation
from epigames.logic.syntax import parse

# Installs `Formula.to_latex()` (syntax, imported above, installs `str()` and `Formula.parse`).
from epigames.logic import latex  # noqa: F401  # isort: skip

__all__ = [
    "ActionModel",
    "And",
    "Announce",
    "Atom",
    "Bot",
    "C",
    "Cw",
    "D",
    "Dw",
    "E",
    "Ew",
    "Exists",
    "Forall",
    "Formula",
    "Iff",
    "Implies",
    "K",
    "KripkeModel",
    "Kw",
    "M",
    "Not",
    "OneOf",
    "Or",
    "Partition",
    "Relation",
    "Top",
    "Xor",
    "bisimilarity_classes",
    "conj",
    "contract",
    "disj",
    "parse",
    "product_update",
    "substitute",
]
