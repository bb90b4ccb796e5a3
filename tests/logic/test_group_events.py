"""Who learns a formula: public, group (secret) and semi-private announcements as action models.

The small model: atoms p and q, worlds named by the atoms true there; agent a knows
whether q (and nothing about p), agent b knows nothing; the actual world is `pq`.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from epigames.errors import UnknownAgentError
from epigames.logic import (
    ActionModel,
    Atom,
    Formula,
    K,
    KripkeModel,
    Partition,
    parse,
    product_update,
)
from tests.logic.strategies import cases

p = Atom("p")
WORLDS = ["pq", "p", "q", "none"]


@pytest.fixture
def model() -> KripkeModel:
    return KripkeModel.build(
        WORLDS,
        {"pq": ["p", "q"], "p": ["p"], "q": ["q"]},
        partitions={"a": [["pq", "q"], ["p", "none"]], "b": [WORLDS]},
        designated=["pq"],
    )


def considered(m: KripkeModel, agent: str, world: str) -> set[str]:
    """The worlds the agent cannot tell from `world`."""
    rel = m.relations[agent]
    assert isinstance(rel, Partition)
    block = rel.block[m.worlds.index(world)]
    return {m.worlds[i] for i in np.flatnonzero(rel.block == block)}


def old_world(name: str) -> str:
    return name.split(".")[0]


#: Boolean formulas whose knowledge by b an announcement to a alone must not change.
FACTS = [parse(t) for t in ["p", "~p", "q", "~q", "p & q", "p | q", "p -> q", "p | ~p"]]


def test_the_model_before(model: KripkeModel) -> None:
    # what the announcements below change must not hold already
    assert model.holds(parse("~K_a p & ~K_a ~p & ~K_b p & ~K_b ~p & K_a q"))
    assert not model.holds(parse("C_{a,b} p"))


def test_group_announcement_to_a(model: KripkeModel) -> None:
    after = product_update(model, ActionModel.private_announcement(model.agents, ["a"], p))
    assert sorted(after.worlds) == sorted(
        ["pq.tell", "p.tell", "pq.skip", "p.skip", "q.skip", "none.skip"]
    )
    assert [after.worlds[d] for d in after.designated] == ["pq.tell"]
    assert after.holds(parse("K_a p & K_a q"))
    assert considered(after, "a", "pq.tell") == {"pq.tell"}
    # b considers every old world still, each as if nothing had happened
    seen_by_b = considered(after, "b", "pq.tell")
    assert {old_world(w) for w in seen_by_b} == set(WORLDS)
    assert {w for w in seen_by_b if w.endswith(".skip")} == {f"{w}.skip" for w in WORLDS}
    for fact in FACTS:
        assert after.holds(K("b", fact)) == model.holds(K("b", fact)), str(fact)
    assert after.holds(K("b", parse("p | ~p")))
    assert after.holds(parse("~K_b K_a p & ~K_b ~K_a p"))
    assert after.holds(parse("K_a ~K_b K_a p"))  # a knows b was left out
    assert not after.holds(parse("C_{a,b} p"))


def test_group_announcement_to_everyone_gives_common_knowledge(model: KripkeModel) -> None:
    after = product_update(model, ActionModel.private_announcement(model.agents, ["a", "b"], p))
    assert after.holds(parse("C_{a,b} p & K_b K_a p"))
    # the skip copies are still in the model, unreachable from the actual world
    assert "q.skip" in after.worlds
    assert not after.holds(p, "q.skip")


def test_public_announcement(model: KripkeModel) -> None:
    after = product_update(model, ActionModel.public_announcement(model.agents, p))
    assert sorted(after.worlds) == ["p.announce", "pq.announce"]
    assert after.holds(parse("C_{a,b} p"))
    assert after.holds(parse("K_b p & K_b K_a p & ~K_b q"))


def test_semi_private_announcement(model: KripkeModel) -> None:
    action = ActionModel.semi_private_announcement(model.agents, ["a"], p)
    after = product_update(model, action)
    assert sorted(after.worlds) == ["none.no", "p.yes", "pq.yes", "q.no"]
    assert [after.worlds[d] for d in after.designated] == ["pq.yes"]
    assert after.holds(parse("K_a p"))
    assert after.holds(parse("K_b (K_a p | K_a ~p)"))
    assert after.holds(parse("C_{a,b} Kw_a p"))
    # b knows that a learned whether p, not which way: b's facts are unchanged
    assert after.holds(parse("~K_b p & ~K_b ~p & ~K_b K_a p"))
    assert considered(after, "b", "pq.yes") == set(after.worlds)
    assert after.holds(parse("K_a ~p"), "q.no")


def test_semi_private_announcement_of_a_falsehood_tells_the_truth(model: KripkeModel) -> None:
    action = ActionModel.semi_private_announcement(model.agents, ["a"], parse("~p"))
    after = product_update(model, action)
    assert [after.worlds[d] for d in after.designated] == ["pq.no"]
    assert after.holds(parse("K_a p & K_b Kw_a p"))


def test_group_must_be_among_the_agents(model: KripkeModel) -> None:
    with pytest.raises(UnknownAgentError, match="'zed'"):
        ActionModel.private_announcement(model.agents, ["a", "zed"], p)
    with pytest.raises(UnknownAgentError, match="'zed'"):
        ActionModel.semi_private_announcement(model.agents, ["zed"], p)


@settings(max_examples=60, deadline=None)
@given(cases(kind="any", count=4, depth=3, max_worlds=8))
def test_semi_private_is_a_split_of_the_group(case) -> None:  # type: ignore[no-untyped-def]
    m = case.spec.build()
    phi: Formula = case.formulas[0]
    group = case.group
    product = product_update(m, ActionModel.semi_private_announcement(m.agents, group, phi))
    split = m.split(m.truth_set(phi), group)
    assert product.size == m.size  # every world once, with the event that happens there
    pairing = {i: split.worlds.index(old_world(name)) for i, name in enumerate(product.worlds)}
    assert sorted(pairing.values()) == list(range(m.size))
    for f in case.formulas[1:]:
        lt, rt = product.truth_set(f), split.truth_set(f)
        for i, j in pairing.items():
            assert bool(lt[i]) == bool(rt[j]), (str(f), product.worlds[i])
