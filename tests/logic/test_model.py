"""Model checking against a naive reference evaluator, and the KripkeModel API."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from epigames.errors import ModelError, UnknownAgentError
from epigames.logic import (
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
    KripkeModel,
    Kw,
    M,
    Not,
    OneOf,
    Or,
    Top,
    Xor,
    parse,
)
from tests.logic.strategies import Case, ModelSpec, cases

# --- the reference evaluator: plain sets, recursion, no memo -------------------------------


@dataclass(frozen=True)
class Ref:
    """A model as plain sets; worlds keep their original numbers through restrictions."""

    worlds: frozenset[int]
    val: dict[str, frozenset[int]]
    rel: dict[str, frozenset[tuple[int, int]]]

    @classmethod
    def of(cls, spec: ModelSpec) -> Ref:
        return cls(frozenset(range(spec.n)), dict(spec.val), dict(spec.rel))

    def restrict(self, keep: frozenset[int]) -> Ref:
        rel = {a: frozenset((u, v) for u, v in es if u in keep and v in keep)
               for a, es in self.rel.items()}  # fmt: skip
        return Ref(self.worlds & keep, self.val, rel)

    def split(self, truth: frozenset[int], agents: tuple[str, ...]) -> Ref:
        rel = {
            a: frozenset((u, v) for u, v in es if a not in agents or (u in truth) == (v in truth))
            for a, es in self.rel.items()
        }
        return Ref(self.worlds, self.val, rel)

    def succ(self, agent: str, w: int) -> set[int]:
        return {v for u, v in self.rel[agent] if u == w}

    def box(self, agent: str, truth: frozenset[int]) -> frozenset[int]:
        return frozenset(w for w in self.worlds if self.succ(agent, w) <= truth)

    def reachable(self, group: tuple[str, ...], w: int) -> set[int]:
        """Worlds reachable from w in one or more steps along any relation of the group."""
        seen: set[int] = set()
        todo = [w]
        while todo:
            u = todo.pop()
            for a in group:
                for v in self.succ(a, u):
                    if v not in seen:
                        seen.add(v)
                        todo.append(v)
        return seen


def ref_eval(f: Formula, m: Ref) -> frozenset[int]:
    """The worlds of m where f is true, computed straight from the definitions."""
    W = m.worlds
    if isinstance(f, Top):
        return W
    if isinstance(f, Bot):
        return frozenset()
    if isinstance(f, Atom):
        return m.val.get(f.name, frozenset()) & W
    if isinstance(f, Not):
        return W - ref_eval(f.arg, m)
    if isinstance(f, And | Or | Xor | OneOf):
        sets = [ref_eval(a, m) for a in f.args]
        counts = {w: sum(w in s for s in sets) for w in W}
        test = {
            And: lambda c: c == len(sets),
            Or: lambda c: c >= 1,
            Xor: lambda c: c % 2 == 1,
            OneOf: lambda c: c == 1,
        }[type(f)]
        return frozenset(w for w in W if test(counts[w]))
    if isinstance(f, Implies):
        return (W - ref_eval(f.left, m)) | ref_eval(f.right, m)
    if isinstance(f, Iff):
        a, b = ref_eval(f.left, m), ref_eval(f.right, m)
        return frozenset(w for w in W if (w in a) == (w in b))
    if isinstance(f, K | Kw | M):
        t = ref_eval(f.arg, m)
        if isinstance(f, K):
            return m.box(f.agent, t)
        if isinstance(f, M):
            return frozenset(w for w in W if m.succ(f.agent, w) & t)
        return m.box(f.agent, t) | m.box(f.agent, W - t)
    if isinstance(f, E | C | D | Ew | Cw | Dw):
        t = ref_eval(f.arg, m)
        g = f.group

        def group_box(truth: frozenset[int]) -> frozenset[int]:
            if isinstance(f, E | Ew):
                return frozenset(w for w in W if all(m.succ(a, w) <= truth for a in g))
            if isinstance(f, D | Dw):
                return frozenset(
                    w for w in W if set.intersection(*(m.succ(a, w) for a in g)) <= truth
                )
            return frozenset(w for w in W if m.reachable(g, w) <= truth)

        if isinstance(f, Ew):  # everybody knows whether: every member knows whether
            return frozenset(
                w for w in W if all(m.succ(a, w) <= t or not (m.succ(a, w) & t) for a in g)
            )
        if isinstance(f, Cw | Dw):
            return group_box(t) | group_box(W - t)
        return group_box(t)
    if isinstance(f, Announce):
        pre = ref_eval(f.pre, m)
        if f.group is None and not f.whether:
            inner = ref_eval(f.post, m.restrict(pre))
        else:
            agents = tuple(m.rel) if f.group is None else f.group
            inner = ref_eval(f.post, m.split(pre, agents))
        if f.whether:
            return inner
        return (pre & inner) if f.diamond else ((W - pre) | inner)
    if isinstance(f, Forall | Exists):
        results = []
        for values in product((True, False), repeat=len(f.variables)):
            val = dict(m.val)
            for v, b in zip(f.variables, values, strict=True):
                val[v] = W if b else frozenset()
            results.append(ref_eval(f.arg, Ref(W, val, m.rel)))
        if isinstance(f, Forall):
            return frozenset.intersection(*results)
        return frozenset.union(*results)
    raise AssertionError(f"unknown node {f!r}")


def engine_set(model: KripkeModel, f: Formula) -> frozenset[int]:
    return frozenset(int(w) for w in model.where(f))


@settings(max_examples=200, deadline=None)
@given(cases("s5", count=4))
def test_model_checking_matches_reference_on_s5_models(case: Case) -> None:
    spec, fs = case.spec, case.formulas
    model, ref = spec.build(), Ref.of(spec)
    for f in fs:
        assert engine_set(model, f) == ref_eval(f, ref), str(f)


@settings(max_examples=200, deadline=None)
@given(cases("k", count=4, group_ops=(E, C, D, Cw, Dw)))
def test_model_checking_matches_reference_on_k_models(case: Case) -> None:
    # Ew is left out here and checked on its own below, so that one disagreement does
    # not hide others.
    spec, fs = case.spec, case.formulas
    model, ref = spec.build(), Ref.of(spec)
    for f in fs:
        assert engine_set(model, f) == ref_eval(f, ref), str(f)


@settings(max_examples=100, deadline=None)
@given(cases("k", count=2, depth=2))
def test_everybody_knows_whether_is_every_member_knows_whether_on_k_models(case: Case) -> None:
    spec, fs = case.spec, case.formulas
    model = spec.build()
    for f in fs:
        for g in [spec.agents, spec.agents[:1]]:
            each = And(tuple(Kw(a, f) for a in g))
            assert model.valid(Iff(Ew(g, f), each)), f"Ew_{set(g)} {f}"


def test_everybody_knows_whether_counterexample() -> None:
    # a believes p, b believes ~p: each knows whether p, so everybody knows whether p.
    m = KripkeModel.build(
        ["w", "u", "v"],
        {"u": ["p"]},
        relations={"a": [("w", "u")], "b": [("w", "v")]},
        designated=["w"],
    )
    assert m.holds(parse("Kw_a p & Kw_b p"))
    assert m.holds(parse("Ew_{a,b} p"))


@settings(max_examples=100, deadline=None)
@given(cases("s5", count=8), st.randoms(use_true_random=False))
def test_memoised_answers_do_not_depend_on_the_order_of_questions(case: Case, rnd: object) -> None:
    spec, fs = case.spec, case.formulas
    shared = spec.build()
    # Warm the cache with every subformula, in a shuffled order.
    subs = [g for f in fs for g in f.walk()]
    rnd.shuffle(subs)  # type: ignore[attr-defined]
    for g in subs:
        shared.truth_set(g)
    for f in fs:
        assert np.array_equal(shared.truth_set(f), spec.build().truth_set(f)), str(f)


def test_truth_sets_are_read_only() -> None:
    m = KripkeModel.build(["w", "v"], {"w": ["p"]}, partitions={"a": [["w", "v"]]})
    t = m.truth_set(Atom("p"))
    with pytest.raises(ValueError):
        t[1] = True
    assert m.where(Atom("p")) == ["w"]
    with pytest.raises(ValueError):
        m.truth_set(Not(Atom("p")))[0] = True
    assert m.where(Not(Atom("p"))) == ["v"]


# --- the KripkeModel API ----------------------------------------------------------------


@pytest.fixture
def muddy() -> KripkeModel:
    """Two agents, two atoms; a sees q, b sees p; the actual world is pq."""
    worlds = ["pq", "p", "q", "none"]
    return KripkeModel.build(
        worlds,
        {"pq": ["p", "q"], "p": ["p"], "q": ["q"]},
        partitions={"a": [["pq", "p"], ["q", "none"]], "b": [["pq", "q"], ["p", "none"]]},
        designated=["pq"],
    )


def test_basic_queries(muddy: KripkeModel) -> None:
    assert muddy.size == 4
    assert muddy.atoms == ("p", "q")
    assert muddy.is_s5()
    assert muddy.world_atoms(0) == {"p", "q"}
    assert muddy.where(parse("p")) == ["pq", "p"]
    assert muddy.holds(parse("K_a p & ~K_a q & K_b q & ~K_b p"))
    assert muddy.holds(parse("~p"), "none")
    assert not muddy.holds(parse("p"), "q")
    assert muddy.valid(parse("Kw_a p & Kw_b q"))
    assert not muddy.valid(parse("p"))
    assert muddy.holds(parse("~C_{a,b} p & E_{a,b} (p | q) & ~E_{a,b} E_{a,b} (p | q)"))
    assert muddy.holds(parse("D_{a,b} (p & q)"))


def test_holds_needs_a_designated_world_or_a_known_name(muddy: KripkeModel) -> None:
    bare = muddy.with_designated([])
    with pytest.raises(ModelError):
        bare.holds(Atom("p"))
    with pytest.raises(ModelError):
        muddy.holds(Atom("p"), "nowhere")
    assert muddy.with_designated(["none"]).holds(parse("~p & ~q"))
    assert muddy.with_designated([1, 2]).designated == (1, 2)


def test_with_designated_rejects_unknown_worlds(muddy: KripkeModel) -> None:
    with pytest.raises(ModelError):
        muddy.with_designated(["nowhere"])
    with pytest.raises(ModelError):
        muddy.with_designated([7])


def test_several_designated_worlds_must_all_satisfy(muddy: KripkeModel) -> None:
    m = muddy.with_designated(["pq", "p"])
    assert m.holds(Atom("p"))
    assert not m.holds(Atom("q"))


def test_announce_restricts_to_the_true_worlds(muddy: KripkeModel) -> None:
    after = muddy.announce(parse("p | q"))
    assert after.worlds == ("pq", "p", "q")
    assert after.designated == (0,)
    assert after.holds(parse("~K_a p | K_a p"))
    assert not after.holds(parse("K_a q"))
    after2 = after.announce(parse("~K_a q & ~K_b p"))
    assert after2.worlds == ("pq",)
    assert after2.holds(parse("C_{a,b} (p & q)"))


def test_announce_of_a_falsehood_raises_model_error(muddy: KripkeModel) -> None:
    with pytest.raises(ModelError) as info:
        muddy.announce(parse("~p"))
    assert "~p" in str(info.value)
    with pytest.raises(ModelError):
        muddy.announce_to(["a"], parse("~q"))
    with pytest.raises(ModelError):
        muddy.announce(Bot())


def test_announce_drops_designated_worlds_where_false(muddy: KripkeModel) -> None:
    m = muddy.with_designated(["pq", "q"]).announce(Atom("p"))
    assert [m.worlds[d] for d in m.designated] == ["pq"]


def test_announce_whether_splits_everyone(muddy: KripkeModel) -> None:
    m = muddy.announce_whether(Atom("p"))
    assert m.size == 4
    assert m.valid(parse("Kw_a p & Kw_b p & Kw_b q & C_{a,b} (Kw_a p & Kw_b p)"))
    assert not m.valid(parse("Kw_a q"))


def test_announce_to_a_group(muddy: KripkeModel) -> None:
    m = muddy.announce_to(["b"], Atom("p"))
    assert m.size == 4
    assert m.holds(parse("K_b p & K_b q & K_a K_b p"))
    assert m.holds(parse("K_a (Kw_b p)"))
    assert not m.holds(parse("K_a q"))


@pytest.mark.parametrize(
    "text",
    [
        "K_x p",
        "Kw_x p",
        "M_x p",
        "E_{a,x} p",
        "C_{x} p",
        "D_{a,x} p",
        "Cw_{x} p",
        "[x!p] q",
        "[a,x?!p] q",
        "[!p] K_x q",
        "p | K_x q",
        "forall {p} K_x p",
    ],
)
def test_unknown_agents_raise_and_list_the_agents(muddy: KripkeModel, text: str) -> None:
    with pytest.raises(UnknownAgentError) as info:
        muddy.truth_set(parse(text))
    msg = str(info.value)
    assert "'x'" in msg and "a" in msg and "b" in msg
    assert isinstance(info.value, ValueError)


def test_unknown_agent_in_announce_to(muddy: KripkeModel) -> None:
    with pytest.raises(UnknownAgentError):
        muddy.announce_to(["zed"], Atom("p"))


def test_atoms_missing_from_the_valuation_are_false(muddy: KripkeModel) -> None:
    assert muddy.where(Atom("nothing")) == []
    assert muddy.valid(parse("~nothing & K_a ~nothing"))


@pytest.mark.parametrize(
    "partitions",
    [
        {"a": [["w", "v"], ["v", "u"]]},  # overlapping
        {"a": [["w", "v"]]},  # u missing
        {"a": [["w", "v", "u", "t"]]},  # unknown world
        {"a": [["w", "v", "u"]], "b": [["w"], ["v"]]},  # b misses u
        {"a": [["w"], ["v", "x"], ["u"]]},  # unknown world
    ],
)
def test_build_rejects_bad_partitions(partitions: dict[str, list[list[str]]]) -> None:
    with pytest.raises(ModelError):
        KripkeModel.build(["w", "v", "u"], {}, partitions=partitions)


def test_build_rejects_other_bad_input() -> None:
    with pytest.raises(ModelError):
        KripkeModel.build(["w", "w"], {}, partitions={"a": [["w"]]})
    with pytest.raises(ModelError):
        KripkeModel.build(["w"], {"v": ["p"]}, partitions={"a": [["w"]]})
    with pytest.raises(ModelError):
        KripkeModel.build(["w"], {}, partitions={"a": [["w"]]}, designated=["v"])
    with pytest.raises(ModelError):
        KripkeModel.build(["w"], {}, relations={"a": [("w", "v")]})
    with pytest.raises(ModelError):
        KripkeModel.build(["w"], {}, partitions={"a": [["w"]]}, relations={"a": [("w", "w")]})


def test_build_accepts_int_world_names() -> None:
    m = KripkeModel.build([0, 1], {1: ["p"]}, partitions={"a": [[0, 1]]}, designated=[1])
    assert m.worlds == ("0", "1")
    assert m.holds(Atom("p"))
    assert m.holds(Not(Atom("p")), 0)
    assert not m.holds(parse("K_a p"))


def test_empty_group_modality_is_an_error() -> None:
    # Rejected when the formula is built, so no model ever sees one.
    with pytest.raises(ValueError, match="non-empty group"):
        E((), Atom("p"))


def test_restrict_and_split_keep_the_model_consistent(muddy: KripkeModel) -> None:
    keep = np.array([True, False, True, True])
    sub = muddy.restrict(keep)
    assert sub.worlds == ("pq", "q", "none")
    assert sub.designated == (0,)
    assert sub.holds(parse("K_a p"))  # its block lost world "p" but kept "pq"
    assert muddy.restrict(np.array([False, True, True, True])).designated == ()
    split = muddy.split(muddy.truth_set(Atom("q")), ["a"])
    assert split.holds(parse("K_a (p & q)"))


def test_repr_mentions_size_and_kinds(muddy: KripkeModel) -> None:
    text = repr(muddy)
    assert "4 worlds" in text and "S5" in text
