"""Events seen by a set of seats: `GroupObservation`, and events as action models.

The epistemic check deals six cards A–F two by two to three seats: 90 deals, one world
each, atoms such as `D1` for "seat 1 holds D", every seat knowing its own hand. It replays
a public, a group and a private event as action models and compares what each seat knows
with the card engine given the same facts.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pytest

from epigames.cards import CardKnowledge, CardLayout, Holds, HoldsAtLeastOne, Lacks, PublicInfo
from epigames.cards.facts import apply_facts
from epigames.games import GroupObservation, PrivateObservation, PublicAnnouncement
from epigames.games.epistemic import event_action_model, event_formula, observers
from epigames.games.events import Event, Fact
from epigames.logic import (
    Atom,
    Formula,
    K,
    KripkeModel,
    Not,
    Partition,
    Top,
    disj,
    parse,
    product_update,
)

AGENTS = ("north", "east", "south")
CARDS = "ABCDEF"
DEAL = ("AB", "CD", "EF")


@dataclass(frozen=True, slots=True)
class Said(PublicAnnouncement):
    said: tuple[Fact, ...]

    @property
    def text(self) -> str:
        return "Everyone learns " + ", ".join(map(str, self.said)) + "."

    @property
    def facts(self) -> tuple[Fact, ...]:
        return self.said


@dataclass(frozen=True, slots=True)
class Peeked(PrivateObservation):
    said: tuple[Fact, ...]

    @property
    def text(self) -> str:
        return f"{self.name_of(self.seat)} learns " + ", ".join(map(str, self.said)) + "."

    @property
    def facts(self) -> tuple[Fact, ...]:
        return self.said


@dataclass(frozen=True, slots=True)
class Signal(GroupObservation):
    said: tuple[Fact, ...]

    @property
    def text(self) -> str:
        return "A signal: " + ", ".join(map(str, self.said)) + "."

    @property
    def facts(self) -> tuple[Fact, ...]:
        return self.said


@dataclass(frozen=True, slots=True)
class Wink(GroupObservation):
    kind: ClassVar[str] = "wink"

    @property
    def text(self) -> str:
        return f"{self.name_of(min(self.seats))} winks."


# --- the event class -------------------------------------------------------------------


def test_group_observation_is_seen_by_its_seats_only() -> None:
    signal = Signal(frozenset({0, 2}), (Holds(1, "D"),))
    assert [signal.visible_to(s) for s in range(4)] == [True, False, True, False]
    assert signal.public is False
    assert signal.kind == "group"
    assert Wink(frozenset({1})).kind == "wink"


def test_a_log_filtered_by_visibility_gives_each_seat_its_events() -> None:
    log: list[Event] = [
        Said((HoldsAtLeastOne(1, ("C", "E")),)),
        Signal(frozenset({0, 2}), (Holds(1, "D"),)),
        Peeked(1, (Lacks(0, "E"),)),
        Wink(frozenset({1, 2})),
    ]
    # the filter of the games' `_publish`: public events to all, the rest by `visible_to`
    seen = [[type(e).__name__ for e in log if e.public or e.visible_to(seat)] for seat in range(3)]
    assert seen == [
        ["Said", "Signal"],
        ["Said", "Peeked", "Wink"],
        ["Said", "Signal", "Wink"],
    ]


def test_seats_are_a_frozenset_whatever_was_given() -> None:
    given_a_set = Signal({2, 0}, (Holds(1, "D"),))  # type: ignore[arg-type]
    assert isinstance(given_a_set.seats, frozenset)
    assert given_a_set == Signal(frozenset({0, 2}), (Holds(1, "D"),))
    assert hash(given_a_set) == hash(Signal(frozenset({0, 2}), (Holds(1, "D"),)))
    assert Signal(frozenset({0}), ()) != Signal(frozenset({0, 2}), ())


def test_to_dict_lists_the_seats_and_survives_json() -> None:
    wink = Wink(frozenset({10, 2, 9}), names=tuple(f"P{i}" for i in range(11)))
    data = wink.to_dict()
    assert data == {
        "kind": "wink",
        "public": False,
        "seats": [2, 9, 10],
        "text": "P2 winks.",
        "facts": [],
    }
    assert json.loads(json.dumps(data)) == data
    signal = Signal(frozenset({0, 2}), (Holds(1, "D"), Lacks(0, "E")))
    assert list(signal.to_dict()) == ["kind", "public", "seats", "said", "text", "facts"]
    assert signal.to_dict()["facts"] == [["holds", 1, "D"], ["lacks", 0, "E"]]
    assert json.loads(json.dumps(signal.to_dict())) == signal.to_dict()


# --- events as action models -----------------------------------------------------------


def atom(seat: int, card: str) -> Atom:
    """`D1`: seat 1 holds card D."""
    return Atom(f"{card}{seat}")


def formula_of(fact: Fact) -> Formula:
    match fact:
        case Holds(holder=h, card=c):
            return atom(h, str(c))
        case Lacks(holder=h, card=c):
            return Not(atom(h, str(c)))
        case HoldsAtLeastOne(holder=h, cards=cs):
            return disj(*(atom(h, str(c)) for c in cs))
    raise AssertionError(f"not a claim: {fact!r}")


def test_observers() -> None:
    assert observers(Said(()), 3) == {0, 1, 2}
    assert observers(Signal(frozenset({0, 2, 5}), ()), 3) == {0, 2}
    assert observers(Peeked(1, ()), 3) == {1}


def test_event_formula_is_the_conjunction_of_the_facts() -> None:
    signal = Signal(frozenset({0}), (Holds(1, "D"), Lacks(0, "E")))
    assert event_formula(signal, formula_of) == parse("D1 & ~E0")
    assert event_formula(Wink(frozenset({0})), formula_of) == Top()


def test_who_sees_it_picks_the_action_model() -> None:
    public = event_action_model(Said((Holds(1, "D"),)), AGENTS, formula_of)
    assert public.events == ("announce",)
    assert public.pre == (atom(1, "D"),)
    group = event_action_model(Signal(frozenset({0, 2}), (Holds(1, "D"),)), AGENTS, formula_of)
    assert group.events == ("tell", "skip")
    assert group.pre == (atom(1, "D"), Top())
    assert [group.events[d] for d in group.designated] == ["tell"]
    blocks = {a: r.blocks for a, r in group.relations.items() if isinstance(r, Partition)}
    assert blocks == {"north": 2, "east": 1, "south": 2}
    alone = event_action_model(Peeked(1, (Holds(1, "D"),)), AGENTS, formula_of)
    assert {a: r.blocks for a, r in alone.relations.items() if isinstance(r, Partition)} == {
        "north": 1,
        "east": 2,
        "south": 1,
    }
    everyone = Signal(frozenset({0, 1, 2}), (Holds(1, "D"),))
    assert event_action_model(everyone, AGENTS, formula_of).events == ("announce",)


def deal_model() -> KripkeModel:
    """Every deal of A–F, two cards a seat; each seat tells deals apart by its own hand."""
    deals: list[tuple[str, ...]] = []
    for first in itertools.combinations(CARDS, 2):
        rest = [c for c in CARDS if c not in first]
        for second in itertools.combinations(rest, 2):
            deals.append(
                ("".join(first), "".join(second), "".join(sorted(set(rest) - set(second))))
            )
    names = ["|".join(d) for d in deals]
    return KripkeModel.build(
        names,
        {
            n: [atom(s, c).name for s, hand in enumerate(d) for c in hand]
            for n, d in zip(names, deals, strict=True)
        },
        partitions={
            agent: [
                [n for n, d in zip(names, deals, strict=True) if d[seat] == hand]
                for hand in sorted({d[seat] for d in deals})
            ]
            for seat, agent in enumerate(AGENTS)
        },
        designated=["|".join(DEAL)],
    )


LAYOUT = CardLayout.create(CARDS, AGENTS)


def card_knowledge(seat: int, log: list[Event]) -> CardKnowledge:
    """The card engine: public facts for all, the other facts for the seats that saw them."""
    public = apply_facts(
        PublicInfo.start(LAYOUT, [2, 2, 2]), [f for e in log if e.public for f in e.facts]
    )
    seen = [f for e in log if not e.public and e.visible_to(seat) for f in e.facts]
    return CardKnowledge.create(
        public,
        seat,
        DEAL[seat],
        holds=[(f.card, f.holder) for f in seen if isinstance(f, Holds)],
        lacks=[(f.card, f.holder) for f in seen if isinstance(f, Lacks)],
    )


def agree(model: KripkeModel, log: list[Event]) -> int:
    """Assert that each seat knows the same about the cards in both engines; count checks."""
    checked = 0
    for seat, agent in enumerate(AGENTS):
        knowledge = card_knowledge(seat, log)
        rel = model.relations[agent]
        assert isinstance(rel, Partition)
        block = np.flatnonzero(rel.block == rel.block[model.designated[0]])
        # skip copies repeat a deal; what counts is which deals remain possible
        deals = {model.worlds[w].split(".")[0] for w in block}
        assert len(deals) == knowledge.worlds_count(), (seat, log)
        for card in CARDS:
            for holder in range(3):
                a = atom(holder, card)
                assert model.holds(K(agent, a)) == (knowledge.holder(card) == holder)
                possible = not model.holds(K(agent, Not(a)))
                assert possible == (holder in knowledge.possible_holders(card)), (seat, card)
                checked += 1
    return checked


def test_the_logic_engine_agrees_with_the_card_engine_event_by_event() -> None:
    model = deal_model()
    assert model.size == 90
    log: list[Event] = []
    events: list[Event] = [
        Said((HoldsAtLeastOne(1, ("C", "E")),)),
        Signal(frozenset({0, 2}), (Holds(1, "D"),)),
        Peeked(1, (Lacks(0, "E"),)),
    ]
    checked = agree(model, log)
    learned = []
    for event in events:
        model = product_update(model, event_action_model(event, AGENTS, formula_of))
        log.append(event)
        checked += agree(model, log)
        learned.append([card_knowledge(s, log).worlds_count() for s in range(3)])
    assert checked == 4 * 3 * 6 * 3
    # only the observers' worlds shrink (east knew the public claim already)
    assert learned == [[5, 6, 3], [2, 6, 1], [2, 3, 1]]


def test_outsiders_do_not_know_what_the_group_learned() -> None:
    model = deal_model()
    signal = Signal(frozenset({0, 2}), (Holds(1, "D"),))
    assert not model.holds(parse("K_north D1"))
    after = product_update(model, event_action_model(signal, AGENTS, formula_of))
    assert after.holds(parse("K_north D1 & K_south D1"))
    assert after.holds(parse("C_{north,south} D1"))
    # east holds D and knows it, but not that north and south learned it
    assert after.holds(parse("K_east D1 & ~K_east K_north D1"))
    assert after.holds(parse("K_north ~K_east K_south D1"))


@pytest.mark.parametrize("seats", [frozenset({0}), frozenset({0, 1})])
def test_group_event_changes_nothing_for_the_others(seats: frozenset[int]) -> None:
    model = deal_model()
    after = product_update(
        model, event_action_model(Signal(seats, (Holds(2, "E"),)), AGENTS, formula_of)
    )
    for seat, agent in enumerate(AGENTS):
        for card in CARDS:
            for holder in range(3):
                known = K(agent, atom(holder, card))
                if seat not in seats:
                    assert after.holds(known) == model.holds(known), (agent, card, holder)
    assert after.holds(K("north", atom(2, "E")))
    assert not model.holds(K("north", atom(2, "E")))
