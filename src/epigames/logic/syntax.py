"""The project's formula syntax: a parser with caret errors and the printer `str()` uses.

The grammar, loosest binding first (all binary operators are infix)::

    formula  := iff
    iff      := implies (('<->' | '↔' | 'iff') implies)*          left-assoc
    implies  := or (('->' | '→') implies)?                          right-assoc
    or       := and (('|' | '∨' | 'or') and)*                       n-ary
    and      := unary (('&' | '∧' | 'and') unary)*                  n-ary
    unary    := ('~' | '¬' | 'not') unary
              | K_a unary | Kw_a unary | M_a unary
              | E_G unary | C_G unary | D_G unary | Ew_G … | Cw_G … | Dw_G …
              | '[' [agents] ['?'] '!' formula ']' unary            box announcements
              | '<' [agents] ['?'] '!' formula '>' unary            diamonds (also ⟨ ⟩)
              | ('forall' | 'exists') '{' atoms '}' unary
              | ('and' | 'or' | 'xor' | 'oneof') '(' [formula (',' formula)*] ')'
              | 'top' | 'true' | '⊤' | 'bot' | 'false' | '⊥'
              | atom | '(' formula ')'
    atom     := identifier | digits | '"' text '"'
    a        := agent name (identifier characters) | '{' name '}'
    G        := agent name | '{' name (',' name)* '}'

A formula may nest at most `MAX_DEPTH` levels: the parser counts parentheses and
prefix operators as it descends, and checks the finished tree's depth. Both the parser
and the model checker recurse once (or a few times) per level, so the limit keeps them
far from Python's recursion limit; deeper input is a FormulaSyntaxError, never a
RecursionError.

See docs/logic.md for the user's guide.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from epigames.errors import FormulaSyntaxError, line_and_column
from epigames.logic.formula import (
    And,
    Announce,
    Atom,
    Bot,
    C,
    Connective,
    Cw,
    D,
    Dw,
    E,
    Ew,
    Exists,
    Forall,
    Formula,
    GroupKnowledge,
    Iff,
    Implies,
    K,
    Knowledge,
    Kw,
    M,
    Not,
    OneOf,
    Or,
    Quantified,
    Top,
    Xor,
    install_renderers,
)

KEYWORDS = frozenset(
    {"not", "and", "or", "iff", "xor", "oneof", "top", "true", "bot", "false", "forall", "exists"}
)
_AGENT_OPS: dict[str, Callable[[str, Formula], Formula]] = {"K": K, "Kw": Kw, "M": M}
_GROUP_OPS: dict[str, Callable[[tuple[str, ...], Formula], Formula]] = {
    "E": E,
    "C": C,
    "D": D,
    "Ew": Ew,
    "Cw": Cw,
    "Dw": Dw,
}
_NARY: dict[str, type[And] | type[Or] | type[Xor] | type[OneOf]] = {
    "and": And,
    "or": Or,
    "xor": Xor,
    "oneof": OneOf,
}
#: The deepest nesting a parsed formula may have (operators on a path from the root, and
#: parentheses). The model checker uses about three stack frames per level (evaluation,
#: hashing for its memo), so this keeps a check well inside Python's default limit of
#: 1000 frames even when it starts deep in a web server's stack.
MAX_DEPTH = 100

_IDENT = re.compile(r"[^\W\d]\w*|\d+")
_NAME = re.compile(r"\w+")
_MODAL = re.compile(r"(Kw|K|M|Ew|Cw|Dw|E|C|D)_")

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<unterminated>")
  | (?P<noagent>(?:Kw|K|M|Ew|Cw|Dw|E|C|D)_(?![\w{]))
  | (?P<op><->|->|<=>|=>|[()\[\]{}<>,!?~&|¬∧∨→↔⟨⟩⊤⊥])
  | (?P<modal>(?:Kw|K|M|Ew|Cw|Dw|E|C|D)_(?:\w+|\{))
  | (?P<ident>[^\W\d]\w*|\d+)
    """,
    re.VERBOSE | re.DOTALL,
)

# Unicode and alternative spellings mapped to one canonical token value.
_CANON = {
    "¬": "~", "not": "~",
    "∧": "&", "and": "&",
    "∨": "|", "or": "|",
    "→": "->", "=>": "->",
    "↔": "<->", "<=>": "<->", "iff": "<->",
    "⟨": "<", "⟩": ">",
    "⊤": "top", "true": "top",
    "⊥": "bot", "false": "bot",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Token:
    """One lexical token with its position (0-based offset into the source)."""

    kind: str  # "op", "modal", "ident", "str", "eof"
    value: str
    raw: str
    pos: int


def _error(text: str, pos: int, message: str, expected: str = "") -> FormulaSyntaxError:
    line, col = line_and_column(text, pos)
    return FormulaSyntaxError(message, text, line, col, expected)


def depth_error(text: str, pos: int, depth: int, exact: bool = True) -> FormulaSyntaxError:
    """The error for a formula nesting `depth` levels (at least, unless `exact`)."""
    how = f"{depth}" if exact else f"at least {depth}"
    return _error(text, pos, f"formula nests {how} levels deep; the limit is {MAX_DEPTH}")


def formula_depth(f: Formula) -> int:
    """The number of operators on the longest path from the root (0 for an atom).

    Iterative, so it measures formulas of any depth (built in Python, say) safely.
    """
    deepest = 0
    stack: list[tuple[Formula, int]] = [(f, 0)]
    while stack:
        node, depth = stack.pop()
        children = node.children()
        if children:
            stack.extend((c, depth + 1) for c in children)
        deepest = max(deepest, depth)
    return deepest


def tokenize(text: str) -> list[Token]:
    """Split the source into tokens; an unknown character raises FormulaSyntaxError."""
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise _error(text, pos, f"unexpected character {text[pos]!r}", "a formula")
        kind = m.lastgroup or ""
        raw = m.group()
        if kind == "unterminated":
            raise _error(text, pos, "unterminated quoted name", 'a closing "')
        if kind == "noagent":
            raise _error(
                text,
                m.end(),
                f"{raw} needs an agent",
                f"an agent name, as in {raw}a or {raw}{{name}}",
            )
        if kind == "str":
            tokens.append(Token("str", _unquote(raw), raw, pos))
        elif kind == "ident":
            value = _CANON.get(raw, raw)
            is_op = value != raw or raw in KEYWORDS
            tokens.append(Token("op" if is_op else "ident", value, raw, pos))
        elif kind == "op":
            tokens.append(Token("op", _CANON.get(raw, raw), raw, pos))
        elif kind == "modal":
            tokens.append(Token("modal", raw, raw, pos))
        pos = m.end()
    tokens.append(Token("eof", "", "", len(text)))
    return tokens


def _unquote(raw: str) -> str:
    return re.sub(r"\\(.)", r"\1", raw[1:-1], flags=re.DOTALL)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0
        # Parentheses and prefix operators the parser is inside now (see `MAX_DEPTH`).
        self.depth = 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def enter(self, t: Token, levels: int = 1) -> None:
        """Go `levels` deeper at token `t`; past `MAX_DEPTH`, fail before recursing."""
        self.depth += levels
        if self.depth > MAX_DEPTH:
            # The parser stops here, so name how deep the text goes at least: count the
            # run of `~` and `(` that follows (the usual shape of such input).
            k = self.tokens.index(t) + 1
            while self.tokens[k].kind == "op" and self.tokens[k].value in ("~", "("):
                k += 1
            run = k - self.tokens.index(t) - 1
            raise depth_error(self.text, t.pos, self.depth + run, exact=False)

    def leave(self, levels: int = 1) -> None:
        self.depth -= levels

    def peek(self, k: int = 1) -> Token:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def at(self, value: str) -> bool:
        return self.tok.kind == "op" and self.tok.value == value

    def advance(self) -> Token:
        t = self.tok
        self.i += 1
        return t

    def fail(self, expected: str, tok: Token | None = None) -> FormulaSyntaxError:
        t = tok or self.tok
        found = "end of input" if t.kind == "eof" else repr(t.raw)
        return _error(self.text, t.pos, f"unexpected {found}", expected)

    def expect(self, value: str) -> Token:
        if not self.at(value):
            raise self.fail(repr(value))
        return self.advance()

    def parse(self) -> Formula:
        if self.tok.kind == "eof":
            raise self.fail("a formula")
        f = self.iff()
        if self.tok.kind != "eof":
            raise self.fail("an operator (&, |, ->, <->) or the end of the formula")
        depth = formula_depth(f)
        if depth > MAX_DEPTH:
            raise depth_error(self.text, 0, depth)
        return f

    def iff(self) -> Formula:
        f = self.implies()
        chain = 0
        while self.at("<->"):
            # Each `<->` nests the chain so far one level deeper (left-assoc).
            self.enter(self.advance())
            chain += 1
            f = Iff(f, self.implies())
        self.leave(chain)
        return f

    def implies(self) -> Formula:
        f = self.disjunction()
        if self.at("->"):
            self.enter(self.advance())
            f = Implies(f, self.implies())
            self.leave()
        return f

    def disjunction(self) -> Formula:
        args = [self.conjunction()]
        while self.at("|"):
            self.advance()
            args.append(self.conjunction())
        return args[0] if len(args) == 1 else Or(tuple(args))

    def conjunction(self) -> Formula:
        args = [self.unary()]
        while self.at("&"):
            self.advance()
            args.append(self.unary())
        return args[0] if len(args) == 1 else And(tuple(args))

    def unary(self) -> Formula:
        t = self.tok
        if t.kind == "eof":
            raise self.fail("a formula")
        if t.kind == "ident":
            self.advance()
            return Atom(t.value)
        if t.kind == "str":
            self.advance()
            if not t.value:
                raise _error(self.text, t.pos, "an atom needs a name", "a non-empty quoted name")
            return Atom(t.value)
        if t.kind == "modal":
            return self.modal()
        v = t.value
        if v in ("&", "|") and t.raw in ("and", "or") and self.peek().value == "(":
            return self.nary(t.raw)
        if v in ("xor", "oneof"):
            return self.nary(v)
        if v == "~":
            self.enter(self.advance())
            f: Formula = Not(self.unary())
            self.leave()
            return f
        if v == "top":
            self.advance()
            return Top()
        if v == "bot":
            self.advance()
            return Bot()
        if v == "(":
            self.enter(self.advance())
            f = self.iff()
            self.expect(")")
            self.leave()
            return f
        if v in ("[", "<"):
            self.enter(t)
            f = self.announcement()
            self.leave()
            return f
        if v in ("forall", "exists"):
            self.enter(self.advance())
            names = self.braced_names(atoms=True)
            cls = Forall if v == "forall" else Exists
            f = cls(names, self.unary())
            self.leave()
            return f
        raise self.fail("a formula (an atom, ~, K_a, [!…], a parenthesis, …)")

    def nary(self, word: str) -> Formula:
        self.enter(self.advance())
        self.expect("(")
        args: list[Formula] = []
        if not self.at(")"):
            args.append(self.iff())
            while self.at(","):
                self.advance()
                args.append(self.iff())
        self.expect(")")
        self.leave()
        return _NARY[word](tuple(args))

    def modal(self) -> Formula:
        t = self.advance()
        self.enter(t)
        op, rest = t.raw.split("_", 1)
        if rest == "{":
            self.i -= 1  # re-read the brace as a name list
            self.tokens[self.i] = Token("op", "{", "{", t.pos + len(op) + 1)
            names = self.braced_names(atoms=False)
        else:
            names = (rest,)
        if op in _AGENT_OPS:
            if len(names) != 1:
                raise _error(self.text, t.pos, f"{op}_ takes one agent", f"{op}_name")
            f = _AGENT_OPS[op](names[0], self.unary())
        else:
            f = _GROUP_OPS[op](names, self.unary())
        self.leave()
        return f

    def name(self, atoms: bool) -> str:
        t = self.tok
        if t.kind == "ident" or (t.kind == "str" and t.value):
            self.advance()
            return t.value
        raise self.fail("an atom name" if atoms else "an agent name")

    def braced_names(self, atoms: bool) -> tuple[str, ...]:
        self.expect("{")
        names = [self.name(atoms)]
        while self.at(","):
            self.advance()
            names.append(self.name(atoms))
        self.expect("}")
        return tuple(names)

    def announcement(self) -> Formula:
        opener = self.advance()
        diamond = opener.value == "<"
        closer = ">" if diamond else "]"
        group: tuple[str, ...] | None = None
        if not (self.at("!") or self.at("?")):
            names = [self.name(atoms=False)]
            while self.at(","):
                self.advance()
                names.append(self.name(atoms=False))
            group = tuple(names)
        whether = False
        if self.at("?"):
            self.advance()
            whether = True
        if not self.at("!"):
            raise self.fail("'!' (an announcement is written [!φ]ψ, [?!φ]ψ or [a,b!φ]ψ)")
        self.advance()
        pre = self.iff()
        if not self.at(closer):
            raise self.fail(repr(closer))
        self.advance()
        return Announce(pre, self.unary(), group, whether, diamond)


def parse(text: str) -> Formula:
    """Parse a formula in the project's syntax.

    Raises:
        FormulaSyntaxError: with line, column, a caret under the spot and what was expected;
            also for a formula nesting deeper than `MAX_DEPTH` levels.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse() takes a string, got {type(text).__name__}")
    return _Parser(text).parse()


# --- printing -------------------------------------------------------------------------

_PREC_IFF, _PREC_IMPLIES, _PREC_OR, _PREC_AND, _PREC_UNARY = range(5)


def _prec(f: Formula) -> int:
    if isinstance(f, Iff):
        return _PREC_IFF
    if isinstance(f, Implies):
        return _PREC_IMPLIES
    if isinstance(f, Or) and len(f.args) >= 2:
        return _PREC_OR
    if isinstance(f, And) and len(f.args) >= 2:
        return _PREC_AND
    return _PREC_UNARY


def atom_text(name: str) -> str:
    """An atom name as it must be typed: bare when that parses back, quoted otherwise."""
    if _IDENT.fullmatch(name) and name not in KEYWORDS and not _MODAL.match(name):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _group_text(group: tuple[str, ...]) -> str:
    return "{" + ",".join(atom_text(a) for a in group) + "}"


def _wrap(f: Formula, min_prec: int) -> str:
    s = to_text(f)
    return f"({s})" if _prec(f) < min_prec else s


def to_text(f: Formula) -> str:
    """The formula in the project's syntax; `parse(to_text(f)) == f`."""
    if isinstance(f, Top):
        return "top"
    if isinstance(f, Bot):
        return "bot"
    if isinstance(f, Atom):
        return atom_text(f.name)
    if isinstance(f, Not):
        return "~" + _wrap(f.arg, _PREC_UNARY)
    if isinstance(f, And) and len(f.args) >= 2:
        return " & ".join(_wrap(a, _PREC_AND + 1) for a in f.args)
    if isinstance(f, Or) and len(f.args) >= 2:
        return " | ".join(_wrap(a, _PREC_OR + 1) for a in f.args)
    if isinstance(f, (And, Or, Xor, OneOf)):
        word = {And: "and", Or: "or", Xor: "xor", OneOf: "oneof"}[type(f)]
        return f"{word}(" + ", ".join(to_text(a) for a in f.args) + ")"
    if isinstance(f, Implies):
        return f"{_wrap(f.left, _PREC_IMPLIES + 1)} -> {_wrap(f.right, _PREC_IMPLIES)}"
    if isinstance(f, Iff):
        return f"{_wrap(f.left, _PREC_IFF)} <-> {_wrap(f.right, _PREC_IFF + 1)}"
    if isinstance(f, Knowledge):
        agent = f.agent if _NAME.fullmatch(f.agent) else "{" + atom_text(f.agent) + "}"
        return f"{f.symbol}_{agent} {_wrap(f.arg, _PREC_UNARY)}"
    if isinstance(f, GroupKnowledge):
        return f"{f.symbol}_{_group_text(f.group)} {_wrap(f.arg, _PREC_UNARY)}"
    if isinstance(f, Announce):
        group = ",".join(atom_text(a) for a in f.group) if f.group is not None else ""
        inner = f"{group}{'?' if f.whether else ''}!{to_text(f.pre)}"
        box = f"<{inner}>" if f.diamond else f"[{inner}]"
        return f"{box} {_wrap(f.post, _PREC_UNARY)}"
    if isinstance(f, Quantified):
        names = "{" + ",".join(atom_text(v) for v in f.variables) + "}"
        return f"{f.keyword} {names} {_wrap(f.arg, _PREC_UNARY)}"
    if isinstance(f, Connective):  # pragma: no cover - every connective is handled above
        raise TypeError(f"unprintable connective {f!r}")
    raise TypeError(f"not a formula: {f!r}")


# `str()` and `Formula.parse` call these (formula.py cannot import this module: it imports formula).
install_renderers(text=to_text, parse=parse)
