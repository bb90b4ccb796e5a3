"""The project's formula syntax: alternatives, precedence, n-ary forms and error reports."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given, settings, strategies as st

from epigames.errors import FormulaSyntaxError, InputError
from epigames.logic import (
    And,
    Announce,
    Atom,
    Bot,
    C,
    E,
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
    parse,
)
from epigames.logic.syntax import MAX_DEPTH, atom_text, formula_depth
from tests.logic.strategies import GROUP_OPS, formulas

p, q, r, s = Atom("p"), Atom("q"), Atom("r"), Atom("s")
T = TypeVar("T")

simple_formulas = formulas(st.sampled_from("pqr"), st.sampled_from("ab"), depth=3)


# --- alternatives ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("unicode", "ascii_"),
    [
        ("¬p", "~p"),
        ("p ∧ q", "p & q"),
        ("p ∨ q", "p | q"),
        ("p → q", "p -> q"),
        ("p ↔ q", "p <-> q"),
        ("⟨!p⟩ q", "<!p> q"),
        ("⟨a,b?!p⟩ q", "<a,b?!p> q"),
        ("⊤", "top"),
        ("⊥", "bot"),
        ("¬(p ∧ q) ∨ r → ⊤ ↔ ⊥", "~(p & q) | r -> top <-> bot"),
        ("not p and q or r", "~p & q | r"),
        ("p => q <=> r", "p -> q <-> r"),
        ("p iff q", "p <-> q"),
        ("true & false", "top & bot"),
        ("p∧q∨¬r", "p & q | ~r"),
    ],
)
def test_unicode_and_word_alternatives_parse_like_ascii(unicode: str, ascii_: str) -> None:
    assert parse(unicode) == parse(ascii_)


def _to_unicode(text: str) -> str:
    for a, b in [("<->", "↔"), ("->", "→"), ("<", "⟨"), (">", "⟩"), ("~", "¬"), ("&", "∧")]:
        text = text.replace(a, b)
    return text.replace("|", "∨").replace("top", "⊤").replace("bot", "⊥")


def _to_words(text: str) -> str:
    for a, b in [("<->", " iff "), ("->", " => "), ("~", " not "), ("&", " and ")]:
        text = text.replace(a, b)
    return text.replace("|", " or ").replace("top", "true").replace("bot", "false")


@settings(max_examples=200, deadline=None)
@given(simple_formulas)
def test_unicode_spelling_of_printed_formulas_parses_the_same(f: Formula) -> None:
    text = str(f)
    assert parse(_to_unicode(text)) == f, _to_unicode(text)
    assert parse(_to_words(text)) == f, _to_words(text)


# --- precedence and associativity ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("p & q | r", Or((And((p, q)), r))),
        ("p | q & r", Or((p, And((q, r))))),
        ("p & q & r", And((p, q, r))),
        ("p | q | r", Or((p, q, r))),
        ("(p & q) & r", And((And((p, q)), r))),
        ("p -> (q -> r)", Implies(p, Implies(q, r))),
        ("(p -> q) -> r", Implies(Implies(p, q), r)),
        ("p <-> q <-> r", Iff(Iff(p, q), r)),
        ("p <-> (q <-> r)", Iff(p, Iff(q, r))),
        ("p | q -> r <-> s", Iff(Implies(Or((p, q)), r), s)),
        ("p -> q <-> (r -> s)", Iff(Implies(p, q), Implies(r, s))),
        ("p -> q <-> r", Iff(Implies(p, q), r)),
        ("(p <-> q) -> r", Implies(Iff(p, q), r)),
        ("p & q -> r | s", Implies(And((p, q)), Or((r, s)))),
        ("~p & q", And((Not(p), q))),
        ("~~p", Not(Not(p))),
        ("~(p & q)", Not(And((p, q)))),
        ("K_a p & q", And((K("a", p), q))),
        ("K_a ~p -> q", Implies(K("a", Not(p)), q)),
        ("~K_a ~p", Not(K("a", Not(p)))),
        ("M_a Kw_b p", M("a", Kw("b", p))),
        ("C_{a,b} p -> q", Implies(C(("a", "b"), p), q)),
        ("E_a p", E(("a",), p)),
        ("K_{a} p", K("a", p)),
        ("K_1 p", K("1", p)),
        ('K_{"West player"} p', K("West player", p)),
        ("[!p] q & r", And((Announce(p, q), r))),
        ("[!p & q] r", Announce(And((p, q)), r)),
        ("[!p] [!q] r", Announce(p, Announce(q, r))),
        ("[?!p] q", Announce(p, q, whether=True)),
        ("[a,b!p] q", Announce(p, q, ("a", "b"))),
        ("[a?!p] q", Announce(p, q, ("a",), whether=True)),
        ("<!p> q", Announce(p, q, diamond=True)),
        ("<!p -> q> r", Announce(Implies(p, q), r, diamond=True)),
        ("<!<!p> q> r", Announce(Announce(p, q, diamond=True), r, diamond=True)),
        ("<!p> q <-> r", Iff(Announce(p, q, diamond=True), r)),
        ("forall {p} p | q", Or((Forall(("p",), p), q))),
        ("exists {p, q} (p & q)", Exists(("p", "q"), And((p, q)))),
        ("and()", And(())),
        ("or(p)", Or((p,))),
        ("xor(p, q, r)", Xor((p, q, r))),
        ("oneof(p -> q, r)", OneOf((Implies(p, q), r))),
        ("and(p) & q", And((And((p,)), q))),
        ("p or (q)", Or((p, q))),
        ("p & or(q)", And((p, Or((q,))))),
        ("8", Atom("8")),
        ('"holds(West, 8♥)"', Atom("holds(West, 8♥)")),
        ('"a\\"b"', Atom('a"b')),
        ('"a\\\\b"', Atom("a\\b")),
        ('"and"', Atom("and")),
        ("K", Atom("K")),
        ("Kw_a_b p", Kw("a_b", p)),
        ("top | bot", Or((Top(), Bot()))),
    ],
)
def test_precedence_associativity_and_forms(text: str, expected: Formula) -> None:
    assert parse(text) == expected


_BINARY = {"&": 3, "|": 2, "->": 1, "<->": 0}


def _reference_parse(items: list[str], ops: list[str]) -> Formula:
    """Operator-precedence parse of `x0 op0 x1 op1 …` written without the parser."""

    def build(lo: int, hi: int, level: int) -> Formula:
        if level == 4:
            assert lo == hi
            return Atom(items[lo])
        op = next(k for k, v in _BINARY.items() if v == level)
        cuts = [i for i in range(lo, hi) if ops[i] == op]
        if not cuts:
            return build(lo, hi, level + 1)
        bounds = [lo, *[c + 1 for c in cuts]]
        ends = [*cuts, hi]
        parts = [build(a, b, level + 1) for a, b in zip(bounds, ends, strict=True)]
        if op == "&":
            return And(tuple(parts))
        if op == "|":
            return Or(tuple(parts))
        if op == "->":  # right-associative
            out = parts[-1]
            for part in reversed(parts[:-1]):
                out = Implies(part, out)
            return out
        out = parts[0]  # <-> is left-associative
        for part in parts[1:]:
            out = Iff(out, part)
        return out

    return build(0, len(items) - 1, 0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("pqrs"), st.sampled_from(list(_BINARY))), max_size=7))
def test_binary_operators_against_a_reference_precedence_parse(
    chain: list[tuple[str, str]],
) -> None:
    items = [x for x, _ in chain] + ["t"]
    ops = [o for _, o in chain]
    text = " ".join(f"{x} {o}" for x, o in chain) + " t"
    # A `->` after another `->` or after `<->` (at this level) is refused: tools differ.
    first_bad = next(
        (i for i, o in enumerate(ops) if o == "->" and any(x in ("->", "<->") for x in ops[:i])),
        None,
    )
    if first_bad is not None:
        with pytest.raises(FormulaSyntaxError, match="needs parentheses") as info:
            parse(text)
        assert info.value.column == len(" ".join(f"{x} {o}" for x, o in chain[:first_bad])) + 4
        return
    assert parse(text) == _reference_parse(items, ops)


def _full(f: Formula) -> str:
    """Print with a parenthesis around every binary node: an independent printer."""
    if isinstance(f, Top):
        return "top"
    if isinstance(f, Bot):
        return "bot"
    if isinstance(f, Atom):
        return atom_text(f.name)
    if isinstance(f, Not):
        return f"~{_full(f.arg)}"
    if isinstance(f, And | Or) and len(f.args) >= 2:
        sep = " & " if isinstance(f, And) else " | "
        return "(" + sep.join(_full(a) for a in f.args) + ")"
    if isinstance(f, And | Or | Xor | OneOf):
        word = {And: "and", Or: "or", Xor: "xor", OneOf: "oneof"}[type(f)]
        return f"{word}(" + ", ".join(_full(a) for a in f.args) + ")"
    if isinstance(f, Implies):
        return f"({_full(f.left)} -> {_full(f.right)})"
    if isinstance(f, Iff):
        return f"({_full(f.left)} <-> {_full(f.right)})"
    if isinstance(f, K | Kw | M):
        return f"{type(f).__name__}_{{{atom_text(f.agent)}}} {_full(f.arg)}"
    if isinstance(f, GROUP_OPS):
        names = ",".join(atom_text(a) for a in f.group)
        return f"{type(f).__name__}_{{{names}}} {_full(f.arg)}"
    if isinstance(f, Announce):
        who = "" if f.group is None else ",".join(atom_text(a) for a in f.group)
        inner = f"{who}{'?' if f.whether else ''}!{_full(f.pre)}"
        return (f"<{inner}>" if f.diamond else f"[{inner}]") + " " + _full(f.post)
    if isinstance(f, Forall | Exists):
        kw = "forall" if isinstance(f, Forall) else "exists"
        return f"{kw} {{{','.join(atom_text(v) for v in f.variables)}}} {_full(f.arg)}"
    raise AssertionError(f)


@settings(max_examples=200, deadline=None)
@given(formulas())
def test_fully_parenthesised_text_parses_to_the_formula(f: Formula) -> None:
    assert parse(_full(f)) == f, _full(f)


# --- errors ---------------------------------------------------------------------------


def _caret_column(err: FormulaSyntaxError) -> tuple[str, int]:
    lines = str(err).split("\n")
    assert len(lines) == 3, str(err)
    src, caret = lines[1], lines[2]
    assert caret.strip() == "^", str(err)
    return src[2:], caret.index("^") - 2 + 1


@pytest.mark.parametrize(
    ("text", "line", "column", "expected"),
    [
        ("", 1, 1, "formula"),
        ("   ", 1, 4, "formula"),
        ("p &", 1, 4, "formula"),
        ("p & | q", 1, 5, "formula"),
        ("p ->", 1, 5, "formula"),
        ("(p & q", 1, 7, "')'"),
        ("((p)", 1, 5, "')'"),
        ("p)", 1, 2, "end of the formula"),
        ("p q", 1, 3, "operator"),
        ("p $ q", 1, 3, "formula"),
        ("p & q @", 1, 7, "formula"),
        ("[p]q", 1, 3, "'!'"),
        ("[!p q", 1, 5, "']'"),
        ("<!p] q", 1, 4, "'>'"),
        ("[a,!p] q", 1, 4, "agent"),
        ("K_{} p", 1, 4, "agent"),
        ("K_{a,b} p", 1, 1, "K_"),
        ("forall p", 1, 8, "'{'"),
        ("forall {} p", 1, 9, "atom"),
        ("xor p", 1, 5, "'('"),
        ("and(p,)", 1, 7, "formula"),
        ("oneof(p", 1, 8, "')'"),
        ('"abc', 1, 1, ""),
        ('p & "abc', 1, 5, ""),
        ('""', 1, 1, "non-empty"),
        ('K_{""} p', 1, 4, "agent"),
        ("p &\n  q |\n  & r", 3, 3, "formula"),
        ("p\n&", 2, 2, "formula"),
        ("p &\r\n& q", 2, 1, "formula"),
        ("first\nsecond $", 2, 8, "formula"),
    ],
)
def test_syntax_errors_report_line_column_caret_and_expectation(
    text: str, line: int, column: int, expected: str
) -> None:
    with pytest.raises(FormulaSyntaxError) as info:
        parse(text)
    err = info.value
    assert isinstance(err, InputError) and isinstance(err, ValueError)
    assert (err.line, err.column) == (line, column), str(err)
    assert err.expected, str(err)
    assert expected in err.expected, str(err)
    assert "expected" in str(err)
    assert str(err).startswith(f"line {line}, column {column}: ")
    src, caret = _caret_column(err)
    assert src == text.split("\n")[line - 1].rstrip("\r")
    assert caret == column


@pytest.mark.parametrize("text", ["K_", "K_ p", "K_&p", "C_ p", "Kw_ (p)"])
def test_modality_without_agent_is_an_error(text: str) -> None:
    # `K_` is how a modality starts; with no agent after it the parser must say so
    # (today "K_" alone parses as the atom K_, which str() itself would quote).
    with pytest.raises(FormulaSyntaxError) as info:
        parse(text)
    err = info.value
    assert "agent" in err.expected, str(err)
    assert (err.line, err.column) in {(1, 1), (1, len(text.split("_")[0]) + 2)}, str(err)


@pytest.mark.parametrize("sep", ["\r", "\u2028", "\x0c", "\x85", "\v"])
def test_caret_line_matches_the_reported_line_for_unusual_line_breaks(sep: str) -> None:
    text = f"p &{sep}q & $"
    with pytest.raises(FormulaSyntaxError) as info:
        parse(text)
    src, col = _caret_column(info.value)
    assert src[col - 1 : col] == "$", str(info.value)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["p", "&", "q", "|", "~", "(", ")", "$"]), min_size=1, max_size=8),
    st.lists(st.sampled_from([" ", "\n", "\t", "\r\n", "  \n "]), min_size=9, max_size=9),
)
def test_caret_points_at_the_offending_token(pieces: list[str], gaps: list[str]) -> None:
    text = "".join(g + t for g, t in zip(gaps, pieces, strict=False))
    try:
        parse(text)
    except FormulaSyntaxError as err:
        src, col = _caret_column(err)
        lines = text.split("\n")
        assert src == lines[err.line - 1].rstrip("\r")
        offset = sum(len(x) + 1 for x in lines[: err.line - 1]) + err.column - 1
        if offset < len(text):
            assert src[col - 1] == text[offset]
            assert text[offset] in "p&q|~()$", (text, err.line, err.column)
        else:
            assert offset == len(text)


def test_parse_rejects_non_strings() -> None:
    with pytest.raises(TypeError):
        parse(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse(b"p")  # type: ignore[arg-type]


def test_whitespace_and_newlines_are_ignored() -> None:
    assert parse("  K_a\n\tp  &\r\n q ") == And((K("a", p), q))


# --- nesting depth ------------------------------------------------------------------------

DEEP_TEXTS = {
    "negations": "~" * 400 + "p",
    "parentheses": "(" * 200 + "p" + ")" * 200,
    "knowledge": "K_a " * 150 + "p",
    "announcements": "[!p] " * 150 + "q",
    # A chain of -> needs parentheses (see test_arrows_that_tools_group_differently…).
    "implications": "p -> (" * 150 + "p" + ")" * 150,
    "iff chain": "p <-> " * 150 + "p",
    "n-ary": "and(" * 150 + "p" + ")" * 150,
}


@pytest.mark.parametrize("text", DEEP_TEXTS.values(), ids=DEEP_TEXTS.keys())
def test_deep_formulas_are_a_syntax_error_not_a_recursion_error(text: str) -> None:
    with pytest.raises(FormulaSyntaxError, match=r"nests .*levels deep; the limit is 100"):
        parse(text)


def test_depth_error_names_how_deep_the_formula_goes() -> None:
    with pytest.raises(FormulaSyntaxError) as err:
        parse("~" * 400 + "p")
    assert "formula nests at least 400 levels deep; the limit is 100" in str(err.value)
    assert (err.value.line, err.value.column) == (1, MAX_DEPTH + 1)
    with pytest.raises(FormulaSyntaxError, match="at least 200 levels deep"):
        parse("(" * 200 + "p" + ")" * 200)
    # Binary operators nest without a run of prefixes: the finished tree is measured.
    text = "(p | q & ~" * 40 + "p" + ")" * 40
    with pytest.raises(FormulaSyntaxError, match="formula nests 120 levels deep; the limit"):
        parse(text)


def _just_under_the_limit() -> dict[str, str]:
    n = MAX_DEPTH
    return {
        "negations": "~" * n + "p",
        "parentheses": "(" * n + "p" + ")" * n,
        "knowledge": "K_a " * n + "p",
        "mixed": "K_a ~" * (n // 2) + "p",
        "common knowledge": "C_{a,b} " * n + "p",
        "announcements": "[!p] " * (n - 1) + "~p",
        "group announcements": "[a!p] " * (n - 1) + "~p",
        # `->` and its parenthesis are a level each (a chain of `->` needs parentheses).
        "implications": "p -> (" * (n // 2) + "p" + ")" * (n // 2),
        "iff chain": "p <-> " * n + "p",
        "n-ary": "and(" * n + "p" + ")" * n,
    }


def _deep_stack(frames: int, then: Callable[[], T]) -> T:
    """Run `then` with `frames` more frames on the stack (as under a web server)."""
    return then() if frames == 0 else _deep_stack(frames - 1, then)


@pytest.mark.parametrize("text", _just_under_the_limit().values(), ids=_just_under_the_limit())
def test_formulas_at_the_limit_parse_print_and_evaluate(text: str) -> None:
    from epigames.logic import KripkeModel

    model = KripkeModel.build(
        ["w0", "w1"],
        {"w0": ["p"], "w1": []},
        partitions={"a": [["w0", "w1"]], "b": [["w0"], ["w1"]]},
        designated=["w0"],
    )
    f = _deep_stack(250, lambda: parse(text))
    assert formula_depth(f) <= MAX_DEPTH
    assert parse(str(f)) == f
    # Model checking recurses a few frames per level: it must fit even when it starts
    # some hundreds of frames deep (a request handler's stack).
    truth = _deep_stack(250, lambda: isinstance(model.holds(f), bool))
    assert truth


def test_smcdel_formulas_have_the_same_depth_limit() -> None:
    from epigames.logic.smcdel import parse_smcdel, parse_smcdel_formula, run_jobs

    for text in ("~" * 400 + "1", "(" * 200 + "1" + ")" * 200, "alice knows that " * 150 + "1"):
        with pytest.raises(FormulaSyntaxError, match="levels deep; the limit is 100"):
            parse_smcdel_formula(text)
    # `a knows whether (φ, ψ)` is two levels (a conjunction of Kw): the tree is measured.
    with pytest.raises(FormulaSyntaxError, match="formula nests 120 levels deep"):
        parse_smcdel_formula("alice knows whether (1, " * 60 + "1" + ")" * 60)
    header = "VARS 1,2\nLAW Top\nOBS alice: 1\n     bob: 2\n"
    with pytest.raises(FormulaSyntaxError, match="at least 400 levels") as err:
        parse_smcdel(header + "VALID? " + "~" * 400 + "1\n")
    assert err.value.line == 5
    with pytest.raises(FormulaSyntaxError, match="at least 300 levels"):
        parse_smcdel("VARS 1\nLAW " + "~" * 300 + "1\nOBS\n")
    deep = "alice knows that ~" * (MAX_DEPTH // 2) + "1"
    data = parse_smcdel(header + f"VALID? {deep}\nWHERE? {'(' * MAX_DEPTH}1{')' * MAX_DEPTH}\n")
    results = _deep_stack(250, lambda: run_jobs(data))
    assert results[0].answer is False
    assert results[1].answer == [frozenset({1}), frozenset({1, 2})]


def test_cli_eval_refuses_a_deep_formula_with_exit_2(tmp_path: Path) -> None:
    from tests.commands.test_logic import run

    path = tmp_path / "s.smcdel.txt"
    path.write_text("VARS 1,2\nLAW Top\nOBS alice: 1\n     bob: 2\n")
    proc = run("logic", "eval", "-f", str(path), "~" * 400 + "1")
    assert proc.returncode == 2, proc.stderr
    assert "formula nests at least 400 levels deep; the limit is 100" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("text", "column", "after"),
    [
        ("p -> q -> r", 8, "'->' after '->'"),
        ("p <-> q -> r", 9, "'->' after '<->'"),
        ("1 iff 2 -> 3", 9, "'->' after '<->'"),
        ("(p -> q) & r -> s -> t", 19, "'->' after '->'"),
        ("K_a (p -> q -> r)", 13, "'->' after '->'"),
    ],
)
def test_arrows_that_tools_group_differently_need_parentheses(
    text: str, column: int, after: str
) -> None:
    with pytest.raises(FormulaSyntaxError, match="needs parentheses") as info:
        parse(text)
    assert info.value.column == column
    assert after in info.value.message
    assert "SMCDEL" in info.value.message
