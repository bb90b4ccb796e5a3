"""Formula trees: printing round trips, repr, LaTeX, operators, traversal, substitution."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings, strategies as st

import epigames.logic as L
from epigames.logic import (
    And,
    Announce,
    Atom,
    Bot,
    C,
    D,
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
    conj,
    disj,
    parse,
    substitute,
)
from tests.logic.strategies import SEEDS, TRICKY_NAMES, formulas, random_formula

p, q, r = Atom("p"), Atom("q"), Atom("r")


@settings(max_examples=300, deadline=None)
@given(formulas())
def test_str_parses_back_to_the_same_formula(f: Formula) -> None:
    text = str(f)
    assert parse(text) == f, text


@settings(max_examples=300, deadline=None)
@given(SEEDS)
def test_str_parses_back_for_large_random_formulas(seed: int) -> None:
    # Deeper and more varied than hypothesis' recursive strategy; names need quoting.
    rnd = Random(seed)
    names = tuple(rnd.sample(TRICKY_NAMES, 6))
    f = random_formula(rnd, names[:3], 6, atoms=names)
    text = str(f)
    assert parse(text) == f, text
    assert eval(repr(f), vars(L)) == f
    assert isinstance(f.to_latex(), str)


@settings(max_examples=200, deadline=None)
@given(formulas())
def test_repr_evaluates_back_to_the_same_formula(f: Formula) -> None:
    assert eval(repr(f), vars(L)) == f


@settings(max_examples=200, deadline=None)
@given(formulas())
def test_to_latex_returns_a_non_empty_string(f: Formula) -> None:
    out = f.to_latex()
    assert isinstance(out, str) and out


@settings(max_examples=200, deadline=None)
@given(formulas())
def test_formulas_are_hashable_and_equal_copies_hash_equal(f: Formula) -> None:
    g = parse(str(f))
    assert hash(g) == hash(f)
    assert {f: 1}[g] == 1


@pytest.mark.parametrize(
    "f",
    [
        Atom("holds(West, 8♥)"),
        Atom("and"),
        Atom("K_x"),
        Atom("8"),
        Atom('say "hi" \\ now'),
        K("West player", p),
        K("1", p),
        E(("a", "and", "K_x"), p),
        Announce(p, q, ("a b", "c"), whether=True, diamond=True),
        Forall(("forall", "x y"), p & q),
        And(()),
        Or((p,)),
        Xor((p, q, r)),
        OneOf(()),
    ],
)
def test_round_trip_of_names_that_need_quoting(f: Formula) -> None:
    assert parse(str(f)) == f
    assert eval(repr(f), vars(L)) == f


def test_atom_with_line_break_round_trips() -> None:
    # Atom accepts any non-empty name; the printer must write one that parses back.
    f = Atom("line one\nline two")
    assert parse(str(f)) == f


@pytest.mark.parametrize(
    "make",
    [lambda: E((), p), lambda: Forall((), p), lambda: K("", p)],
    ids=["empty-group", "no-variables", "empty-agent"],
)
def test_degenerate_nodes_are_rejected_or_round_trip(make: object) -> None:
    # Either the constructor refuses the node (as Announce refuses an empty group), or
    # str() writes something that parses back; printing text that does not parse is a bug.
    try:
        f = make()  # type: ignore[operator]
    except ValueError:
        return
    assert parse(str(f)) == f


def test_empty_names_and_groups_are_refused() -> None:
    with pytest.raises(ValueError):
        Atom("")
    with pytest.raises(ValueError):
        Announce(p, q, ())


def test_operators_build_the_nodes() -> None:
    assert (p & q) == And((p, q))
    assert (p | q) == Or((p, q))
    assert ~p == Not(p)
    assert (p >> q) == Implies(p, q)
    assert (p & q & r) == And((And((p, q)), r))


def test_equality_distinguishes_node_types() -> None:
    assert K("a", p) != M("a", p) != Kw("a", p)
    assert E(("a",), p) != C(("a",), p) != D(("a",), p)
    assert Top() != Bot()
    assert And(()) != Or(())
    assert Xor((p,)) != OneOf((p,))
    assert Announce(p, q) != Announce(p, q, diamond=True)
    assert Announce(p, q) != Announce(p, q, whether=True)
    assert Forall(("p",), p) != Exists(("p",), p)
    assert len({K("a", p), M("a", p), Kw("a", p), K("a", p)}) == 3


def test_atoms_and_agents() -> None:
    f = parse("K_a p & [b,c!q] E_{d,e} ~r & forall {v} (v | C_{f} top)")
    assert f.atoms() == {"p", "q", "r", "v"}
    assert f.agents() == {"a", "b", "c", "d", "e", "f"}
    assert parse("[!p] q").agents() == frozenset()


def test_is_boolean() -> None:
    assert parse("p & ~q -> xor(r, top)").is_boolean()
    assert not parse("p & K_a q").is_boolean()
    assert not parse("[!p] q").is_boolean()
    assert not parse("forall {p} p").is_boolean()


def test_walk_is_pre_order() -> None:
    f = parse("(p & q) -> ~r")
    assert f.walk() == [f, p & q, p, q, ~r, r]


def test_children() -> None:
    assert parse("[!p] q").children() == (p, q)
    assert parse("K_a p").children() == (p,)
    assert And((p, q, r)).children() == (p, q, r)
    assert p.children() == ()


def test_substitute_replaces_everywhere_but_bound_variables() -> None:
    f = parse("p & K_a [!p] q & forall {p} (p | q)")
    g = substitute(f, {"p": r, "q": Top()})
    assert g == parse("r & K_a [!r] top & forall {p} (p | top)")


def test_expand_instantiates_all_assignments() -> None:
    f = Forall(("p", "q"), p | q)
    assert f.expand() == And(
        (Or((Top(), Top())), Or((Top(), Bot())), Or((Bot(), Top())), Or((Bot(), Bot())))
    )
    assert Exists(("p",), p & r).expand() == Or((And((Top(), r)), And((Bot(), r))))


def test_conj_and_disj_collapse_trivial_cases() -> None:
    assert conj() == Top() and disj() == Bot()
    assert conj(p) == p and disj(p) == p
    assert conj(p, q) == And((p, q)) and disj(p, q) == Or((p, q))


def test_formula_parse_classmethod() -> None:
    assert Formula.parse("p -> q") == Implies(p, q)
    assert Iff.parse("p <-> q") == Iff(p, q)


@given(st.text(min_size=1, max_size=8))
def test_atom_names_are_kept_verbatim(name: str) -> None:
    assert Atom(name).name == name
    assert Atom(name).atoms() == {name}


def test_quantifier_expansion_past_the_bound_is_a_clear_error_not_a_hang() -> None:
    from epigames.errors import InputError
    from epigames.logic import KripkeModel, parse
    from epigames.logic.formula import MAX_EXPANSION, FormulaError, expanded_size

    model = KripkeModel.build(["w"], {"w": ["p1"]}, partitions={"a": [["w"]]}, designated=["w"])
    wide = parse("forall {" + ",".join(f"p{i}" for i in range(30)) + "} p1")
    nested = parse("".join(f"exists {{p{i}}} " for i in range(40)) + "p1")
    for f in (wide, nested):
        assert expanded_size(f) == MAX_EXPANSION + 1
        with pytest.raises(FormulaError, match="the bound is MAX_EXPANSION") as info:
            model.holds(f)
        assert isinstance(info.value, InputError)
        assert f"{MAX_EXPANSION:,}" in str(info.value)
    # Under the bound, quantifiers still expand and evaluate as before.
    assert expanded_size(parse("forall {p,q} (p | q)")) == 13
    assert model.holds(parse("forall {p,q} (p | ~p) & exists {p} p"))
