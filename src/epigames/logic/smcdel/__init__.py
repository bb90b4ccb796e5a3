"""Reader for SMCDEL's knowledge-structure files (`*.smcdel.txt`) and formula syntax.

SMCDEL (the reference symbolic model checker for dynamic epistemic logic) reads files like::

    -- three muddy children
    VARS 1,2,3
    LAW  Top
    OBS  alice: 2,3
         bob:   1,3
         carol: 1,2
    TRUE? {1,2,3} alice knows that (2 & 3) & ~ alice knows whether 1
    VALID? [! (1|2|3)] ~ alice knows whether 1
    WHERE? < ! (1|2|3) > (alice knows whether 1)

`parse_smcdel` reads such a file into a `SmcdelInput`; `SmcdelInput.model()` builds the
explicit S5 Kripke model it describes; `run_jobs` answers its `TRUE?`, `VALID?` and
`WHERE?` questions. `parse_smcdel_formula` reads one formula.

Modules: `dialect` (SMCDEL's formulas, read by the engine's one lexer and parser in
`epigames.logic.syntax`), `reader` (the file: VARS, LAW, OBS, jobs), `structure`
(`SmcdelInput`, its explicit model and its knowledge structure on BDDs), `engines`
(which engine answers), `jobs` (the questions and answers), `run` (answering them),
`errors`.

Semantics (as SMCDEL's): the worlds are the valuations of VARS that satisfy LAW (LAW must
be Boolean); an agent cannot tell apart two valuations that agree on every variable it
observes. An integer n is the atom `Atom("n")`. States are written as the set of their
true variables; `WHERE?` lists them sorted by the ascending tuple of their true variables
(so `{}` < `{1}` < `{1,2}` < `{2}`).

The formula grammar, loosest binding first, as SMCDEL's own (a yacc grammar)::

    formula := boolean (('->' | 'iff') boolean)*               one level, left-assoc
    boolean := unary (('&' | '|') unary)*                      one level, left-assoc;
                                                               a run of one is n-ary
    unary   := Top | Bot | INT | '(' formula ')'
             | ('~' | '¬' | 'Not' | 'not') unary
             | ('AND' | 'OR' | 'XOR' | 'ONEOF') '(' formula (',' formula)* ')'
             | ('K' | 'Kw') agent formula                       reaches as far as it can
             | agent ('knows that' | 'knows whether') unary
             | agent 'knows whether' '(' formula (',' formula)+ ')'   conjunction of Kw
             | group ('comknow' | 'distknow') ('that' | 'whether') unary
             | '[' [agents] ['?'] '!' formula ']' unary
             | '<' [agents] ['?'] '!' formula '>' unary
             | ('Forall' | 'ForAll' | 'Exists') INT (',' INT)* formula   reaches too
    group   := agent | '(' agent (',' agent)* ')'

So `alice knows that (2 & 3) & ~ alice knows whether 1` is
`(K alice (2 & 3)) & ~(Kw alice 1)`, but `K alice 2 & 1` is `K alice (2 & 1)` and
`1 -> 2 -> 3` is `(1 -> 2) -> 3`: SMCDEL gives `K`, `Kw`, `Forall` and `Exists` no
precedence (its parser extends them as far as it can) and puts `->` and `iff` on one
level grouping to the left, and `&` and `|` likewise (`%left '|' '&'`: `1 | 2 & 3` is
`(1 | 2) & 3`). These differ from the project's own syntax (`epigames.logic.syntax`),
where every prefix takes the smallest formula, `&` binds tighter than `|` and `->` groups
to the right under `<->`. Differences from SMCDEL that only accept more: an agent may
observe nothing (`carol:`), `OBS` may list no agent, `distknow` and the list form of
`knows whether` are read. Three inputs SMCDEL answers are refused (docs/logic.md): a
`TRUE?` at a state that violates the LAW, an unsatisfiable LAW, an agent twice in OBS.

`[a,b ! φ] ψ` is `Announce(φ, ψ, group=("a", "b"))`: as in SMCDEL, the group learns φ and
everyone knows that it did. `Forall`/`Exists` follow SMCDEL: they quantify the BDD of
their argument, also when it has modalities (its values at assignments that are not
states then count). Only the symbolic engine can do that (`SmcdelInput.structure()`
reads quantifiers so); the explicit engine refuses such a formula with a message and
`auto` answers it symbolically. Over Boolean formulas the two readings agree.
"""

from __future__ import annotations

from epigames.logic.smcdel.dialect import parse_smcdel_formula
from epigames.logic.smcdel.engines import (
    AUTO_SYMBOLIC_ABOVE,
    ENGINES,
    Engine,
    choose_engine,
    modal_quantifier,
)
from epigames.logic.smcdel.errors import SmcdelModelError, SmcdelUnknownAgentError
from epigames.logic.smcdel.jobs import Job, JobKind, JobResult, state_text
from epigames.logic.smcdel.reader import parse_smcdel
from epigames.logic.smcdel.run import run_jobs
from epigames.logic.smcdel.structure import MAX_VARIABLES, SmcdelInput

__all__ = [
    "AUTO_SYMBOLIC_ABOVE",
    "ENGINES",
    "MAX_VARIABLES",
    "Engine",
    "Job",
    "JobKind",
    "JobResult",
    "SmcdelInput",
    "SmcdelModelError",
    "SmcdelUnknownAgentError",
    "choose_engine",
    "modal_quantifier",
    "parse_smcdel",
    "parse_smcdel_formula",
    "run_jobs",
    "state_text",
]
