"""The symbolic engine: knowledge structures on BDDs (SMCDEL's method), for models too big to list.

A `KnowledgeStructure` has a vocabulary, a state law (a BDD) and the variables each agent
observes; it answers every `Formula` the explicit engine does on S5 models (K, Kw, M, E,
C, D and their whether-forms, public and group announcements, quantifiers) and updates
with S5 action models (`product_update`, with factual change) without
listing worlds, so muddy children with 100 children is a BDD of some thousands of nodes
rather than 2^100 worlds. It needs the package `dd` (the `symbolic` extra): CUDD through
`dd.cudd` when it imports, else the pure-Python `dd.autoref`.

Example::

    from epigames.logic import parse
    from epigames.logic.symbolic import KnowledgeStructure
    s = KnowledgeStructure.build(["1", "2"], parse("top"), {"a": ["2"], "b": ["1"]})
    s.holds(parse("K_a 2 & ~Kw_a 1"), {"1", "2"})   # True
"""

from epigames.logic.symbolic.actions import product_update as product_update
from epigames.logic.symbolic.bdd import (
    BACKENDS as BACKENDS,
    Manager as Manager,
    SymbolicUnavailableError as SymbolicUnavailableError,
    backend_name as backend_name,
)
from epigames.logic.symbolic.kripke import (
    KripkeEncoding as KripkeEncoding,
    from_kripke as from_kripke,
)
from epigames.logic.symbolic.structure import KnowledgeStructure as KnowledgeStructure

__all__ = [
    "BACKENDS",
    "KnowledgeStructure",
    "KripkeEncoding",
    "Manager",
    "SymbolicUnavailableError",
    "backend_name",
    "from_kripke",
    "product_update",
]
