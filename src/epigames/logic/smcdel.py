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

Semantics (as SMCDEL's): the worlds are the valuations of VARS that satisfy LAW (LAW must
be Boolean); an agent cannot tell apart two valuations that agree on every variable it
observes. An integer n is the atom `Atom("n")`. States are written as the set of their
true variables; `WHERE?` lists them sorted by the ascending tuple of their true variables
(so `{}` < `{1}` < `{1,2}` < `{2}`).

The formula grammar, loosest binding first::

    formula := implies ('iff' implies)*                       left-assoc
    implies := boolean ('->' implies)?                         right-assoc
    boolean := unary ('&' unary)* | unary ('|' unary)*         n-ary; mixing & and |
                                                               needs parentheses
    unary   := Top | Bot | INT | '(' formula ')'
             | ('~' | '¬' | 'Not' | 'not') unary
             | ('AND' | 'OR' | 'XOR' | 'ONEOF') '(' formula (',' formula)* ')'
             | ('K' | 'Kw') agent unary
             | agent ('knows that' | 'knows whether') unary
             | agent 'knows whether' '(' formula (',' formula)+ ')'   conjunction of Kw
             | group ('comknow' | 'distknow') ('that' | 'whether') unary
             | '[' [agents] ['?'] '!' formula ']' unary
             | '<' [agents] ['?'] '!' formula '>' unary
             | ('Forall' | 'ForAll' | 'Exists') INT (',' INT)* unary
    group   := agent | '(' agent (',' agent)* ')'

Every prefix operator takes the smallest formula that follows it, so
`alice knows that (2 & 3) & ~ alice knows whether 1` is
`(K alice (2 & 3)) & ~(Kw alice 1)`. SMCDEL's own grammar gives `K`, `Kw`, `Forall` and
`Exists` no precedence, which lets its parser extend them over a following `&`; files that
parenthesise the argument read the same in both. `p & q | r` is rejected with a request
for parentheses rather than guessed. Differences from SMCDEL that only accept more: an
agent may observe nothing (`carol:`), `OBS` may list no agent, `distknow` and the list
form of `knows whether` are read.

`[a,b ! φ] ψ` is `Announce(φ, ψ, group=("a", "b"))`: as in SMCDEL, the group learns φ and
everyone knows that it did. `Forall`/`Exists` over a formula with modalities follow the
engine's `Quantified.expand` (substitution, also under modalities), which is not SMCDEL's
reading (quantifying the BDD of the formula); on Boolean formulas the two agree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from epigames.errors import FormulaSyntaxError, ModelError, UnknownAgentError, line_and_column
from epigames.logic.formula import (
    And,
    Announce,
    Atom,
    Bot,
    C,
    Cw,
    D,
    Dw,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    K,
    Kw,
    Not,
    OneOf,
    Or,
    Top,
    Xor,
)
from epigames.logic.model import KripkeModel
from epigames.logic.relations import AnyRelation, Mask, Partition
from epigames.logic.syntax import MAX_DEPTH, formula_depth

__all__ = [
    "MAX_VARIABLES",
    "Job",
    "JobKind",
    "JobResult",
    "SmcdelInput",
    "SmcdelModelError",
    "SmcdelUnknownAgentError",
    "parse_smcdel",
    "parse_smcdel_formula",
    "run_jobs",
    "state_text",
]

JobKind = Literal["TRUE?", "VALID?", "WHERE?"]
State = tuple[int, ...]

#: The explicit model has 2^|VARS| candidate valuations; beyond this it does not fit memory.
MAX_VARIABLES = 20


# --- errors with a position -----------------------------------------------------------


def _render(message: str, text: str, line: int, column: int) -> str:
    """The message with the offending source line and a caret, as FormulaSyntaxError shows."""
    lines = text.splitlines() or [""]
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    return f"line {line}, column {column}: {message}\n  {src}\n  {' ' * (column - 1)}^"


class _Located(Exception):
    """Mixin: an error that knows its 1-based line and column and shows a caret there."""

    def __init__(self, message: str, text: str, line: int, column: int) -> None:
        self.message = message
        self.text = text
        self.line = line
        self.column = column
        super().__init__(_render(message, text, line, column))


class SmcdelModelError(_Located, ModelError):
    """A well-formed SMCDEL file that describes no valid structure or question."""


class SmcdelUnknownAgentError(_Located, UnknownAgentError):
    """A formula in an SMCDEL file names an agent that OBS does not list."""


# --- lexer ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "INT", "STR", "EOF" or the canonical keyword / punctuation itself
    raw: str
    pos: int  # 0-based offset into the source
    end: int


# The line breaks of str.splitlines(), which the caret rendering uses to find the line.
_BREAK = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_INT = re.compile(r"[0-9]+")
_SPACE = re.compile(f"(?:\\s+|--[^{_BREAK}]*)+")
_INFIX = re.compile(r"(knows|comknow|distknow)\s+(that|whether)(?![A-Za-z0-9])")
_PUNCT = {
    "->": "->", "→": "->", ":": ":", ",": ",", "(": "(", ")": ")", "[": "[", "]": "]",
    "{": "{", "}": "}", "<": "<", ">": ">", "!": "!", "?": "?", "~": "~", "¬": "~",
    "&": "&", "∧": "&", "|": "|", "∨": "|",
}  # fmt: skip
_KEYWORDS = {
    "VARS": "VARS", "LAW": "LAW", "OBS": "OBS", "Top": "Top", "Bot": "Bot",
    "Not": "~", "not": "~", "iff": "iff", "AND": "AND", "OR": "OR", "XOR": "XOR",
    "ONEOF": "ONEOF", "Forall": "Forall", "ForAll": "Forall", "Exists": "Exists",
    "K": "K", "Kw": "Kw",
}  # fmt: skip
_JOB_WORDS = ("TRUE", "VALID", "WHERE")


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    n = len(text)
    while True:
        space = _SPACE.match(text, pos)
        if space:
            pos = space.end()
        if pos >= n:
            break
        if m := _INFIX.match(text, pos):
            kind, end = f"{m.group(1)} {m.group(2)}", m.end()
        elif m := _WORD.match(text, pos):
            word, end = m.group(), m.end()
            if word in _JOB_WORDS and text.startswith("?", end):
                kind, end = word + "?", end + 1
            else:
                kind = _KEYWORDS.get(word, "STR")
        elif m := _INT.match(text, pos):
            kind, end = "INT", m.end()
        else:
            sym = "->" if text.startswith("->", pos) else text[pos]
            if sym not in _PUNCT:
                line, col = line_and_column(text, pos)
                raise FormulaSyntaxError(
                    f"unexpected character {sym!r}", text, line, col, "a formula or a keyword"
                )
            kind, end = _PUNCT[sym], pos + len(sym)
        tokens.append(_Token(kind, text[pos:end], pos, end))
        pos = end
    tokens.append(_Token("EOF", "", n, n))
    return tokens


# --- data -----------------------------------------------------------------------------


def state_text(state: Iterable[int]) -> str:
    """A state as SMCDEL writes it: its true variables in braces, `{1,2}` or `{}`."""
    return "{" + ",".join(str(v) for v in sorted(state)) + "}"


@dataclass(frozen=True, slots=True)
class Job:
    """One question of a file: `TRUE? {…} φ`, `VALID? φ` or `WHERE? φ`.

    `text` is the formula as written (comments dropped, whitespace collapsed); `line` and
    `column` locate the job's keyword; `state` (TRUE? only) is the state's true variables.
    """

    kind: JobKind
    formula: Formula
    text: str
    line: int
    column: int
    state: State | None = None
    state_line: int = 0
    state_column: int = 0


@dataclass(frozen=True, slots=True)
class JobResult:
    """The answer to one job: a truth value, or (WHERE?) the states where the formula holds."""

    kind: JobKind
    line: int
    text: str
    formula: Formula
    state: State | None
    answer: bool | list[frozenset[int]]

    def answer_text(self) -> str:
        """The answer as SMCDEL-style text: `True`, `False` or `[{1},{2},{3}]`."""
        if isinstance(self.answer, bool):
            return str(self.answer)
        return "[" + ",".join(state_text(s) for s in self.answer) + "]"

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict: kind, line, formula, state (TRUE? only), answer.

        WHERE? answers are lists of sorted int lists.
        """
        out: dict[str, object] = {"kind": self.kind, "line": self.line, "formula": self.text}
        if self.state is not None:
            out["state"] = list(self.state)
        if isinstance(self.answer, bool):
            out["answer"] = self.answer
        else:
            out["answer"] = [sorted(s) for s in self.answer]
        return out


@dataclass(frozen=True, eq=False)
class SmcdelInput:
    """A parsed SMCDEL file: the knowledge structure (VARS, LAW, OBS) and its jobs.

    Attributes:
        variables: the declared variables, in the order written.
        law: the Boolean formula every state satisfies.
        observations: agent → the variables it observes, in OBS order.
        jobs: the questions, in file order.
        source: the file's text (for error messages).
    """

    variables: tuple[int, ...]
    law: Formula
    observations: Mapping[str, tuple[int, ...]]
    jobs: tuple[Job, ...] = ()
    source: str = ""
    law_position: tuple[int, int] = (1, 1)
    vars_position: tuple[int, int] = (1, 1)
    _built: list[tuple[KripkeModel, list[State]]] = field(
        default_factory=list, repr=False, compare=False
    )

    @property
    def agents(self) -> tuple[str, ...]:
        """The agents, in OBS order."""
        return tuple(self.observations)

    def _error(self, message: str, where: tuple[int, int]) -> SmcdelModelError:
        return SmcdelModelError(message, self.source, where[0], where[1])

    def _build(self) -> tuple[KripkeModel, list[State]]:
        if self._built:
            return self._built[0]
        vs = sorted(self.variables)
        if len(vs) > MAX_VARIABLES:
            raise self._error(
                f"{len(vs)} variables give 2^{len(vs)} valuations, too many for an explicit "
                f"model (at most {MAX_VARIABLES} variables)",
                self.vars_position,
            )
        # Row i of `bits` is the valuation whose binary digits are i (variable vs[j] ↔ bit j).
        codes = np.arange(1 << len(vs), dtype=np.int64)
        bits = ((codes[:, None] >> np.arange(len(vs), dtype=np.int64)) & 1).astype(bool)
        everything = KripkeModel(
            (), tuple(str(i) for i in range(len(codes))),
            {str(v): bits[:, j] for j, v in enumerate(vs)}, {},
        )  # fmt: skip
        keep = everything.truth_set(self.law)
        if not keep.any():
            raise self._error("the LAW is satisfied by no valuation of VARS", self.law_position)
        kept = bits[keep]
        states = [tuple(v for v, b in zip(vs, row, strict=True) if b) for row in kept.tolist()]
        order = sorted(range(len(states)), key=states.__getitem__)
        kept = kept[order]
        states = [states[i] for i in order]
        column = {v: j for j, v in enumerate(vs)}
        relations: dict[str, AnyRelation] = {}
        for agent, observed in self.observations.items():
            ids = np.zeros(len(states), dtype=np.int64)
            for k, v in enumerate(sorted(set(observed))):
                ids |= kept[:, column[v]].astype(np.int64) << k
            relations[agent] = Partition.from_ids(ids)
        valuation: dict[str, Mask] = {}
        for j, v in enumerate(vs):
            mask = np.ascontiguousarray(kept[:, j])
            if mask.any():
                mask.flags.writeable = False
                valuation[str(v)] = mask
        model = KripkeModel(self.agents, tuple(state_text(s) for s in states), valuation, relations)
        self._built.append((model, states))
        return model, states

    def model(self) -> KripkeModel:
        """The S5 Kripke model: one world per state, named like `{1,2}`, in WHERE? order.

        Raises:
            SmcdelModelError: the LAW holds nowhere, or there are too many variables.
        """
        return self._build()[0]

    def states(self) -> list[frozenset[int]]:
        """The states (the valuations satisfying LAW), in the model's world order."""
        return [frozenset(s) for s in self._build()[1]]

    def where(self, formula: Formula) -> list[frozenset[int]]:
        """The states where the formula is true, sorted as `WHERE?` lists them."""
        model, states = self._build()
        return [frozenset(states[i]) for i in np.flatnonzero(model.truth_set(formula))]

    def valid(self, formula: Formula) -> bool:
        """Whether the formula is true in every state."""
        return self.model().valid(formula)

    def true_at(self, state: Iterable[int], formula: Formula) -> bool:
        """Whether the formula is true at the state whose true variables are given.

        Raises:
            ModelError: a variable is not declared, or the state does not satisfy the LAW.
        """
        key = tuple(sorted(set(state)))
        undeclared = sorted(set(key) - set(self.variables))
        if undeclared:
            raise ModelError(
                f"state {state_text(key)} names {_plural('variable', undeclared)} not in VARS"
            )
        index = self._state_index(key)
        if index is None:
            raise ModelError(f"state {state_text(key)} does not satisfy the LAW")
        return bool(self.model().truth_set(formula)[index])

    def _state_index(self, key: State) -> int | None:
        states = self._build()[1]
        # States are sorted, so bisect instead of building a dict per call.
        lo, hi = 0, len(states)
        while lo < hi:
            mid = (lo + hi) // 2
            if states[mid] < key:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < len(states) and states[lo] == key else None


def _plural(word: str, items: Sequence[int]) -> str:
    listed = ", ".join(str(i) for i in items)
    return f"{word} {listed}" if len(items) == 1 else f"{word}s {listed}"


# --- parser ---------------------------------------------------------------------------

_INFIX_KINDS = {
    "knows that", "knows whether", "comknow that", "comknow whether",
    "distknow that", "distknow whether",
}  # fmt: skip
_GROUP_OPS = {
    "comknow that": C, "comknow whether": Cw, "distknow that": D, "distknow whether": Dw,
}  # fmt: skip
_NARY = {"AND": And, "OR": Or, "XOR": Xor, "ONEOF": OneOf}
_STRUCTURE = {"VARS", "LAW", "OBS", "TRUE?", "VALID?", "WHERE?"}


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.i = 0
        self.variables: frozenset[int] | None = None
        self.agents: tuple[str, ...] | None = None
        self.boolean_only = False
        self.declared: set[int] = set()
        # Parentheses and prefix operators the parser is inside now (see `MAX_DEPTH`).
        self.depth = 0

    # token helpers

    @property
    def tok(self) -> _Token:
        return self.tokens[self.i]

    def peek(self, k: int = 1) -> _Token:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def at(self, kind: str) -> bool:
        return self.tok.kind == kind

    def advance(self) -> _Token:
        t = self.tok
        self.i += 1
        return t

    def where(self, tok: _Token) -> tuple[int, int]:
        return line_and_column(self.text, tok.pos)

    def syntax(self, message: str, tok: _Token, expected: str = "") -> FormulaSyntaxError:
        line, col = self.where(tok)
        return FormulaSyntaxError(message, self.text, line, col, expected)

    def fail(self, expected: str, tok: _Token | None = None) -> FormulaSyntaxError:
        t = tok or self.tok
        found = "end of input" if t.kind == "EOF" else repr(t.raw)
        return self.syntax(f"unexpected {found}", t, expected)

    def model_error(self, message: str, tok: _Token) -> SmcdelModelError:
        line, col = self.where(tok)
        return SmcdelModelError(message, self.text, line, col)

    def expect(self, kind: str, expected: str = "") -> _Token:
        if not self.at(kind):
            raise self.fail(expected or repr(kind))
        return self.advance()

    def too_deep(self, tok: _Token, depth: int, exact: bool) -> FormulaSyntaxError:
        how = f"{depth}" if exact else f"at least {depth}"
        return self.syntax(f"formula nests {how} levels deep; the limit is {MAX_DEPTH}", tok)

    def enter(self, t: _Token) -> None:
        """One level deeper at token `t`; past `MAX_DEPTH`, fail before recursing."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            # The parser stops here, so name how deep the text goes at least: count the
            # run of `~` and `(` that follows (the usual shape of such input).
            k = start = self.tokens.index(t) + 1
            while self.tokens[k].kind in ("~", "("):
                k += 1
            raise self.too_deep(t, self.depth + k - start, exact=False)

    def leave(self, levels: int = 1) -> None:
        self.depth -= levels

    def checked(self, f: Formula, start: _Token) -> Formula:
        """`f`, unless its tree is deeper than `MAX_DEPTH` (the model checker recurses)."""
        depth = formula_depth(f)
        if depth > MAX_DEPTH:
            raise self.too_deep(start, depth, exact=True)
        return f

    # the file

    def check_input(self) -> SmcdelInput:
        vars_tok = self.expect("VARS", "'VARS' (a file starts with VARS, LAW and OBS)")
        if not self.at("INT"):
            if self.at("LAW"):
                raise self.model_error("VARS declares no variable", self.tok)
            raise self.fail("a variable (a number)")
        variables = self.int_list(declare=True)
        self.variables = frozenset(variables)
        self.expect("LAW", "',' or 'LAW'")
        law_tok = self.tok
        self.boolean_only = True
        law = self.checked(self.formula(), law_tok)
        self.boolean_only = False
        self.expect("OBS", "an operator or 'OBS'")
        observations: dict[str, tuple[int, ...]] = {}
        while self.at("STR"):
            name = self.advance()
            if name.raw in observations:
                raise self.model_error(f"agent {name.raw!r} is named twice in OBS", name)
            self.expect(":", f"':' after the agent name {name.raw!r}")
            observed = self.int_list() if self.at("INT") else []
            observations[name.raw] = tuple(dict.fromkeys(observed))
        self.agents = tuple(observations)
        jobs: list[Job] = []
        while not self.at("EOF"):
            jobs.append(self.job())
        line, col = self.where(law_tok)
        return SmcdelInput(
            tuple(variables), law, observations, tuple(jobs), self.text, (line, col),
            self.where(vars_tok),
        )  # fmt: skip

    def int_list(self, declare: bool = False) -> list[int]:
        values = [self.variable(declare)]
        while self.at(","):
            self.advance()
            values.append(self.variable(declare))
        return values

    def variable(self, declare: bool = False) -> int:
        t = self.expect("INT", "a variable (a number)")
        value = int(t.raw)
        if declare:
            if value in self.declared:
                raise self.model_error(f"variable {value} is declared twice in VARS", t)
            self.declared.add(value)
        elif self.variables is not None and value not in self.variables:
            raise self.model_error(
                f"variable {value} is not declared in VARS "
                f"({', '.join(str(v) for v in sorted(self.variables))})",
                t,
            )
        return value

    def job(self) -> Job:
        t = self.tok
        if t.kind not in ("TRUE?", "VALID?", "WHERE?"):
            raise self.fail("an operator or a job (TRUE?, VALID?, WHERE?)")
        self.advance()
        line, col = self.where(t)
        state: State | None = None
        sline = scol = 0
        kind: JobKind = "VALID?" if t.kind == "VALID?" else "WHERE?"
        if t.kind == "TRUE?":
            kind = "TRUE?"
            brace = self.expect("{", "'{' and the state's true variables, e.g. {1,2}")
            sline, scol = self.where(brace)
            values = [] if self.at("}") else self.int_list()
            self.expect("}", "',' or '}'")
            state = tuple(sorted(set(values)))
        start = self.tok
        if start.kind == "EOF" or start.kind in _STRUCTURE:
            raise self.fail("a formula")
        formula = self.checked(self.formula(), start)
        return Job(kind, formula, self.source_text(start), line, col, state, sline, scol)

    def source_text(self, start: _Token) -> str:
        """The source from `start` to the last token read, comments and extra space removed."""
        raw = self.text[start.pos : self.tokens[self.i - 1].end]
        return " ".join(re.sub(f"--[^{_BREAK}]*", " ", raw).split())

    # formulas

    def formula(self) -> Formula:
        f = self.implication()
        chain = 0
        while self.at("iff"):
            # Each `iff` nests the chain so far one level deeper (left-assoc).
            self.enter(self.advance())
            chain += 1
            f = Iff(f, self.implication())
        self.leave(chain)
        return f

    def implication(self) -> Formula:
        f = self.boolean()
        if self.at("->"):
            self.enter(self.advance())
            f = Implies(f, self.implication())
            self.leave()
        return f

    def boolean(self) -> Formula:
        first = self.unary()
        if not (self.at("&") or self.at("|")):
            return first
        op = self.tok.kind
        args = [first]
        while self.at("&") or self.at("|"):
            if self.tok.kind != op:
                raise self.syntax(
                    f"'{op}' and '{self.tok.raw}' cannot be mixed without parentheses",
                    self.tok,
                    "parentheses, e.g. (p & q) | r",
                )
            self.advance()
            args.append(self.unary())
        return And(tuple(args)) if op == "&" else Or(tuple(args))

    def modal(self, what: str, tok: _Token) -> None:
        if self.boolean_only:
            raise self.model_error(f"the LAW must be a Boolean formula, but it uses {what}", tok)

    def agent(self, tok: _Token) -> str:
        if tok.kind != "STR":
            raise self.fail("an agent name", tok)
        if self.agents is not None and tok.raw not in self.agents:
            line, col = self.where(tok)
            known = ", ".join(self.agents) if self.agents else "(none)"
            raise SmcdelUnknownAgentError(
                f"unknown agent {tok.raw!r}; the agents in OBS are: {known}",
                self.text,
                line,
                col,
            )
        return tok.raw

    def agent_list(self) -> tuple[str, ...]:
        names = [self.agent(self.advance())]
        while self.at(","):
            self.advance()
            names.append(self.agent(self.advance()))
        return tuple(names)

    def group_ahead(self) -> bool:
        """Whether the tokens from here are `( a, b, … ) comknow/distknow …`."""
        if not self.at("("):
            return False
        k = 1
        while True:
            if self.peek(k).kind != "STR":
                return False
            nxt = self.peek(k + 1).kind
            if nxt == ")":
                return self.peek(k + 2).kind in _GROUP_OPS
            if nxt != ",":
                return False
            k += 2

    def unary(self) -> Formula:
        t = self.tok
        if t.kind in ("Top", "Bot", "INT"):
            return self.operand()
        self.enter(t)
        f = self.operand()
        self.leave()
        return f

    def operand(self) -> Formula:
        """A unary formula (see `unary`, which counts how deep they nest)."""
        t = self.tok
        kind = t.kind
        if kind == "Top":
            self.advance()
            return Top()
        if kind == "Bot":
            self.advance()
            return Bot()
        if kind == "INT":
            return Atom(str(self.variable()))
        if kind == "~":
            self.advance()
            return Not(self.unary())
        if kind in _NARY:
            self.advance()
            self.expect("(", f"'(' after {t.raw}")
            args = self.formula_list()
            return _NARY[kind](tuple(args))
        if kind in ("K", "Kw"):
            self.advance()
            self.modal(f"'{t.raw}'", t)
            agent = self.agent(self.advance())
            arg = self.unary()
            return K(agent, arg) if kind == "K" else Kw(agent, arg)
        if kind == "STR":
            return self.infix()
        if kind == "(":
            if self.group_ahead():
                self.advance()
                group = self.agent_list()
                self.advance()  # the ")" that group_ahead saw
                return self.group_modal(group)
            self.advance()
            f = self.formula()
            self.expect(")", "an operator or ')'")
            return f
        if kind in ("[", "<"):
            return self.announcement()
        if kind in ("Forall", "Exists"):
            self.advance()
            names = tuple(str(v) for v in self.int_list())
            arg = self.unary()
            return Forall(names, arg) if kind == "Forall" else Exists(names, arg)
        raise self.fail("a formula (a number, Top, ~, K, 'a knows that', [!…], '(' …)")

    def formula_list(self) -> list[Formula]:
        args = [self.formula()]
        while self.at(","):
            self.advance()
            args.append(self.formula())
        self.expect(")", "',' or ')'")
        return args

    def infix(self) -> Formula:
        name = self.tok
        op = self.peek()
        if op.kind not in _INFIX_KINDS:
            raise self.fail(
                "'knows that', 'knows whether', 'comknow that|whether' or "
                "'distknow that|whether' after an agent name (atoms are numbers)",
                op,
            )
        self.modal(f"'{op.raw}'", op)
        self.advance()
        if op.kind in _GROUP_OPS:
            # A single agent without parentheses: `alice comknow that φ`.
            return self.group_modal((self.agent(name),))
        agent = self.agent(name)
        self.advance()
        if op.kind == "knows that":
            return K(agent, self.unary())
        if self.at("(") and not self.group_ahead():
            # `a knows whether (φ1, φ2, …)`: a knows whether each of them.
            self.advance()
            args = self.formula_list()
            if len(args) == 1:
                return Kw(agent, args[0])
            return And(tuple(Kw(agent, a) for a in args))
        return Kw(agent, self.unary())

    def group_modal(self, group: tuple[str, ...]) -> Formula:
        op = self.tok
        if op.kind not in _GROUP_OPS:
            raise self.fail("'comknow that|whether' or 'distknow that|whether'")
        self.modal(f"'{op.raw}'", op)
        self.advance()
        return _GROUP_OPS[op.kind](group, self.unary())

    def announcement(self) -> Formula:
        opener = self.advance()
        self.modal("an announcement", opener)
        diamond = opener.kind == "<"
        closer = ">" if diamond else "]"
        group: tuple[str, ...] | None = None
        if self.at("STR"):
            group = self.agent_list()
        whether = False
        if self.at("?"):
            self.advance()
            whether = True
        if not self.at("!"):
            raise self.fail("'!' (announcements are [! φ] ψ, [?! φ] ψ or [a,b ! φ] ψ)")
        self.advance()
        pre = self.formula()
        self.expect(closer, f"an operator or {closer!r}")
        return Announce(pre, self.unary(), group, whether, diamond)


def parse_smcdel(text: str) -> SmcdelInput:
    """Read an SMCDEL input file: VARS, LAW, OBS and the jobs.

    Raises:
        FormulaSyntaxError: the text does not parse (line, column, caret, what was expected),
            or a formula nests deeper than `epigames.logic.syntax.MAX_DEPTH` levels.
        SmcdelModelError: an empty or repeated VARS entry, an undeclared variable, an agent
            named twice in OBS, a LAW with a modality.
        SmcdelUnknownAgentError: a job names an agent that OBS does not list.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_smcdel() takes a string, got {type(text).__name__}")
    return _Parser(text).check_input()


def parse_smcdel_formula(
    text: str,
    variables: Iterable[int] | None = None,
    agents: Iterable[str] | None = None,
) -> Formula:
    """Read one formula in SMCDEL's syntax.

    Args:
        text: the formula.
        variables: if given, every variable must be one of them.
        agents: if given, every agent must be one of them.

    Raises:
        FormulaSyntaxError: the text is not one formula, or nests deeper than
            `epigames.logic.syntax.MAX_DEPTH` levels.
        SmcdelModelError: an undeclared variable.
        SmcdelUnknownAgentError: an agent that is not in `agents`.
    """
    p = _Parser(text)
    p.variables = None if variables is None else frozenset(variables)
    p.agents = None if agents is None else tuple(agents)
    if p.at("EOF"):
        raise p.fail("a formula")
    start = p.tok
    f = p.formula()
    if not p.at("EOF"):
        raise p.fail("an operator (&, |, ->, iff) or the end of the formula")
    return p.checked(f, start)


def run_jobs(data: SmcdelInput) -> list[JobResult]:
    """Answer every job of the input, in file order.

    Raises:
        SmcdelModelError: the LAW holds nowhere, or a TRUE? state does not satisfy it.
    """
    model, states = data._build()
    results: list[JobResult] = []
    for job in data.jobs:
        truth = model.truth_set(job.formula)
        answer: bool | list[frozenset[int]]
        if job.kind == "TRUE?":
            assert job.state is not None
            index = data._state_index(job.state)
            if index is None:
                raise SmcdelModelError(
                    f"state {state_text(job.state)} does not satisfy the LAW, so it is not a "
                    "state of this structure",
                    data.source,
                    job.state_line,
                    job.state_column,
                )
            answer = bool(truth[index])
        elif job.kind == "VALID?":
            answer = bool(truth.all())
        else:
            answer = [frozenset(states[i]) for i in np.flatnonzero(truth)]
        results.append(JobResult(job.kind, job.line, job.text, job.formula, job.state, answer))
    return results
