"""Russian cards, checked against a plain-Python oracle."""

from __future__ import annotations

import pytest

from epigames.errors import ModelError
from epigames.logic import And, Atom, C, K, Kw, Partition
from epigames.logic.puzzles import (
    anne_says,
    russian_cards,
    russian_cards_model,
    russian_informative,
    russian_safe,
)


def deal_of(world: str) -> tuple[str, str, str]:
    anne, bob, cath = world.split("|")
    return anne, bob, cath


def oracle_safe(worlds: tuple[str, ...]) -> bool:
    """Cath, for every deal left and every card not hers, considers both holders possible."""
    by_cath: dict[str, list[str]] = {}
    for w in worlds:
        by_cath.setdefault(deal_of(w)[2], []).append(deal_of(w)[0])
    for cath, annes in by_cath.items():
        for card in "0123456":
            if card in cath:
                continue
            holds = {card in anne for anne in annes}
            if holds != {True, False}:
                return False
    return True


def oracle_informative(worlds: tuple[str, ...]) -> bool:
    by_bob: dict[str, set[str]] = {}
    for w in worlds:
        by_bob.setdefault(deal_of(w)[1], set()).add(deal_of(w)[0])
    return all(len(annes) == 1 for annes in by_bob.values())


def test_russian_model() -> None:
    m = russian_cards_model()
    assert m.size == 140
    assert m.worlds[m.designated[0]] == "012|345|6"
    for agent, blocks in (("anne", 35), ("bob", 35), ("cath", 7)):
        # Each agent knows exactly its own hand.
        assert m.holds(Kw(agent, Atom(f"{agent[0]}0")))
        assert m.valid(And(tuple(Kw(agent, Atom(f"{agent[0]}{c}")) for c in range(7))))
        relation = m.relations[agent]
        assert isinstance(relation, Partition)
        assert relation.blocks == blocks
    assert not m.holds(Kw("cath", Atom("a0")))


def test_russian_classic_announcement_is_safe_and_informative() -> None:
    result = russian_cards()
    assert result.after.size == 28
    assert result.informative
    assert result.safe
    assert result.common_knowledge
    assert result.good
    assert oracle_safe(result.after.worlds)
    assert oracle_informative(result.after.worlds)
    agents = ("anne", "bob", "cath")
    assert result.after.holds(C(agents, russian_informative()))
    assert result.after.holds(C(agents, russian_safe()))


@pytest.mark.parametrize("deal", [("012", "345", "6"), ("135", "026", "4"), ("245", "013", "6")])
def test_russian_classic_announcement_for_other_deals(deal: tuple[str, str, str]) -> None:
    result = russian_cards(deal=deal)
    assert result.good
    reply = result.bob_reply()
    # After Bob says which card Cath holds, Anne knows Bob's hand and Cath still learns nothing.
    assert reply.valid(And(tuple(Kw("anne", Atom(f"b{c}")) for c in range(7))))
    assert reply.valid(russian_safe())
    assert oracle_safe(reply.worlds)


def test_russian_bad_announcement() -> None:
    result = russian_cards(["012", "013"])
    assert not result.safe
    assert not result.good
    assert not oracle_safe(result.after.worlds)
    # At the actual deal Cath (holding 6) learns that Anne holds 0 and 1.
    assert result.after.holds(K("cath", Atom("a0") & Atom("a1")))
    assert not result.after.holds(russian_safe())


def test_russian_informative_but_unsafe_announcement() -> None:
    # "012 or 456": Bob's three cards always meet 456 when Anne holds 012 and vice versa,
    # so he learns her hand; but Cath holding 6 rules out 456 and learns it too.
    result = russian_cards(["012", "456"])
    assert result.informative
    assert not result.safe
    assert oracle_informative(result.after.worlds)
    assert not oracle_safe(result.after.worlds)
    assert result.after.holds(K("cath", And((Atom("a0"), Atom("a1"), Atom("a2")))))


def test_russian_false_announcement() -> None:
    with pytest.raises(ModelError):
        russian_cards(["034", "056"])
    with pytest.raises(ModelError, match="not a deal"):
        russian_cards_model(("012", "345", "3"))
    with pytest.raises(ModelError, match="repeats"):
        russian_cards(["001"])


def test_anne_says_formula() -> None:
    assert anne_says(["012"]) == K("anne", And((Atom("a0"), Atom("a1"), Atom("a2"))))


@pytest.mark.parametrize("hands", [["012", "034"], ["012", "034", "056"]])
def test_russian_bob_replies_when_a_card_is_in_every_hand(hands: list[str]) -> None:
    # Card 0 is in every hand Anne names, so Cath holds it in no world left and the
    # announcement drops the atom `c0`; Bob's reply still names Cath's card, 6.
    result = russian_cards(hands)
    assert "c0" not in result.after.valuation
    assert result.informative and not result.safe
    reply = result.bob_reply()
    assert reply.worlds == ("012|345|6", "034|125|6")
    assert reply.valid(Atom("c6"))
