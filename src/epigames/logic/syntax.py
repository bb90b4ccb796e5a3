"""The formula lexer and parser (one for every dialect), our syntax, and its printer.

`tokenize` and `FormulaParser` are the machinery; a `Dialect` gives the tokens, a parser
subclass its atoms and modalities. The project's own syntax (`parse`) is one dialect,
SMCDEL's (`epigames.logic.smcdel.dialect`) the other. `to_text` prints for `str()`.

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
from dataclasses import dataclass
from typing import ClassVar

from epigames.errors import FormulaSyntaxError, line_and_column
from epigames.logic import formula as fm
from epigames.logic.formula import Formula, install_renderers

KEYWORDS = frozenset(
    {"not", "and", "or", "iff", "xor", "oneof", "top", "true", "bot", "false", "forall", "exists"}
)
_AGENT_OPS: dict[str, type[fm.Knowledge]] = {op.symbol: op for op in (fm.K, fm.Kw, fm.M)}
_GROUP_OPS: dict[str, type[fm.GroupKnowledge]] = {
    op.symbol: op for op in (fm.E, fm.C, fm.D, fm.Ew, fm.Cw, fm.Dw)
}
_NARY: dict[str, type[fm.NAry]] = {op.word: op for op in (fm.And, fm.Or, fm.Xor, fm.OneOf)}
#: The deepest nesting a parsed formula may have (operators on a path from the root, and
#: parentheses). The model checker uses about three stack frames per level (evaluation,
#: hashing for its memo), so this keeps a check well inside Python's default limit of
#: 1000 frames even when it starts deep in a web server's stack.
MAX_DEPTH = 100


# --- the machinery every dialect shares -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Token:
    """One lexical token with its position (0-based offset into the source).

    `kind` is "op" (an operator, keyword or punctuation, canonical in `value`), "modal"
    (`K_a`, `C_{`), "ident" (a name), "int" (a number, where the dialect tells numbers
    from names), "str" (a quoted name, unquoted in `value`) or "eof".
    """

    kind: str
    value: str
    raw: str
    pos: int

    @property
    def end(self) -> int:
        """The offset just after the token."""
        return self.pos + len(self.raw)


class Dialect:
    """A formula language for `tokenize`: its token pattern and how matches become tokens.

    `pattern` is tried at each position; a match of its group `ws` (whitespace, comments)
    gives no token, any other group's `token_for` gives one or raises FormulaSyntaxError;
    text it does not match is an unexpected character, reported as such with `unexpected`
    as what was expected.
    """

    pattern: re.Pattern[str]
    unexpected: str = "a formula"

    def token(self, text: str, m: re.Match[str]) -> Token | None:
        """The token for the match `m`, None for whitespace and comments."""
        kind = m.lastgroup or ""
        return None if kind == "ws" else self.token_for(kind, text, m)

    def token_for(self, kind: str, text: str, m: re.Match[str]) -> Token:
        """The token for the match `m` of the group `kind` (the dialect names its groups)."""
        raise NotImplementedError


def tokenize(text: str, dialect: Dialect | None = None) -> list[Token]:
    """Split the source into tokens, ending with "eof"; the project's syntax by default.

    Raises:
        FormulaSyntaxError: an unexpected character (or what the dialect rejects).
    """
    rules = _PROJECT if dialect is None else dialect
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        m = rules.pattern.match(text, pos)
        if m is None:
            raise syntax_error(text, pos, f"unexpected character {text[pos]!r}", rules.unexpected)
        tok = rules.token(text, m)
        if tok is not None:
            tokens.append(tok)
        pos = m.end()
    tokens.append(Token("eof", "", "", len(text)))
    return tokens


def syntax_error(text: str, pos: int, message: str, expected: str = "") -> FormulaSyntaxError:
    """A FormulaSyntaxError at offset `pos` of `text`."""
    line, col = line_and_column(text, pos)
    return FormulaSyntaxError(message, text, line, col, expected)


def depth_error(text: str, pos: int, depth: int, exact: bool = True) -> FormulaSyntaxError:
    """The error for a formula nesting `depth` levels (at least, unless `exact`)."""
    how = f"{depth}" if exact else f"at least {depth}"
    return syntax_error(text, pos, f"formula nests {how} levels deep; the limit is {MAX_DEPTH}")


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


class FormulaParser:
    """Recursive descent over a dialect's tokens: the grammar every dialect shares.

    Shared: the token cursor, errors with a caret, the depth limit, `<->` (left-assoc),
    `->` (right-assoc), `&` and `|` (n-ary), parentheses, negation, the n-ary forms,
    announcements and quantifiers. A dialect subclass sets `dialect` and the few hints
    below, and writes `atomic` and `prefixed`: what an atom and a modality look like.
    """

    dialect: ClassVar[Dialect]
    #: Whether `&` binds tighter than `|` (else they are one level, grouping to the left).
    and_binds_tighter: ClassVar[bool] = True
    #: What may follow a complete formula when something else does.
    after_formula: ClassVar[str] = "an operator (&, |, ->, <->) or the end of the formula"
    #: The hint when an announcement lacks its `!`.
    announce_hint: ClassVar[str] = "(an announcement is written [!φ]ψ, [?!φ]ψ or [a,b!φ]ψ)"

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text, self.dialect)
        self.i = 0
        # Parentheses and prefix operators the parser is inside now (see `MAX_DEPTH`).
        self.depth = 0

    # the cursor and errors

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def at(self, value: str) -> bool:
        """Whether the current token is the operator (or keyword) `value`."""
        return self.tok.kind == "op" and self.tok.value == value

    def advance(self) -> Token:
        t = self.tok
        self.i += 1
        return t

    def where(self, tok: Token) -> tuple[int, int]:
        return line_and_column(self.text, tok.pos)

    def error(self, message: str, tok: Token, expected: str = "") -> FormulaSyntaxError:
        return syntax_error(self.text, tok.pos, message, expected)

    def fail(self, expected: str, tok: Token | None = None) -> FormulaSyntaxError:
        t = tok or self.tok
        found = "end of input" if t.kind == "eof" else repr(t.raw)
        return self.error(f"unexpected {found}", t, expected)

    def expect(self, value: str, expected: str = "") -> Token:
        if not self.at(value):
            raise self.fail(expected or repr(value))
        return self.advance()

    # the depth limit

    def enter(self, t: Token, levels: int = 1) -> None:
        """Go `levels` deeper at token `t`; past `MAX_DEPTH`, fail before recursing."""
        self.depth += levels
        if self.depth > MAX_DEPTH:
            # The parser stops here, so name how deep the text goes at least: count the
            # run of `~` and `(` that follows (the usual shape of such input).
            k = start = self.tokens.index(t) + 1
            while self.tokens[k].kind == "op" and self.tokens[k].value in ("~", "("):
                k += 1
            raise depth_error(self.text, t.pos, self.depth + k - start, exact=False)

    def leave(self, levels: int = 1) -> None:
        self.depth -= levels

    def checked(self, f: Formula, pos: int) -> Formula:
        """`f`, unless its tree is deeper than `MAX_DEPTH` (the model checker recurses)."""
        depth = formula_depth(f)
        if depth > MAX_DEPTH:
            raise depth_error(self.text, pos, depth)
        return f

    def whole(self, pos: int = 0) -> Formula:
        """The text from here to the end as one formula (depth errors point at `pos`)."""
        if self.tok.kind == "eof":
            raise self.fail("a formula")
        f = self.formula()
        if self.tok.kind != "eof":
            raise self.fail(self.after_formula)
        return self.checked(f, pos)

    # the shared grammar

    def formula(self) -> Formula:
        """`φ -> ψ` under `φ <-> ψ` (left-assoc): one frame for both.

        A second `->` in a chain, or a `->` after `<->` (`p -> q -> r`, `p <-> q -> r`),
        is refused: tools group these differently (SMCDEL's files read them to the left,
        most texts `p -> q -> r` to the right), so they need parentheses. Loops instead
        of one method per level, so that a parenthesis costs few stack frames. The depth
        counts as if nested: each `<->` holds a level to the end of the chain, each `->`
        one until its implication is complete.
        """
        f: Formula | None = None
        chain = 0
        while True:
            parts = [self.boolean()]
            arrows = 0
            while self.at("->"):
                if arrows or chain:
                    raise self.ambiguous_arrow(after="->" if arrows else "<->")
                self.enter(self.advance())
                arrows += 1
                parts.append(self.boolean())
            self.leave(arrows)
            g = parts.pop()
            while parts:
                g = fm.Implies(parts.pop(), g)
            f = g if f is None else fm.Iff(f, g)
            if not self.at("<->"):
                break
            # Each `<->` nests the chain so far one level deeper (left-assoc).
            self.enter(self.advance())
            chain += 1
        self.leave(chain)
        return f

    def ambiguous_arrow(self, after: str) -> FormulaSyntaxError:
        """The error for a `->` after another `->` or after `<->` in one chain."""
        if after == "->":
            message = (
                "'->' after '->' needs parentheses: write p -> (q -> r) or (p -> q) -> r "
                "(SMCDEL's files read p -> q -> r as the second, most texts as the first)"
            )
        else:
            message = (
                "'->' after '<->' needs parentheses: write p <-> (q -> r) or (p <-> q) -> r "
                "(SMCDEL's files read p iff q -> r as the second)"
            )
        return self.error(message, self.tok, "parentheses")

    def boolean(self) -> Formula:
        """`&` and `|` chains, n-ary: `&` binding tighter, or one level to the left.

        On one level (SMCDEL's `%left '|' '&'`), `1 | 2 & 3` is `(1 | 2) & 3`: a run of
        one operator is one n-ary node, and the next run takes it as its first argument.
        """
        if self.and_binds_tighter:
            args = [self.conjunction()]
            while self.at("|"):
                self.advance()
                args.append(self.conjunction())
            return args[0] if len(args) == 1 else fm.Or(tuple(args))
        args = [self.unary()]
        op = ""
        while self.at("&") or self.at("|"):
            if op and self.tok.value != op:
                args = [fm.And(tuple(args)) if op == "&" else fm.Or(tuple(args))]
            op = self.advance().value
            args.append(self.unary())
        if not op:
            return args[0]
        return fm.And(tuple(args)) if op == "&" else fm.Or(tuple(args))

    def conjunction(self) -> Formula:
        args = [self.unary()]
        while self.at("&"):
            self.advance()
            args.append(self.unary())
        return args[0] if len(args) == 1 else fm.And(tuple(args))

    def unary(self) -> Formula:
        """A formula without a binary operator outside parentheses; prefixes nest a level."""
        t = self.tok
        atom = self.atomic()
        if atom is not None:
            return atom
        self.enter(t)
        if self.at("(") and not self.paren_is_prefix():
            # Inline rather than a method: parentheses nest deepest, so save frames.
            self.advance()
            f = self.formula()
            self.expect(")", self.close_expected)
        else:
            f = self.prefixed()
        self.leave()
        return f

    #: What is expected where a parenthesised formula lacks its `)`.
    close_expected: ClassVar[str] = "')'"

    def paren_is_prefix(self) -> bool:
        """Whether the `(` here starts a prefix (a group, say) rather than a subformula."""
        return False

    def atomic(self) -> Formula | None:
        """An atom, ⊤ or ⊥ (consumed), or None when a prefixed formula starts here."""
        raise NotImplementedError

    def prefixed(self) -> Formula:
        """A formula that starts with a prefix operator or a parenthesis."""
        raise NotImplementedError

    def negation(self) -> Formula:
        self.advance()
        return fm.Not(self.unary())

    def nary(self, word: str) -> Formula:
        """`and(φ, …)`, `or(…)`, `xor(…)`, `oneof(…)` (the word is the current token)."""
        t = self.advance()
        self.expect("(", f"'(' after {t.raw}")
        args: list[Formula] = []
        if self.nary_needs_one or not self.at(")"):
            args.append(self.formula())
            while self.at(","):
                self.advance()
                args.append(self.formula())
        self.expect(")", "',' or ')'")
        return _NARY[word](tuple(args))

    #: Whether the n-ary forms need at least one argument (`and()` is ⊤ where they do not).
    nary_needs_one: ClassVar[bool] = False

    def announcement(self) -> Formula:
        """`[G?!φ]ψ` or `<G?!φ>ψ`, the group and `?` optional (the opener is current)."""
        opener = self.advance()
        self.allow_modality("an announcement", opener)
        diamond = opener.value == "<"
        closer = ">" if diamond else "]"
        group = self.announcement_group()
        whether = False
        if self.at("?"):
            self.advance()
            whether = True
        if not self.at("!"):
            raise self.fail("'!' " + self.announce_hint)
        self.advance()
        pre = self.formula()
        self.expect(closer, f"an operator or {closer!r}")
        return fm.Announce(pre, self.unary(), group, whether, diamond)

    def announcement_group(self) -> tuple[str, ...] | None:
        """The agents before `?!` or `!` in an announcement, None for a public one."""
        raise NotImplementedError

    def quantified(self) -> Formula:
        """`forall VARS φ` or `exists VARS φ` (the keyword is current)."""
        cls = fm.Forall if self.advance().value == "forall" else fm.Exists
        names = self.quantified_variables()
        return cls(names, self.unary())

    def quantified_variables(self) -> tuple[str, ...]:
        raise NotImplementedError

    def allow_modality(self, what: str, tok: Token) -> None:
        """Hook: raise if a modality (`what`, at `tok`) is not allowed here."""


# --- the project's dialect --------------------------------------------------------------

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


class _ProjectDialect(Dialect):
    pattern = _TOKEN

    def token_for(self, kind: str, text: str, m: re.Match[str]) -> Token:
        raw, pos = m.group(), m.start()
        if kind == "unterminated":
            raise syntax_error(text, pos, "unterminated quoted name", 'a closing "')
        if kind == "noagent":
            raise syntax_error(
                text,
                m.end(),
                f"{raw} needs an agent",
                f"an agent name, as in {raw}a or {raw}{{name}}",
            )
        if kind == "str":
            return Token("str", _unquote(raw), raw, pos)
        if kind == "ident":
            value = _CANON.get(raw, raw)
            is_op = value != raw or raw in KEYWORDS
            return Token("op" if is_op else "ident", value, raw, pos)
        if kind == "op":
            return Token("op", _CANON.get(raw, raw), raw, pos)
        return Token("modal", raw, raw, pos)


_PROJECT = _ProjectDialect()


def _unquote(raw: str) -> str:
    return re.sub(r"\\(.)", r"\1", raw[1:-1], flags=re.DOTALL)


class _Parser(FormulaParser):
    """The project's syntax (see the module docstring for the grammar)."""

    dialect = _PROJECT

    def atomic(self) -> Formula | None:
        t = self.tok
        if t.kind == "eof":
            raise self.fail("a formula")
        if t.kind == "ident":
            self.advance()
            return fm.Atom(t.value)
        if t.kind == "str":
            self.advance()
            if not t.value:
                raise self.error("an atom needs a name", t, "a non-empty quoted name")
            return fm.Atom(t.value)
        if t.kind == "op" and t.value in ("top", "bot"):
            self.advance()
            return fm.Top() if t.value == "top" else fm.Bot()
        if t.kind == "modal" or self.nary_word() or t.value in _PREFIXES:
            return None
        raise self.fail("a formula (an atom, ~, K_a, [!…], a parenthesis, …)")

    def nary_word(self) -> str | None:
        """`and`/`or` before `(`, `xor`, `oneof`: the n-ary form's word, else None."""
        t = self.tok
        if t.kind != "op":
            return None
        if t.value in ("&", "|") and t.raw in ("and", "or") and self.peek().value == "(":
            return t.raw
        return t.value if t.value in ("xor", "oneof") else None

    def prefixed(self) -> Formula:
        t = self.tok
        if t.kind == "modal":
            return self.modal()
        word = self.nary_word()
        if word is not None:
            return self.nary(word)
        if t.value == "~":
            return self.negation()
        if t.value in ("[", "<"):
            return self.announcement()
        return self.quantified()

    def modal(self) -> Formula:
        t = self.advance()
        op, rest = t.raw.split("_", 1)
        if rest == "{":
            self.i -= 1  # re-read the brace as a name list
            self.tokens[self.i] = Token("op", "{", "{", t.pos + len(op) + 1)
            names = self.braced_names(atoms=False)
        else:
            names = (rest,)
        if op in _AGENT_OPS:
            if len(names) != 1:
                raise self.error(f"{op}_ takes one agent", t, f"{op}_name")
            return _AGENT_OPS[op](names[0], self.unary())
        return _GROUP_OPS[op](names, self.unary())

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

    def announcement_group(self) -> tuple[str, ...] | None:
        if self.at("!") or self.at("?"):
            return None
        names = [self.name(atoms=False)]
        while self.at(","):
            self.advance()
            names.append(self.name(atoms=False))
        return tuple(names)

    def quantified_variables(self) -> tuple[str, ...]:
        return self.braced_names(atoms=True)


_PREFIXES = frozenset({"~", "(", "[", "<", "forall", "exists"})


def parse(text: str) -> Formula:
    """Parse a formula in the project's syntax.

    Raises:
        FormulaSyntaxError: with line, column, a caret under the spot and what was expected;
            also for a formula nesting deeper than `MAX_DEPTH` levels.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse() takes a string, got {type(text).__name__}")
    return _Parser(text).whole()


# --- printing -------------------------------------------------------------------------

_PREC_IFF, _PREC_IMPLIES, _PREC_OR, _PREC_AND, _PREC_UNARY = range(5)


def _prec(f: Formula) -> int:
    if isinstance(f, fm.Iff):
        return _PREC_IFF
    if isinstance(f, fm.Implies):
        return _PREC_IMPLIES
    if isinstance(f, fm.Or) and len(f.args) >= 2:
        return _PREC_OR
    if isinstance(f, fm.And) and len(f.args) >= 2:
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
    if isinstance(f, fm.Top):
        return "top"
    if isinstance(f, fm.Bot):
        return "bot"
    if isinstance(f, fm.Atom):
        return atom_text(f.name)
    if isinstance(f, fm.Not):
        return "~" + _wrap(f.arg, _PREC_UNARY)
    if isinstance(f, fm.And) and len(f.args) >= 2:
        return " & ".join(_wrap(a, _PREC_AND + 1) for a in f.args)
    if isinstance(f, fm.Or) and len(f.args) >= 2:
        return " | ".join(_wrap(a, _PREC_OR + 1) for a in f.args)
    if isinstance(f, fm.NAry):
        return f"{f.word}(" + ", ".join(to_text(a) for a in f.args) + ")"
    if isinstance(f, fm.Implies):
        # The parser refuses `p -> q -> r` and `p <-> q -> r`: a right-hand `->` is wrapped.
        return f"{_wrap(f.left, _PREC_IMPLIES + 1)} -> {_wrap(f.right, _PREC_IMPLIES + 1)}"
    if isinstance(f, fm.Iff):
        return f"{_wrap(f.left, _PREC_IFF)} <-> {_wrap(f.right, _PREC_IMPLIES + 1)}"
    if isinstance(f, fm.Knowledge):
        agent = f.agent if _NAME.fullmatch(f.agent) else "{" + atom_text(f.agent) + "}"
        return f"{f.symbol}_{agent} {_wrap(f.arg, _PREC_UNARY)}"
    if isinstance(f, fm.GroupKnowledge):
        return f"{f.symbol}_{_group_text(f.group)} {_wrap(f.arg, _PREC_UNARY)}"
    if isinstance(f, fm.Announce):
        group = ",".join(atom_text(a) for a in f.group) if f.group is not None else ""
        inner = f"{group}{'?' if f.whether else ''}!{to_text(f.pre)}"
        box = f"<{inner}>" if f.diamond else f"[{inner}]"
        return f"{box} {_wrap(f.post, _PREC_UNARY)}"
    if isinstance(f, fm.Quantified):
        names = "{" + ",".join(atom_text(v) for v in f.variables) + "}"
        return f"{f.keyword} {names} {_wrap(f.arg, _PREC_UNARY)}"
    if isinstance(f, fm.Connective):  # pragma: no cover - every connective is handled above
        raise TypeError(f"unprintable connective {f!r}")
    raise TypeError(f"not a formula: {f!r}")


# `str()` and `Formula.parse` call these (formula.py cannot import this module: it imports formula).
install_renderers(text=to_text, parse=parse)
