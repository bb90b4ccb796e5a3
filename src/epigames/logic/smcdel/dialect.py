"""SMCDEL's formula syntax as a dialect of the engine's one lexer and parser.

`epigames.logic.syntax` holds the machinery (`tokenize`, `FormulaParser`); this module
gives it SMCDEL's tokens (numbers for atoms, `--` comments, keywords such as `Top`,
`AND`, `knows that`) and the prefixes only SMCDEL has: `K a φ`, `a knows whether φ`,
`(a,b) comknow that φ`, `Forall 1,2 φ`.

Where SMCDEL's grammar (a yacc grammar with precedences) reads differently from the
project's syntax, this dialect reads as SMCDEL does: `->` and `iff` are one level,
grouping to the left (`1 -> 2 -> 3` is `(1 -> 2) -> 3`, `1 iff 2 -> 3` is
`(1 iff 2) -> 3`), and so are `&` and `|` (`1 | 2 & 3` is `(1 | 2) & 3`); `K a`,
`Kw a`, `Forall` and `Exists` have no precedence there, so their argument reaches as far
as it can (`K a 1 & 2` is `K a (1 & 2)`), while `a knows that`, `comknow`, `~` and
announcements take the smallest formula after them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from epigames.logic import formula as fm
from epigames.logic.smcdel.errors import SmcdelModelError, SmcdelUnknownAgentError
from epigames.logic.syntax import Dialect, FormulaParser, Token

__all__ = ["SMCDEL", "SmcdelFormulaParser", "parse_smcdel_formula"]

# The line breaks of str.splitlines(), which the caret rendering uses to find the line.
BREAK = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"

_TOKEN = re.compile(
    rf"""
    (?P<ws>(?:\s+|--[^{BREAK}]*)+)
  | (?P<infix>(?:knows|comknow|distknow)\s+(?:that|whether)(?![A-Za-z0-9]))
  | (?P<job>(?:TRUE|VALID|WHERE)\?)
  | (?P<word>[A-Za-z][A-Za-z0-9]*)
  | (?P<int>[0-9]+)
  | (?P<op>->|[→:,()\[\]{{}}<>!?~¬&∧|∨])
    """,
    re.VERBOSE,
)
# Keywords and symbols mapped to the canonical values the shared parser knows.
_CANON = {
    "VARS": "VARS", "LAW": "LAW", "OBS": "OBS", "Top": "top", "Bot": "bot",
    "Not": "~", "not": "~", "iff": "<->", "AND": "and", "OR": "or", "XOR": "xor",
    "ONEOF": "oneof", "Forall": "forall", "ForAll": "forall", "Exists": "exists",
    "K": "K", "Kw": "Kw", "→": "->", "¬": "~", "∧": "&", "∨": "|",
}  # fmt: skip
_GROUP_OPS: dict[str, Callable[[tuple[str, ...], fm.Formula], fm.Formula]] = {
    "comknow that": fm.C, "comknow whether": fm.Cw,
    "distknow that": fm.D, "distknow whether": fm.Dw,
}  # fmt: skip
_INFIX = {"knows that", "knows whether", *_GROUP_OPS}


class _SmcdelDialect(Dialect):
    pattern = _TOKEN
    unexpected = "a formula or a keyword"

    def token_for(self, kind: str, text: str, m: re.Match[str]) -> Token:
        raw, pos = m.group(), m.start()
        if kind == "infix":
            return Token("op", " ".join(raw.split()), raw, pos)
        if kind == "word" and raw not in _CANON:
            return Token("ident", raw, raw, pos)
        if kind == "int":
            return Token("int", raw, raw, pos)
        return Token("op", _CANON.get(raw, raw), raw, pos)


#: SMCDEL's lexical dialect, for `epigames.logic.syntax.tokenize`.
SMCDEL = _SmcdelDialect()


class SmcdelFormulaParser(FormulaParser):
    """SMCDEL's formulas; checks variables and agents when it is told them."""

    dialect = SMCDEL
    and_binds_tighter = False
    nary_needs_one = True
    after_formula = "an operator (&, |, ->, iff) or the end of the formula"
    announce_hint = "(announcements are [! φ] ψ, [?! φ] ψ or [a,b ! φ] ψ)"
    close_expected = "an operator or ')'"

    def __init__(
        self,
        text: str,
        variables: Iterable[int] | None = None,
        agents: Iterable[str] | None = None,
    ) -> None:
        super().__init__(text)
        self.variables = None if variables is None else frozenset(variables)
        self.agents = None if agents is None else tuple(agents)
        # In the LAW: a modality is a model error (SMCDEL's LAW is Boolean).
        self.boolean_only = False
        self.declared: set[int] = set()

    def model_error(self, message: str, tok: Token) -> SmcdelModelError:
        line, col = self.where(tok)
        return SmcdelModelError(message, self.text, line, col)

    # variables

    def int_list(self, declare: bool = False) -> list[int]:
        values = [self.variable(declare)]
        while self.at(","):
            self.advance()
            values.append(self.variable(declare))
        return values

    def variable(self, declare: bool = False) -> int:
        t = self.tok
        if t.kind != "int":
            raise self.fail("a variable (a number)")
        self.advance()
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

    # agents

    def allow_modality(self, what: str, tok: Token) -> None:
        if self.boolean_only:
            raise self.model_error(f"the LAW must be a Boolean formula, but it uses {what}", tok)

    def agent(self, tok: Token) -> str:
        if tok.kind != "ident":
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

    def paren_is_prefix(self) -> bool:
        """Whether the tokens from here are `( a, b, … ) comknow/distknow …`."""
        k = 1
        while True:
            if self.peek(k).kind != "ident":
                return False
            nxt = self.peek(k + 1)
            if nxt.kind == "op" and nxt.value == ")":
                after = self.peek(k + 2)
                return after.kind == "op" and after.value in _GROUP_OPS
            if not (nxt.kind == "op" and nxt.value == ","):
                return False
            k += 2

    # the grammar

    def formula(self) -> fm.Formula:
        """`->` and `iff` at one level, grouping to the left, as in SMCDEL's grammar."""
        f = self.boolean()
        levels = 0
        while self.at("->") or self.at("<->"):
            op = self.advance()
            # Each operator nests the chain so far one level deeper (left-assoc).
            self.enter(op)
            levels += 1
            g = self.boolean()
            f = fm.Implies(f, g) if op.value == "->" else fm.Iff(f, g)
        self.leave(levels)
        return f

    def quantified(self) -> fm.Formula:
        """`Forall 1,2 φ`: φ reaches as far as it can (no precedence in SMCDEL's grammar)."""
        cls = fm.Forall if self.advance().value == "forall" else fm.Exists
        names = self.quantified_variables()
        return cls(names, self.formula())

    def atomic(self) -> fm.Formula | None:
        t = self.tok
        if t.kind == "int":
            return fm.Atom(str(self.variable()))
        if self.at("top") or self.at("bot"):
            self.advance()
            return fm.Top() if t.value == "top" else fm.Bot()
        return None

    def prefixed(self) -> fm.Formula:
        t = self.tok
        if t.kind == "ident":
            return self.infix()
        if t.kind != "op":
            raise self.fail("a formula (a number, Top, ~, K, 'a knows that', [!…], '(' …)")
        v = t.value
        if v == "~":
            return self.negation()
        if v in ("and", "or", "xor", "oneof"):
            return self.nary(v)
        if v in ("K", "Kw"):
            self.advance()
            self.allow_modality(f"'{t.raw}'", t)
            agent = self.agent(self.advance())
            # No precedence in SMCDEL's grammar: the argument reaches as far as it can.
            arg = self.formula()
            return fm.K(agent, arg) if v == "K" else fm.Kw(agent, arg)
        if v == "(":  # a group, as `unary` saw (it reads other parentheses itself)
            self.advance()
            group = self.agent_list()
            self.advance()  # the ")" that paren_is_prefix saw
            return self.group_modal(group)
        if v in ("[", "<"):
            return self.announcement()
        if v in ("forall", "exists"):
            return self.quantified()
        raise self.fail("a formula (a number, Top, ~, K, 'a knows that', [!…], '(' …)")

    def announcement_group(self) -> tuple[str, ...] | None:
        return self.agent_list() if self.tok.kind == "ident" else None

    def quantified_variables(self) -> tuple[str, ...]:
        return tuple(str(v) for v in self.int_list())

    def infix(self) -> fm.Formula:
        name = self.tok
        op = self.peek()
        if not (op.kind == "op" and op.value in _INFIX):
            raise self.fail(
                "'knows that', 'knows whether', 'comknow that|whether' or "
                "'distknow that|whether' after an agent name (atoms are numbers)",
                op,
            )
        self.allow_modality(f"'{op.raw}'", op)
        self.advance()
        if op.value in _GROUP_OPS:
            # A single agent without parentheses: `alice comknow that φ`.
            return self.group_modal((self.agent(name),))
        agent = self.agent(name)
        self.advance()
        if op.value == "knows that":
            return fm.K(agent, self.unary())
        if self.at("(") and not self.paren_is_prefix():
            # `a knows whether (φ1, φ2, …)`: a knows whether each of them.
            self.advance()
            args = [self.formula()]
            while self.at(","):
                self.advance()
                args.append(self.formula())
            self.expect(")", "',' or ')'")
            if len(args) == 1:
                return fm.Kw(agent, args[0])
            return fm.And(tuple(fm.Kw(agent, a) for a in args))
        return fm.Kw(agent, self.unary())

    def group_modal(self, group: tuple[str, ...]) -> fm.Formula:
        op = self.tok
        if not (op.kind == "op" and op.value in _GROUP_OPS):
            raise self.fail("'comknow that|whether' or 'distknow that|whether'")
        self.allow_modality(f"'{op.raw}'", op)
        self.advance()
        return _GROUP_OPS[op.value](group, self.unary())


def parse_smcdel_formula(
    text: str,
    variables: Iterable[int] | None = None,
    agents: Iterable[str] | None = None,
) -> fm.Formula:
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
    p = SmcdelFormulaParser(text, variables, agents)
    return p.whole(p.tok.pos)
