"""The SMCDEL file reader: parsing every construct, precedence, semantics, errors, examples."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from epigames.errors import FormulaSyntaxError, ModelError, UnknownAgentError
from epigames.logic import (
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
from epigames.logic.smcdel import (
    JobResult,
    SmcdelInput,
    SmcdelModelError,
    SmcdelUnknownAgentError,
    parse_smcdel,
    parse_smcdel_formula,
    run_jobs,
    state_text,
)

EXAMPLES = Path(__file__).parent.parent.parent / "examples"
P1, P2, P3 = Atom("1"), Atom("2"), Atom("3")


def answers(name: str) -> list[bool | list[frozenset[int]]]:
    return [r.answer for r in run_jobs(parse_smcdel((EXAMPLES / name).read_text()))]


def f(text: str) -> Formula:
    return parse_smcdel_formula(text)


# --- the example files ------------------------------------------------------------------


def test_muddy_children_answers() -> None:
    got = answers("muddy-children.smcdel.txt")
    assert got[:3] == [True, True, [{1}, {2}, {3}]]
    assert got[3:] == [
        True,
        [{1, 2}, {1, 2, 3}, {1, 3}, {2, 3}],
        True,
        True,
        [{1, 2}, {1, 3}, {2, 3}],
    ]


def test_muddy_children_contains_the_three_reference_jobs() -> None:
    text = (EXAMPLES / "muddy-children.smcdel.txt").read_text()
    jobs = parse_smcdel(text).jobs
    assert [j.text for j in jobs[:3]] == [
        "alice knows that (2 & 3) & ~ alice knows whether 1",
        "[! (1|2|3)] [! (~(alice knows whether 1) & ~(bob knows whether 2) & "
        "~(carol knows whether 3))] [! (~(alice knows whether 1) & ~(bob knows whether 2) "
        "& ~(carol knows whether 3))] (1 & 2 & 3)",
        "< ! (1|2|3) > ( (alice knows whether 1) | (bob knows whether 2) | "
        "(carol knows whether 3) )",
    ]
    assert [j.kind for j in jobs[:3]] == ["TRUE?", "VALID?", "WHERE?"]
    assert jobs[0].state == (1, 2, 3)


def test_cheryl_answers() -> None:
    dates = [(5, 15), (5, 16), (5, 19), (6, 17), (6, 18),
             (7, 14), (7, 16), (8, 14), (8, 15), (8, 17)]  # fmt: skip
    assert answers("cheryl.smcdel.txt") == [
        [set(d) for d in dates],
        [{7, 14}, {7, 16}, {8, 14}, {8, 15}, {8, 17}],
        [{7, 16}, {8, 15}, {8, 17}],
        [{7, 16}],
        True,
        True,
    ]


def test_cheryl_structure() -> None:
    data = parse_smcdel((EXAMPLES / "cheryl.smcdel.txt").read_text())
    assert data.model().size == 10
    assert data.observations == {"albert": (5, 6, 7, 8), "bernard": (14, 15, 16, 17, 18, 19)}


def test_drinking_logicians_answers() -> None:
    assert answers("drinking-logicians.smcdel.txt") == [
        [{1}, {1, 2}, {1, 2, 3}, {1, 3}],
        [{1, 2}, {1, 2, 3}],
        [{1, 2, 3}],
        [{1, 2}],
        [{1, 2, 3}],
        True,
        True,
    ]


# --- the structure ------------------------------------------------------------------------

MUDDY = """\
-- three muddy children
VARS 1,2,3
LAW  Top
OBS  alice: 2,3
     bob:   1,3
     carol: 1,2
TRUE? {1,2,3} alice knows that (2 & 3) & ~ alice knows whether 1
VALID? [! (1|2|3)] [! (~(alice knows whether 1) & ~(bob knows whether 2) & ~(carol knows whether 3))] [! (~(alice knows whether 1) & ~(bob knows whether 2) & ~(carol knows whether 3))] (1 & 2 & 3)
WHERE? < ! (1|2|3) > ( (alice knows whether 1) | (bob knows whether 2) | (carol knows whether 3) )
"""  # noqa: E501


def test_parse_structure_and_jobs() -> None:
    data = parse_smcdel(MUDDY)
    assert data.variables == (1, 2, 3)
    assert data.law == Top()
    assert data.observations == {"alice": (2, 3), "bob": (1, 3), "carol": (1, 2)}
    assert data.agents == ("alice", "bob", "carol")
    assert [(j.kind, j.line, j.column) for j in data.jobs] == [
        ("TRUE?", 7, 1),
        ("VALID?", 8, 1),
        ("WHERE?", 9, 1),
    ]
    assert data.jobs[0].formula == And((K("alice", And((P2, P3))), Not(Kw("alice", P1))))
    assert [r.answer for r in run_jobs(data)] == [True, True, [{1}, {2}, {3}]]


def test_results_carry_job_data_and_render() -> None:
    r = run_jobs(parse_smcdel(MUDDY))
    assert isinstance(r[0], JobResult)
    assert (r[0].kind, r[0].line, r[0].state) == ("TRUE?", 7, (1, 2, 3))
    assert r[0].text == "alice knows that (2 & 3) & ~ alice knows whether 1"
    assert r[0].answer_text() == "True"
    assert r[2].answer_text() == "[{1},{2},{3}]"
    assert r[0].to_json() == {
        "kind": "TRUE?",
        "line": 7,
        "formula": "alice knows that (2 & 3) & ~ alice knows whether 1",
        "state": [1, 2, 3],
        "answer": True,
    }
    assert r[2].to_json()["answer"] == [[1], [2], [3]]
    assert "state" not in r[1].to_json()


def test_free_form_whitespace_and_comments() -> None:
    text = "VARS 1 , 2 -- the vars\nLAW\n  Top OBS a:1 b : 2 TRUE?{}~1 VALID? -- c\n 1 | ~1"
    data = parse_smcdel(text)
    assert data.observations == {"a": (1,), "b": (2,)}
    assert [j.text for j in data.jobs] == ["~1", "1 | ~1"]
    assert [r.answer for r in run_jobs(data)] == [True, True]


def test_comment_inside_a_formula_is_dropped_from_its_text() -> None:
    data = parse_smcdel("VARS 1 LAW Top OBS a: 1\nVALID? 1 -- why\n | ~1")
    assert data.jobs[0].text == "1 | ~1"
    assert data.jobs[0].formula == Or((P1, Not(P1)))


def test_agent_observing_nothing_and_empty_obs() -> None:
    data = parse_smcdel("VARS 1,2 LAW Top OBS a: b: 1 WHERE? ~ a knows whether 1")
    assert data.observations == {"a": (), "b": (1,)}
    assert run_jobs(data)[0].answer == [frozenset(), {1}, {1, 2}, {2}]
    assert parse_smcdel("VARS 1 LAW 1 OBS").observations == {}


def test_no_jobs() -> None:
    assert run_jobs(parse_smcdel("VARS 1 LAW Top OBS a: 1")) == []


def test_law_restricts_states_and_where_order() -> None:
    data = parse_smcdel("VARS 3,1,2 LAW ~(1 & 3) OBS a: 1")
    # sorted by the ascending tuple of true variables
    assert data.states() == [set(), {1}, {1, 2}, {2}, {2, 3}, {3}]
    assert data.model().worlds == ("{}", "{1}", "{1,2}", "{2}", "{2,3}", "{3}")
    assert data.where(Top()) == data.states()


def test_true_state_with_nothing_true() -> None:
    data = parse_smcdel("VARS 1,2 LAW Top OBS a: 1 TRUE? {} ~1 & ~2 TRUE? {} 1")
    assert [r.answer for r in run_jobs(data)] == [True, False]
    assert data.jobs[0].state == ()


def test_partitions_follow_observations() -> None:
    data = parse_smcdel("VARS 1,2,3 LAW Top OBS a: 1,3 b: 2")
    model = data.model()
    index = {w: i for i, w in enumerate(model.worlds)}
    # a's block of {1}: the valuations agreeing with it on 1 and 3
    same = model.truth_set(Not(K("a", Not(And((P1, Not(P3)))))))  # a considers "1, not 3"
    assert {w for w in model.worlds if same[index[w]]} == {"{1}", "{1,2}"}
    assert data.valid(Kw("a", P1) & Kw("a", P3) & Kw("b", P2))
    assert not data.valid(Kw("b", P1))


def _brute_force_k(
    variables: list[int],
    law: list[tuple[int, ...]],
    observed: list[int],
    prop: set[tuple[int, ...]],
) -> list[tuple[int, ...]]:
    """Where an agent observing `observed` knows that the state is in `prop` (by definition)."""
    out = []
    for s in law:
        seen = {v for v in s if v in observed}
        alike = [t for t in law if {v for v in t if v in observed} == seen]
        if all(t in prop for t in alike):
            out.append(s)
    return out


@settings(max_examples=60, deadline=None)
@given(
    law_bits=st.integers(min_value=1, max_value=(1 << 16) - 1),
    observed=st.sets(st.sampled_from([1, 2, 3, 4])),
    target=st.integers(min_value=0, max_value=(1 << 16) - 1),
)
def test_knowledge_matches_definition(law_bits: int, observed: set[int], target: int) -> None:
    variables = [1, 2, 3, 4]
    subsets = [
        tuple(c) for r in range(5) for c in itertools.combinations(variables, r)
    ]  # 16 valuations
    law = [s for i, s in enumerate(subsets) if law_bits >> i & 1]
    prop = {s for i, s in enumerate(subsets) if target >> i & 1}

    def describe(states: list[tuple[int, ...]] | set[tuple[int, ...]]) -> str:
        if not states:
            return "Bot"
        return (
            "OR("
            + ", ".join(
                "AND(" + ", ".join(str(v) if v in s else f"~{v}" for v in variables) + ")"
                for s in states
            )
            + ")"
        )

    obs = ",".join(str(v) for v in sorted(observed))
    text = f"VARS 1,2,3,4 LAW {describe(law)} OBS a: {obs}\nWHERE? a knows that {describe(prop)}"
    got = run_jobs(parse_smcdel(text))[0].answer
    want = _brute_force_k(variables, sorted(law), sorted(observed), prop)
    assert got == [frozenset(s) for s in want]


# --- formulas: every construct --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "formula"),
    [
        ("Top", Top()),
        ("Bot", Bot()),
        ("7", Atom("7")),
        ("007", Atom("7")),
        ("~1", Not(P1)),
        ("¬1", Not(P1)),
        ("Not 1", Not(P1)),
        ("not 1", Not(P1)),
        ("1 & 2", And((P1, P2))),
        ("1 ∧ 2", And((P1, P2))),
        ("1 | 2", Or((P1, P2))),
        ("1 ∨ 2", Or((P1, P2))),
        ("1 -> 2", Implies(P1, P2)),
        ("1 → 2", Implies(P1, P2)),
        ("1 iff 2", Iff(P1, P2)),
        ("AND(1)", And((P1,))),
        ("AND(1, 2, 3)", And((P1, P2, P3))),
        ("OR(1, 2 & 3)", Or((P1, And((P2, P3))))),
        ("XOR(1, 2, 3)", Xor((P1, P2, P3))),
        ("ONEOF(1, 2)", OneOf((P1, P2))),
        ("(1)", P1),
        ("((1 -> 2))", Implies(P1, P2)),
        ("K alice 1", K("alice", P1)),
        ("Kw alice 1", Kw("alice", P1)),
        ("alice knows that 1", K("alice", P1)),
        ("alice knows whether 1", Kw("alice", P1)),
        ("alice  knows\n whether 1", Kw("alice", P1)),
        ("alice knows whether (1)", Kw("alice", P1)),
        ("alice knows whether (1, 2 & 3)", And((Kw("alice", P1), Kw("alice", And((P2, P3)))))),
        ("(alice,bob) comknow that 1", C(("alice", "bob"), P1)),
        ("(alice, bob) comknow whether 1", Cw(("alice", "bob"), P1)),
        ("(alice,bob) distknow that 1", D(("alice", "bob"), P1)),
        ("(alice,bob) distknow whether 1", Dw(("alice", "bob"), P1)),
        ("(alice) comknow that 1", C(("alice",), P1)),
        ("alice comknow that 1", C(("alice",), P1)),
        ("alice comknow whether 1", Cw(("alice",), P1)),
        ("alice distknow that 1", D(("alice",), P1)),
        ("alice distknow whether 1", Dw(("alice",), P1)),
        ("[! 1] 2", Announce(P1, P2)),
        ("[!1]2", Announce(P1, P2)),
        ("< ! 1 > 2", Announce(P1, P2, diamond=True)),
        ("[?! 1] 2", Announce(P1, P2, whether=True)),
        ("[? ! 1] 2", Announce(P1, P2, whether=True)),
        ("<?! 1> 2", Announce(P1, P2, whether=True, diamond=True)),
        ("[alice,bob ! 1] 2", Announce(P1, P2, group=("alice", "bob"))),
        ("[alice ! 1] 2", Announce(P1, P2, group=("alice",))),
        ("<alice,bob ! 1> 2", Announce(P1, P2, group=("alice", "bob"), diamond=True)),
        ("[alice,bob ?! 1] 2", Announce(P1, P2, group=("alice", "bob"), whether=True)),
        (
            "<alice ?! 1> 2",
            Announce(P1, P2, group=("alice",), whether=True, diamond=True),
        ),
        ("[! 1 & 2] 3", Announce(And((P1, P2)), P3)),
        ("Forall 1,2 3", Forall(("1", "2"), P3)),
        ("ForAll 1 1", Forall(("1",), P1)),
        ("Exists 1, 2 (1 & 2)", Exists(("1", "2"), And((P1, P2)))),
        ("(alice knows that 1)", K("alice", P1)),
        ("alice knows whether (bob,carol) comknow that 1", Kw("alice", C(("bob", "carol"), P1))),
        ("AND(alice knows that 1, bob knows that 2)", And((K("alice", P1), K("bob", P2)))),
    ],
)
def test_constructs(text: str, formula: Formula) -> None:
    assert f(text) == formula


# --- precedence ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "formula"),
    [
        (
            "alice knows that (2 & 3) & ~ alice knows whether 1",
            And((K("alice", And((P2, P3))), Not(Kw("alice", P1)))),
        ),
        ("~1 & 2", And((Not(P1), P2))),
        ("~~1", Not(Not(P1))),
        # K, Kw, Forall and Exists have no precedence in SMCDEL's grammar: they reach.
        ("K a 1 & 2", K("a", And((P1, P2)))),
        ("Kw a 1 | 2", Kw("a", Or((P1, P2)))),
        ("K a 1 -> 2 -> 3", K("a", Implies(Implies(P1, P2), P3))),
        ("1 & K a 2 | 3", And((P1, K("a", Or((P2, P3)))))),
        ("~ K a 1 & 2", Not(K("a", And((P1, P2))))),
        ("[! 1] K a 2 & 3", Announce(P1, K("a", And((P2, P3))))),
        ("(K a 1) & 2", And((K("a", P1), P2))),
        ("AND(K a 1 & 2, 3)", And((K("a", And((P1, P2))), P3))),
        ("a knows that 1 -> 2", Implies(K("a", P1), P2)),
        ("a comknow that 1 & 2", And((C(("a",), P1), P2))),
        ("(a,b) distknow that 1 & 2", And((D(("a", "b"), P1), P2))),
        ("K a K b 1", K("a", K("b", P1))),
        ("a knows that b knows whether 1", K("a", Kw("b", P1))),
        ("~ a knows that 1", Not(K("a", P1))),
        ("[! 1] 2 & 3", And((Announce(P1, P2), P3))),
        ("<! 1> 2 | 3", Or((Announce(P1, P2, diamond=True), P3))),
        ("[! 1] [! 2] 3", Announce(P1, Announce(P2, P3))),
        ("<! <! 1> 2 > 3", Announce(Announce(P1, P2, diamond=True), P3, diamond=True)),
        ("Forall 1 1 & 2", Forall(("1",), And((P1, P2)))),
        ("Exists 1 ~1 -> 2", Exists(("1",), Implies(Not(P1), P2))),
        ("(Forall 1 1) & 2", And((Forall(("1",), P1), P2))),
        ("1 & 2 & 3", And((P1, P2, P3))),
        ("1 | 2 | 3", Or((P1, P2, P3))),
        ("1 & 2 -> 3", Implies(And((P1, P2)), P3)),
        ("1 -> 2 | 3", Implies(P1, Or((P2, P3)))),
        # -> and iff: one level, grouping to the left, as in SMCDEL's grammar.
        ("1 -> 2 -> 3", Implies(Implies(P1, P2), P3)),
        ("1 iff 2 iff 3", Iff(Iff(P1, P2), P3)),
        ("1 -> 2 iff 3", Iff(Implies(P1, P2), P3)),
        ("1 iff 2 -> 3", Implies(Iff(P1, P2), P3)),
        ("1 -> (2 -> 3)", Implies(P1, Implies(P2, P3))),
        ("1 & 2 iff 3 | 1", Iff(And((P1, P2)), Or((P3, P1)))),
        ("(1 & 2) | 3", Or((And((P1, P2)), P3))),
        ("1 & (2 | 3)", And((P1, Or((P2, P3))))),
    ],
)
def test_precedence(text: str, formula: Formula) -> None:
    assert f(text) == formula


@pytest.mark.parametrize(
    ("text", "formula"),
    [
        # `%left '|' '&'` in SMCDEL's grammar: one level, grouping to the left.
        ("1 | 2 & 3", And((Or((P1, P2)), P3))),
        ("1 & 2 | 3", Or((And((P1, P2)), P3))),
        ("1 & 2 & 3 | 1", Or((And((P1, P2, P3)), P1))),
        ("1 | 2 | 3 & 1 & 2 | 3", Or((And((Or((P1, P2, P3)), P1, P2)), P3))),
        ("~1 | 2 & 3", And((Or((Not(P1), P2)), P3))),
        ("1 -> 2 | 3 & 1", Implies(P1, And((Or((P2, P3)), P1)))),
    ],
)
def test_and_and_or_mix_as_in_smcdel(text: str, formula: Formula) -> None:
    assert f(text) == formula


def test_a_file_reads_the_mix_as_smcdel_does() -> None:
    data = parse_smcdel("VARS 1,2,3 LAW Top OBS a: 1\nWHERE? 1 | 2 & 3\nWHERE? 1 | (2 & 3)")
    grouped, tighter = (r.answer for r in run_jobs(data))
    assert grouped == [{1, 2, 3}, {1, 3}, {2, 3}]
    assert tighter != grouped


# --- syntax errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "column", "fragment"),
    [
        ("1 &", 4, "end of input"),
        ("1 2", 3, "unexpected '2'"),
        ("(1 & 2", 7, "end of input"),
        ("alice 1", 7, "knows that"),
        ("p", 2, "knows that"),
        ("K 1 2", 3, "agent name"),
        ("[1] 2", 2, "'!'"),
        ("[! 1 2", 6, "unexpected '2'"),
        ("<! 1] 2", 5, "unexpected ']'"),
        ("AND 1", 5, "'('"),
        ("AND()", 5, "unexpected ')'"),
        ("1 # 2", 3, "unexpected character '#'"),
        ("Forall p 1", 8, "variable"),
        ("", 1, "end of input"),
        ("(alice,bob) knows that 1", 7, "knows that"),
        ("alice knows", 7, "unexpected 'knows'"),
    ],
)
def test_formula_syntax_errors(text: str, column: int, fragment: str) -> None:
    with pytest.raises(FormulaSyntaxError) as info:
        f(text)
    assert info.value.line == 1
    assert info.value.column == column
    assert fragment in str(info.value)


def test_syntax_error_in_file_has_line_column_and_caret() -> None:
    text = "VARS 1,2\nLAW Top\nOBS a: 1\nVALID? 1 &\nWHERE? 2"
    with pytest.raises(FormulaSyntaxError) as info:
        parse_smcdel(text)
    err = info.value
    assert (err.line, err.column) == (5, 1)
    assert str(err).splitlines() == [
        "line 5, column 1: unexpected 'WHERE?'; expected a formula (a number, Top, ~, K, "
        "'a knows that', [!…], '(' …)",
        "  WHERE? 2",
        "  ^",
    ]


@pytest.mark.parametrize(
    ("text", "line", "column", "fragment"),
    [
        ("LAW Top OBS", 1, 1, "'VARS'"),
        ("VARS 1, LAW Top OBS", 1, 9, "variable"),
        ("VARS 1 Top OBS", 1, 8, "'LAW'"),
        ("VARS 1 LAW Top a: 1", 1, 16, "'OBS'"),
        ("VARS 1 LAW Top OBS a 1", 1, 22, "':'"),
        ("VARS 1 LAW Top OBS a: 1,", 1, 25, "variable"),
        ("VARS 1 LAW Top OBS a: 1\nTRUE? 1", 2, 7, "'{'"),
        ("VARS 1 LAW Top OBS a: 1\nTRUE? {1 1", 2, 10, "'}'"),
        ("VARS 1 LAW Top OBS a: 1\nVALID?", 2, 7, "expected a formula"),
        ("VARS 1 LAW Top OBS a: 1\nVALID? 1 )", 2, 10, "job"),
        ("VARS 1 LAW Top OBS a: 1\nTRUE {1} 1", 2, 6, "':' after the agent name 'TRUE'"),
        ("VARS x LAW Top OBS", 1, 6, "variable"),
    ],
)
def test_file_syntax_errors(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(FormulaSyntaxError) as info:
        parse_smcdel(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert fragment in str(info.value)


# --- model errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "column", "fragment"),
    [
        ("VARS LAW Top OBS", 1, 6, "VARS declares no variable"),
        ("VARS 1,2,1 LAW Top OBS", 1, 10, "variable 1 is declared twice"),
        ("VARS 1,2 LAW Top OBS a: 1,3", 1, 27, "variable 3 is not declared in VARS (1, 2)"),
        ("VARS 1,2 LAW Top OBS a: 1\n a: 2", 2, 2, "agent 'a' is named twice"),
        ("VARS 1,2 LAW 1 & 4 OBS", 1, 18, "variable 4 is not declared"),
        ("VARS 1 LAW Top OBS a: 1\nVALID? 1 | 9", 2, 12, "variable 9 is not declared"),
        ("VARS 1 LAW Top OBS a: 1\nTRUE? {1,5} 1", 2, 10, "variable 5 is not declared"),
        ("VARS 1 LAW Top OBS a: 1\nVALID? Forall 2 1", 2, 15, "variable 2"),
        ("VARS 1 LAW K a 1 OBS a: 1", 1, 12, "the LAW must be a Boolean formula"),
        ("VARS 1 LAW 1 & a knows that 1 OBS a: 1", 1, 18, "Boolean"),
        ("VARS 1 LAW [! 1] 1 OBS a: 1", 1, 12, "announcement"),
        ("VARS 1 LAW (a,b) comknow that 1 OBS a: 1", 1, 18, "Boolean"),
    ],
)
def test_model_errors_at_parse_time(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(SmcdelModelError) as info:
        parse_smcdel(text)
    err = info.value
    assert isinstance(err, ModelError) and isinstance(err, ValueError)
    assert (err.line, err.column) == (line, column)
    assert fragment in str(err)
    assert str(err).splitlines()[-1].index("^") == column + 1  # two spaces of indent


@pytest.mark.parametrize(
    ("job", "column"),
    [
        ("VALID? dave knows that 1", 8),
        ("VALID? K dave 1", 10),
        ("VALID? (a,dave) comknow that 1", 11),
        ("VALID? dave distknow whether 1", 8),
        ("VALID? [a,dave ! 1] 1", 11),
        ("VALID? 1 & <dave ?! 1> 1", 13),
    ],
)
def test_unknown_agent(job: str, column: int) -> None:
    with pytest.raises(SmcdelUnknownAgentError) as info:
        parse_smcdel("VARS 1 LAW Top OBS a: 1 b: 1\n" + job)
    err = info.value
    assert isinstance(err, UnknownAgentError)
    assert (err.line, err.column) == (2, column)
    assert "unknown agent 'dave'; the agents in OBS are: a, b" in str(err)


def test_unsatisfiable_law() -> None:
    data = parse_smcdel("VARS 1,2\nLAW   1 & ~1\nOBS a: 1\nVALID? 1")
    with pytest.raises(SmcdelModelError, match="LAW is satisfied by no valuation") as info:
        run_jobs(data)
    assert (info.value.line, info.value.column) == (2, 7)
    with pytest.raises(SmcdelModelError):
        data.model()


def test_true_state_outside_law() -> None:
    data = parse_smcdel("VARS 1,2 LAW ~(1 & 2) OBS a: 1\nTRUE? {1} 1\nTRUE?  {1,2} 1")
    with pytest.raises(SmcdelModelError, match=r"state \{1,2\} does not satisfy the LAW") as e:
        run_jobs(data)
    assert (e.value.line, e.value.column) == (3, 8)


def test_too_many_variables() -> None:
    text = "VARS " + ",".join(str(i) for i in range(1, 23)) + " LAW Top OBS a: 1"
    with pytest.raises(SmcdelModelError, match="too many") as info:
        parse_smcdel(text).model()
    assert (info.value.line, info.value.column) == (1, 1)


def test_formula_checks_against_given_vocabulary() -> None:
    assert parse_smcdel_formula("a knows that 1", [1], ["a"]) == K("a", P1)
    with pytest.raises(SmcdelModelError, match="variable 2"):
        parse_smcdel_formula("2", [1], ["a"])
    with pytest.raises(SmcdelUnknownAgentError, match="agents in OBS are: a"):
        parse_smcdel_formula("b knows that 1", [1], ["a"])
    with pytest.raises(SmcdelUnknownAgentError, match=r"\(none\)"):
        parse_smcdel_formula("b knows that 1", [1], [])


def test_true_at_api() -> None:
    data = parse_smcdel("VARS 1,2 LAW ~(1 & 2) OBS a: 1")
    assert data.true_at([1], K("a", Not(P2)))
    assert not data.true_at([], K("a", Not(P2)))
    with pytest.raises(ModelError, match="does not satisfy"):
        data.true_at([1, 2], P1)
    with pytest.raises(ModelError, match="variable 3 not in VARS"):
        data.true_at([3], P1)


def test_parse_smcdel_needs_text() -> None:
    with pytest.raises(TypeError):
        parse_smcdel(b"VARS 1")  # type: ignore[arg-type]


# --- semantics of the dynamic operators ---------------------------------------------------


def _where(structure: str, formula: str) -> list[frozenset[int]]:
    data = parse_smcdel(structure + "\nWHERE? " + formula)
    answer = run_jobs(data)[0].answer
    assert isinstance(answer, list)
    return answer


TWO = "VARS 1,2 LAW Top OBS a: 1 b: 2"


def test_public_announcement_box_and_diamond() -> None:
    assert _where(TWO, "[! 1] b knows that 1") == [set(), {1}, {1, 2}, {2}]
    assert _where(TWO, "<! 1> b knows that 1") == [{1}, {1, 2}]
    assert _where(TWO, "<! 1> Top") == [{1}, {1, 2}]


def test_announce_whether() -> None:
    assert _where(TWO, "[?! 1] b knows whether 1") == [set(), {1}, {1, 2}, {2}]
    assert _where(TWO, "<?! 1> b knows whether 1") == [set(), {1}, {1, 2}, {2}]


def test_group_announcement_informs_only_the_group() -> None:
    # b learns 1; a does not learn that 2 holds (a public announcement would tell it),
    # but a knows that b learnt whether 1 (SMCDEL's semantics: the event is public).
    assert _where(TWO, "<b ! 1> b knows that 1") == [{1}, {1, 2}]
    assert _where(TWO, "<b ! 1 & 2> a knows that 2") == []
    assert _where(TWO, "<! 1 & 2> a knows that 2") == [{1, 2}]
    assert _where(TWO, "<b ! 1> ~ a knows whether 2") == [{1}, {1, 2}]
    assert _where(TWO, "[b ! 1] a knows that b knows whether 1") == [set(), {1}, {1, 2}, {2}]
    assert _where(TWO, "b knows whether 1") == []
    assert _where(TWO, "[b ?! 1] (b knows whether 1 & ~ a knows whether 2)") == [
        set(),
        {1},
        {1, 2},
        {2},
    ]


def test_common_and_distributed_knowledge() -> None:
    assert _where(TWO, "(a,b) distknow that (1 & 2)") == [{1, 2}]
    assert _where(TWO, "(a,b) distknow whether (1 & 2)") == [set(), {1}, {1, 2}, {2}]
    assert _where(TWO, "(a,b) comknow whether 1") == []
    assert _where("VARS 1,2 LAW 1 iff 2 OBS a: 1 b: 2", "(a,b) comknow whether 1") == [
        set(),
        {1, 2},
    ]


def test_quantifiers_on_boolean_formulas() -> None:
    assert _where(TWO, "Forall 1 (1 | 2)") == [{1, 2}, {2}]
    assert _where(TWO, "Exists 1,2 (1 & 2)") == [set(), {1}, {1, 2}, {2}]


def test_state_text() -> None:
    assert state_text([]) == "{}"
    assert state_text({3, 1}) == "{1,3}"


def test_smcdel_input_is_reusable() -> None:
    data = parse_smcdel(MUDDY)
    assert isinstance(data, SmcdelInput)
    assert data.model() is data.model()
    assert run_jobs(data) == run_jobs(data)


@pytest.mark.parametrize("brk", ["\n", "\r\n", "\r", "\x0c", "\u2028", "\x85"])
def test_caret_line_matches_reported_line_for_any_line_break(brk: str) -> None:
    text = brk.join(["VARS 1", "LAW Top -- comment", "OBS a: 1", "VALID? 1 &"])
    with pytest.raises(FormulaSyntaxError) as info:
        parse_smcdel(text)
    assert (info.value.line, info.value.column) == (4, 11)
    assert str(info.value).splitlines()[1] == "  VALID? 1 &"


def test_comment_ends_at_any_line_break() -> None:
    data = parse_smcdel("VARS 1 -- vars\rLAW Top -- law\u2028OBS a: 1\x0cVALID? 1 | ~1")
    assert [r.answer for r in run_jobs(data)] == [True]
