"""Model updates: announcements, action models and product update."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from epigames.errors import ModelError
from epigames.logic import (
    ActionModel,
    And,
    Announce,
    Atom,
    Formula,
    K,
    KripkeModel,
    Not,
    Top,
    parse,
    product_update,
)
from tests.logic.strategies import (
    MODEL_ATOMS,
    ModelSpec,
    cases as random_cases,
    formulas,
    s5_models,
)

SETTINGS = settings(max_examples=60, deadline=None)
p, q = Atom("p"), Atom("q")

boolean_formulas = formulas(
    st.sampled_from(MODEL_ATOMS),
    st.just("a"),
    depth=3,
    announcements=False,
    quantifiers=False,
    group_ops=(),
).filter(lambda f: f.is_boolean())


def cases(
    kind: str = "s5", count: int = 3
) -> st.SearchStrategy[tuple[ModelSpec, KripkeModel, Formula, list[Formula]]]:
    """A model, a formula to announce and formulas to compare before and after."""
    return random_cases(kind, count + 1, depth=3, max_worlds=8).map(
        lambda c: (c.spec, c.spec.build(), c.formulas[0], list(c.formulas[1:]))
    )


def same_truth(
    left: KripkeModel, right: KripkeModel, pairing: dict[int, int], fs: list[Formula]
) -> None:
    for f in fs:
        lt, rt = left.truth_set(f), right.truth_set(f)
        for i, j in pairing.items():
            assert bool(lt[i]) == bool(rt[j]), (str(f), left.worlds[i], right.worlds[j])


@SETTINGS
@given(cases(kind="any"))
def test_product_with_the_public_announcement_model_is_the_announcement(case) -> None:  # type: ignore[no-untyped-def]
    _spec, m, phi, fs = case
    announced = m.announce(phi)
    product = product_update(m, ActionModel.public_announcement(m.agents, phi))
    assert product.size == announced.size
    assert product.is_s5() == m.is_s5()
    pairing = {
        i: announced.worlds.index(name.split(".")[0]) for i, name in enumerate(product.worlds)
    }
    assert sorted(pairing.values()) == list(range(announced.size))
    same_truth(product, announced, pairing, fs)


@SETTINGS
@given(cases(kind="any"))
def test_announce_whether_is_the_product_with_a_two_event_model(case) -> None:  # type: ignore[no-untyped-def]
    _, m, phi, fs = case
    action = ActionModel.build(
        {"yes": phi, "no": Not(phi)},
        partitions={a: [["yes"], ["no"]] for a in m.agents},
        designated=[],
    )
    product = product_update(m, action)
    split = m.announce_whether(phi)
    assert product.size == split.size == m.size
    pairing = {i: split.worlds.index(name.split(".")[0]) for i, name in enumerate(product.worlds)}
    same_truth(product, split, pairing, fs)
    # and the announcement modality agrees with the update
    for f in fs:
        whether = m.truth_set(Announce(phi, f, whether=True))
        assert np.array_equal(whether, split.truth_set(f)), str(f)


@SETTINGS
@given(cases(kind="any"))
def test_successive_announcements_compose(case) -> None:  # type: ignore[no-untyped-def]
    _, m, phi, fs = case
    psi = fs[0]
    once = m.restrict(m.truth_set(And((phi, Announce(phi, psi)))))
    first = m.restrict(m.truth_set(phi))
    twice = first.restrict(first.truth_set(psi))
    assert once.worlds == twice.worlds
    pairing = {i: i for i in range(once.size)}
    same_truth(once, twice, pairing, fs)


@SETTINGS
@given(cases(kind="any"))
def test_group_announcement_modality_is_a_split_of_the_group(case) -> None:  # type: ignore[no-untyped-def]
    _, m, phi, fs = case
    group = m.agents[:1]
    pre = m.truth_set(phi)
    split = m.split(pre, group)
    for f in fs:
        box = m.truth_set(Announce(phi, f, group))
        dia = m.truth_set(Announce(phi, f, group, diamond=True))
        inner = split.truth_set(f)
        assert np.array_equal(box, ~pre | inner), str(f)
        assert np.array_equal(dia, pre & inner), str(f)


@SETTINGS
@given(cases(kind="any"))
def test_switch_action_flips_the_atom(case) -> None:  # type: ignore[no-untyped-def]
    spec, m, _, fs = case
    switch = ActionModel.build(
        {"flip": (Top(), {"p": Not(p), "t": And((p, q))})},
        partitions={a: [["flip"]] for a in m.agents},
    )
    after = product_update(m, switch)
    assert after.size == m.size
    for w in range(m.size):
        name = after.worlds[w]
        assert name == f"{m.worlds[w]}.flip"
        atoms = after.world_atoms(w)
        assert ("p" in atoms) == (w not in spec.val["p"])
        assert ("q" in atoms) == (w in spec.val["q"])
        assert ("r" in atoms) == (w in spec.val["r"])
        assert ("t" in atoms) == (w in spec.val["p"] and w in spec.val["q"])
    # Everything about p afterwards is what was true about ~p before.
    from epigames.logic import substitute

    pairing = {i: i for i in range(m.size)}
    flipped = [substitute(f, {"p": Not(p)}) for f in fs if "t" not in f.atoms()]
    for f, g in zip(fs, flipped, strict=False):
        assert np.array_equal(after.truth_set(f), m.truth_set(g)), str(f)
    same_truth(after, m, pairing, [K(a, q | ~q) for a in m.agents])


def test_postconditions_read_the_old_valuation() -> None:
    m = KripkeModel.build(["w"], {"w": ["p"]}, partitions={"a": [["w"]]}, designated=["w"])
    swap = ActionModel.build(
        {"e": (Top(), {"p": q, "q": p})}, partitions={"a": [["e"]]}, designated=["e"]
    )
    after = product_update(m, swap)
    assert after.world_atoms(0) == {"q"}
    assert after.holds(parse("~p & q & K_a q"))


def test_factual_change_seen_by_one_agent_only() -> None:
    # p is false; a either sets p or does nothing; a sees which, b does not.
    m = KripkeModel.build(["w"], {}, partitions={"a": [["w"]], "b": [["w"]]}, designated=["w"])
    action = ActionModel.build(
        {"set": (Top(), {"p": Top()}), "nop": Top()},
        partitions={"a": [["set"], ["nop"]], "b": [["set", "nop"]]},
        designated=["set"],
    )
    after = product_update(m, action)
    assert after.size == 2
    assert after.holds(parse("p & K_a p & ~K_b p & ~K_b ~p & K_b Kw_a p"))


@pytest.fixture
def unsure() -> KripkeModel:
    """p is true at w, false at v; neither a nor b nor c can tell."""
    return KripkeModel.build(
        ["w", "v"],
        {"w": ["p"]},
        partitions={x: [["w", "v"]] for x in "abc"},
        designated=["w"],
    )


def test_private_announcement(unsure: KripkeModel) -> None:
    action = ActionModel.private_announcement(unsure.agents, ["a"], p)
    after = product_update(unsure, action)
    assert sorted(after.worlds) == ["v.skip", "w.skip", "w.tell"]
    assert [after.worlds[d] for d in after.designated] == ["w.tell"]
    assert after.holds(parse("K_a p"))
    assert after.holds(parse("~K_b K_a p & ~K_b p & ~K_c K_a p"))
    assert after.holds(parse("~K_b ~K_a p"))  # b considers it possible that a was told
    assert after.holds(parse("K_a ~K_b p & K_a ~K_b K_a p"))
    assert not after.holds(parse("C_{a,b} p"))
    group = product_update(unsure, ActionModel.private_announcement(unsure.agents, ["a", "b"], p))
    assert group.holds(parse("K_a p & K_b p & ~K_c K_a p & ~K_c p"))
    assert group.holds(parse("C_{a,b} p"))


@settings(max_examples=60, deadline=None)
@given(s5_models(max_worlds=8, designated=True), boolean_formulas, boolean_formulas, st.data())
def test_private_announcement_informs_only_the_group(spec, phi, psi, data) -> None:  # type: ignore[no-untyped-def]
    m = spec.build()
    assume(m.holds(phi))
    group = data.draw(st.lists(st.sampled_from(spec.agents), min_size=1, unique=True).map(tuple))
    after = product_update(m, ActionModel.private_announcement(m.agents, group, phi))
    for a in m.agents:
        if a in group:
            assert after.holds(K(a, phi))
        else:
            # outsiders learn no facts
            assert after.holds(K(a, psi)) == m.holds(K(a, psi)), (a, str(psi))


def test_announcing_a_moore_sentence_makes_it_false(unsure: KripkeModel) -> None:
    moore = parse("p & ~K_a p")
    assert unsure.holds(moore)
    after = unsure.announce(moore)
    assert after.holds(parse("K_a p"))
    assert not after.holds(moore)
    assert unsure.holds(parse("[!p & ~K_a p] ~(p & ~K_a p)"))
    assert unsure.holds(parse("<!p & ~K_a p> K_a p"))


def test_product_update_errors(unsure: KripkeModel) -> None:
    with pytest.raises(ModelError):
        product_update(unsure, ActionModel.public_announcement(["a", "b"], p))
    with pytest.raises(ModelError):
        product_update(unsure, ActionModel.public_announcement(["a", "b", "c", "d"], p))
    with pytest.raises(ModelError):  # the designated world cannot host the designated event
        product_update(unsure, ActionModel.public_announcement(unsure.agents, Not(p)))


def test_action_model_build_errors() -> None:
    with pytest.raises(ModelError):
        ActionModel.build({"e": p}, partitions={"a": [["e", "f"]]})
    with pytest.raises(ModelError):
        ActionModel.build({"e": p, "f": q}, partitions={"a": [["e"]]})
    with pytest.raises(ModelError):
        ActionModel.build({"e": p}, relations={"a": [("e", "x")]})
    with pytest.raises(ModelError):
        ActionModel.build({"e": p}, partitions={"a": [["e"]]}, designated=["x"])


def test_action_model_build_rejects_overlapping_event_blocks() -> None:
    # KripkeModel.build refuses a world in two blocks; an event in two blocks is as wrong.
    with pytest.raises(ModelError):
        ActionModel.build({"e": p, "f": q}, partitions={"a": [["e", "f"], ["f"]]})


def test_product_world_names_are_distinct() -> None:
    m = KripkeModel.build(["a.b", "a"], {}, partitions={"x": [["a.b", "a"]]})
    action = ActionModel.build({"c": Top(), "b.c": Top()}, partitions={"x": [["c", "b.c"]]})
    after = product_update(m, action)
    assert after.size == 4
    assert len(set(after.worlds)) == 4, after.worlds


def test_relational_action_model_on_an_s5_model(unsure: KripkeModel) -> None:
    # b wrongly believes nothing happened (KD45-style action model).
    action = ActionModel.build(
        {"tell": p, "skip": Top()},
        relations={
            "a": [("tell", "tell"), ("skip", "skip")],
            "b": [("tell", "skip"), ("skip", "skip")],
            "c": [("tell", "skip"), ("skip", "skip")],
        },
        designated=["tell"],
    )
    after = product_update(unsure, action)
    assert not after.is_s5()
    assert after.holds(parse("K_a p & K_b ~K_a p & ~K_b K_a p"))


def test_announce_keeps_worlds_in_order(unsure: KripkeModel) -> None:
    three = KripkeModel.build(
        ["x", "y", "z"],
        {"x": ["p"], "z": ["p"]},
        partitions={"a": [["x", "y", "z"]]},
        designated=["z"],
    )
    after = three.announce(p)
    assert after.worlds == ("x", "z")
    assert after.designated == (1,)
    assert after.holds(parse("K_a p"))
    assert not unsure.announce(p).holds(parse("~K_a p"))
