"""Logical laws on random models: S5 and K validities, reduction axioms, bisimulation."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from epigames.logic import (
    And,
    Announce,
    Atom,
    C,
    D,
    E,
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
    Xor,
    bisimilarity_classes,
    contract,
)
from epigames.logic.bisimulation import reachable
from tests.logic.strategies import ModelSpec, cases as random_cases

SETTINGS = settings(max_examples=60, deadline=None)


def cases(
    kind: str = "s5", count: int = 2, depth: int = 3
) -> st.SearchStrategy[tuple[ModelSpec, KripkeModel, list[Formula], str, tuple[str, ...]]]:
    """A model, formulas over it, one of its agents and a group containing that agent."""
    return random_cases(kind, count, depth).map(
        lambda c: (c.spec, c.spec.build(), list(c.formulas), c.agent, c.group)
    )


def valid(m: KripkeModel, f: Formula) -> None:
    assert m.valid(f), f"not valid: {f}  (false at {m.where(Not(f))})"


# --- S5 ---------------------------------------------------------------------------------


@SETTINGS
@given(cases())
def test_s5_truth_positive_and_negative_introspection(case) -> None:  # type: ignore[no-untyped-def]
    _, m, (f, _g), a, _ = case
    valid(m, Implies(K(a, f), f))
    valid(m, Implies(K(a, f), K(a, K(a, f))))
    valid(m, Implies(Not(K(a, f)), K(a, Not(K(a, f)))))


@SETTINGS
@given(cases())
def test_s5_knowing_whether_and_possibility(case) -> None:  # type: ignore[no-untyped-def]
    _, m, (f, _g), a, _ = case
    valid(m, Iff(Kw(a, f), Or((K(a, f), K(a, Not(f))))))
    valid(m, Iff(M(a, f), Not(K(a, Not(f)))))


@SETTINGS
@given(cases())
def test_s5_group_knowledge(case) -> None:  # type: ignore[no-untyped-def]
    _, m, (f, _g), a, group = case
    valid(m, Implies(C(group, f), E(group, f)))
    valid(m, Implies(C(group, f), E(group, C(group, f))))
    valid(m, Implies(C(group, f), C(group, C(group, f))))
    valid(m, Iff(E(group, f), And(tuple(K(b, f) for b in group))))
    valid(m, Iff(D((a,), f), K(a, f)))
    valid(m, Implies(K(a, f), D(group, f)))
    valid(m, Implies(D(group, f), f))
    valid(m, Iff(C((a,), f), K(a, f)))


@SETTINGS
@given(cases(kind="s5"))
def test_s5_common_knowledge_is_the_fixpoint(case) -> None:  # type: ignore[no-untyped-def]
    # C φ ↔ E(φ ∧ C φ), and C φ follows from any ψ with ψ → E(φ ∧ ψ) valid (induction),
    # here checked with the brute-force iteration E^1 ∧ … ∧ E^n.
    _, m, (f, _g), _, group = case
    valid(m, Iff(C(group, f), E(group, And((f, C(group, f))))))
    iterated = []
    level: Formula = f
    for _ in range(m.size + 1):
        level = E(group, level)
        iterated.append(level)
    valid(m, Iff(C(group, f), And(tuple(iterated))))


@SETTINGS
@given(cases(count=3, depth=2))
def test_xor_and_oneof_against_a_direct_count(case) -> None:  # type: ignore[no-untyped-def]
    _, m, fs, _, _ = case
    sets = [m.truth_set(f) for f in fs]
    for k in range(len(fs) + 1):
        args = tuple(fs[:k])
        counts = [sum(bool(s[w]) for s in sets[:k]) for w in range(m.size)]
        assert m.truth_set(Xor(args)).tolist() == [c % 2 == 1 for c in counts]
        assert m.truth_set(OneOf(args)).tolist() == [c == 1 for c in counts]
        assert m.truth_set(And(args)).tolist() == [c == k for c in counts]
        assert m.truth_set(Or(args)).tolist() == [c >= 1 for c in counts]


# --- K models -----------------------------------------------------------------------------


@SETTINGS
@given(cases(kind="k"))
def test_k_distribution_axiom(case) -> None:  # type: ignore[no-untyped-def]
    _, m, (f, g), a, group = case
    valid(m, Implies(K(a, Implies(f, g)), Implies(K(a, f), K(a, g))))
    valid(m, Implies(C(group, Implies(f, g)), Implies(C(group, f), C(group, g))))
    valid(m, Implies(D(group, Implies(f, g)), Implies(D(group, f), D(group, g))))


@SETTINGS
@given(cases(kind="k"))
def test_k_common_knowledge_is_reachability(case) -> None:  # type: ignore[no-untyped-def]
    spec, m, (f, _g), _, group = case
    truth = m.truth_set(f).tolist()
    succ = {w: set() for w in range(spec.n)}
    for a in group:
        for u, v in spec.rel[a]:
            succ[u].add(v)
    expected = []
    for w in range(spec.n):
        seen: set[int] = set()
        frontier = set(succ[w])
        while frontier:
            seen |= frontier
            frontier = {v for u in frontier for v in succ[u]} - seen
        expected.append(all(truth[v] for v in seen))
    assert m.truth_set(C(group, f)).tolist() == expected


# --- public announcement reduction axioms -------------------------------------------------


@SETTINGS
@given(cases(kind="any", count=3))
def test_public_announcement_reduction_axioms(case) -> None:  # type: ignore[no-untyped-def]
    _, m, (phi, psi, chi), a, group = case

    def ann(pre: Formula, post: Formula) -> Announce:
        return Announce(pre, post)

    for q in ("p", "q", "s"):
        valid(m, Iff(ann(phi, Atom(q)), Implies(phi, Atom(q))))
    valid(m, Iff(ann(phi, Not(psi)), Implies(phi, Not(ann(phi, psi)))))
    valid(m, Iff(ann(phi, And((psi, chi))), And((ann(phi, psi), ann(phi, chi)))))
    valid(m, Iff(ann(phi, K(a, psi)), Implies(phi, K(a, ann(phi, psi)))))
    valid(m, Iff(ann(phi, ann(psi, chi)), ann(And((phi, ann(phi, psi))), chi)))
    valid(m, Iff(Announce(phi, psi, diamond=True), And((phi, ann(phi, psi)))))
    valid(m, Iff(ann(phi, E(group, psi)), Implies(phi, E(group, ann(phi, psi)))))


@SETTINGS
@given(cases(kind="s5", count=2))
def test_announce_whether_is_a_choice_of_two_announcements(case) -> None:  # type: ignore[no-untyped-def]
    # In S5, [?!φ]ψ at a φ-world agrees with [!φ]ψ for ψ's that do not look across the
    # split; for knowledge: [?!φ] K_a ψ ↔ ((φ ∧ K_a(φ → [?!φ]ψ)) ∨ (¬φ ∧ K_a(¬φ → [?!φ]ψ))).
    _, m, (phi, psi), a, _ = case
    w = Announce(phi, psi, whether=True)
    lhs = Announce(phi, K(a, psi), whether=True)
    rhs = Or((And((phi, K(a, Implies(phi, w)))), And((Not(phi), K(a, Implies(Not(phi), w))))))
    valid(m, Iff(lhs, rhs))
    valid(m, Iff(Announce(phi, Atom("p"), whether=True), Atom("p")))
    if phi.is_boolean():  # a fact's truth does not change, so afterwards everyone knows it
        valid(m, Announce(phi, Kw(a, phi), whether=True))


# --- bisimulation contraction -------------------------------------------------------------


def _glued(spec: ModelSpec) -> KripkeModel:
    """Two disjoint copies of the model side by side."""
    n = spec.n
    worlds = [str(i) for i in range(2 * n)]
    valuation = {
        str(w + off): [a for a, ws in spec.val.items() if w in ws]
        for w in range(n)
        for off in (0, n)
    }
    if spec.blocks is not None:
        parts = {
            a: [[str(w + off) for w in b] for b in blocks for off in (0,)]
            + [[str(w + n) for w in b] for b in blocks]
            for a, blocks in spec.blocks.items()
        }
        return KripkeModel.build(worlds, valuation, partitions=parts)
    rels = {
        a: [(str(u + off), str(v + off)) for u, v in es for off in (0, n)]
        for a, es in spec.rel.items()
    }
    return KripkeModel.build(worlds, valuation, relations=rels)


@SETTINGS
@given(cases(kind="any", count=3))
def test_contraction_keeps_the_truth_of_formulas(case) -> None:  # type: ignore[no-untyped-def]
    _, m, fs, _, _ = case
    small = contract(m)
    ids = bisimilarity_classes(m)
    assert small.size == len(set(ids.tolist()))
    assert small.size <= m.size
    assert small.is_s5() == m.is_s5()
    # class of each world in the contracted model: the world named like its representative
    cls_world = {}
    for w in range(m.size):
        reps = [i for i, name in enumerate(small.worlds)
                if ids[m.worlds.index(name)] == ids[w]]  # fmt: skip
        assert len(reps) == 1
        cls_world[w] = reps[0]
    for f in fs:
        big_t, small_t = m.truth_set(f), small.truth_set(f)
        for w in range(m.size):
            assert bool(big_t[w]) == bool(small_t[cls_world[w]]), (str(f), w)


@SETTINGS
@given(cases(kind="any", count=1))
def test_contraction_is_idempotent_and_glued_copies_collapse(case) -> None:  # type: ignore[no-untyped-def]
    spec, m, _, _, _ = case
    small = contract(m)
    assert contract(small).size == small.size
    glued = _glued(spec)
    assert glued.size == 2 * m.size
    assert contract(glued).size == small.size
    ids = bisimilarity_classes(glued)
    assert (ids[: m.size] == ids[m.size :]).all()


def test_bisimilar_worlds_are_merged_and_designated_kept() -> None:
    # Three worlds, two of them indistinguishable copies.
    m = KripkeModel.build(
        ["w", "v", "u"],
        {"w": ["p"], "v": ["p"]},
        partitions={"a": [["w", "v", "u"]], "b": [["w"], ["v"], ["u"]]},
        designated=["v"],
    )
    small = contract(m)
    assert small.size == 2
    assert small.holds(Atom("p"))
    assert small.holds(Not(K("a", Atom("p"))))
    assert small.holds(K("b", Atom("p")))
    assert len(small.designated) == 1


def test_contraction_of_a_relational_chain() -> None:
    # w0 -> w1 -> w2 -> w2 with p nowhere: w0, w1, w2 all see some world and are bisimilar.
    m = KripkeModel.build(
        ["0", "1", "2", "3"],
        {},
        relations={"a": [("0", "1"), ("1", "2"), ("2", "2")]},
    )
    ids = bisimilarity_classes(m)
    assert ids[0] == ids[1] == ids[2] != ids[3]
    assert contract(m).size == 2
    assert np.array_equal(
        contract(m).truth_set(M("a", Atom("p") | ~Atom("p"))), np.array([True, False])
    )


def test_contraction_keeps_only_worlds_reachable_from_the_designated() -> None:
    # u is unreachable from w: a sees w and v together, b sees them apart, u alone.
    m = KripkeModel.build(
        ["w", "v", "u", "x"],
        {"w": ["p"], "u": ["q"], "x": ["p", "q"]},
        partitions={"a": [["w", "v"], ["u", "x"]], "b": [["w"], ["v"], ["u"], ["x"]]},
        designated=["w"],
    )
    small = contract(m)
    assert set(small.worlds) == {"w", "v"}
    for f in (Atom("q"), K("a", Atom("p")), Not(K("a", Atom("p"))), M("a", Not(Atom("p")))):
        assert small.holds(f) == m.holds(f)
    chain = KripkeModel.build(
        ["0", "1", "2", "3"], {"3": ["p"]},
        relations={"a": [("1", "2"), ("2", "0"), ("3", "1")]}, designated=["1"],
    )  # fmt: skip
    assert sorted(reachable(chain).nonzero()[0].tolist()) == [0, 1, 2]
    assert "3" not in contract(chain).worlds


@SETTINGS
@given(cases(kind="any", count=3))
def test_contraction_from_a_designated_world_keeps_its_truths(case) -> None:  # type: ignore[no-untyped-def]
    _, m, fs, _, _ = case
    pointed = m.with_designated([0])
    small = contract(pointed)
    assert small.size <= contract(m).size
    for f in fs:
        assert small.holds(f) == pointed.holds(f), str(f)
