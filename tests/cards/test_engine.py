"""Unit tests of the card engine: worked examples, bookkeeping, errors, formulas, Kripke."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb, factorial

import numpy as np
import pytest

from epigames.cards import (
    REMOVED,
    CardKnowledge,
    CardLayout,
    InconsistentCardsError,
    PublicInfo,
    UnknownCardError,
    kripke_worlds,
    spectator_kripke,
)
from epigames.errors import EpigamesError, InputError
from epigames.logic import parse
from tests.cards.formulas import card_formula

PLAYERS = ["P1", "P2", "P3", "P4"]


def kwartet_layout(kinds: range) -> CardLayout:
    return CardLayout.create([f"<{k},{v}>" for k in kinds for v in range(1, 5)], PLAYERS)


def test_kwartet_2020_counting_example() -> None:
    """Player 1 finds <8,4>: P3 has no unknown cards left and P2 is known to lack it."""
    layout = kwartet_layout(range(8, 10))
    hands = {
        "P1": ["<8,3>", "<9,1>", "<9,2>"],
        "P2": ["<8,1>", "<8,2>", "<9,3>"],
        "P3": ["<9,4>"],
        "P4": ["<8,4>"],
    }
    public = PublicInfo.start(layout, [len(hands[p]) for p in PLAYERS])
    public = public.holds("<8,1>", "P2").holds("<8,2>", "P2").holds("<9,4>", "P3")
    before = CardKnowledge.create(public, "P1", hands["P1"])
    assert before.holder("<8,4>") is None
    assert before.possible_holders("<8,4>") == {1, 3}
    assert before.probability("<8,4>", "P4") == Fraction(1, 2)

    public = public.lacks("<8,4>", "P2")  # P1 asked P2 for <8,4> and did not get it
    me = CardKnowledge.create(public, "P1", hands["P1"])
    assert me.holder("<8,4>") == 3
    assert me.knows_holds("<8,4>", "P4")
    assert me.knows(card_formula(("holds", "P4", "<8,4>")))
    assert me.holder("<9,3>") == 1  # and hence P2's one unknown card
    assert me.worlds_count() == 1
    # P4 sees its own <8,4> but cannot place <8,3> (P1 or P2's unknown slot).
    p4 = CardKnowledge.create(public, "P4", hands["P4"])
    assert p4.possible_holders("<8,3>") == {0, 1}
    assert p4.holder("<8,4>") == 3


def test_counts_at_the_start_of_a_full_game() -> None:
    layout = kwartet_layout(range(13))
    public = PublicInfo.start(layout, [13] * 4)
    hand = [layout.cards[c] for c in range(0, 52, 4)]
    me = CardKnowledge.create(public, 0, hand)
    assert me.worlds_count() == factorial(39) // factorial(13) ** 3
    assert CardKnowledge.public_view(public).worlds_count() == factorial(52) // factorial(13) ** 4
    assert me.probability(layout.cards[1], 2) == Fraction(1, 3)
    assert me.possible_holders(layout.cards[1]) == {1, 2, 3}
    matrix = me.marginals()
    assert matrix.shape == (52, 4)
    assert np.allclose(matrix.sum(axis=1), 1.0)
    assert not matrix.flags.writeable


def test_at_least_one_then_counting() -> None:
    """P2 holds one of two cards: 3 of the 4 equally likely splits of the pair remain."""
    layout = CardLayout.create("abcd", ["me", "P2", "P3"])
    public = PublicInfo.start(layout, [0, 2, 2]).at_least_one("P2", "ab")
    view = CardKnowledge.public_view(public)
    # Deals: P2 gets 2 of 4 cards (6 ways), minus the one where P2 has {c, d}.
    assert view.worlds_count() == comb(4, 2) - 1
    assert view.probability("a", "P2") == Fraction(3, 5)
    assert view.probability("c", "P2") == Fraction(2, 5)
    assert view.knows(card_formula(("or", ("holds", "P2", "a"), ("holds", "P2", "b"))))
    assert not view.knows(card_formula(("holds", "P2", "a")))


def test_move_satisfies_or_shrinks_at_least_one() -> None:
    layout = CardLayout.create("abcdef", ["P1", "P2", "P3"])
    start = PublicInfo.start(layout, [2, 2, 2]).at_least_one("P1", "ab")
    # a leaves P1: P1 had it, so the constraint was satisfied and says nothing more.
    satisfied = start.move("a", "P1", "P2")
    assert satisfied.constraints == ()
    assert CardKnowledge.public_view(satisfied).possible_holders("b") == {0, 1, 2}
    # a leaves P3: it was never with P1, so P1 must have had (and still has) b.
    shrunk = start.move("a", "P3", "P2")
    assert CardKnowledge.public_view(shrunk).holder("b") == 0
    removed = start.remove("a", "P3")
    assert CardKnowledge.public_view(removed).holder("b") == 0
    assert removed.is_removed("a")
    view = CardKnowledge.public_view(removed)
    assert view.is_removed("a") and view.possible_holders("a") == frozenset()
    assert view.holder("a") is None and view.probability("a", 0) == 0
    assert view.sample_world(random.Random(1))[layout.card_index("a")] == REMOVED


def test_with_public_follows_the_hand() -> None:
    layout = CardLayout.create("abcdef", ["P1", "P2", "P3"])
    public = PublicInfo.start(layout, [2, 2, 2])
    me = CardKnowledge.create(public, "P1", "ab", lacks=[("c", "P2")])
    later = me.with_public(public.move("e", "P3", "P1").move("a", "P1", "P2"))
    assert later.hand == layout.card_mask("be")
    assert later.holder("c") == 2
    assert later.holder("d") == 1  # P3 has one unknown card: c, so d and f are with P2
    assert me.possible_holders("d") == {1, 2}


@pytest.mark.parametrize(
    ("build", "words"),
    [
        (lambda p: p.holds("a", "P1").holds("a", "P2"), ["a", "P1", "P2"]),
        (lambda p: p.holds("a", "P1").lacks("a", "P1"), ["a", "P1"]),
        (lambda p: p.lacks("a", "P2").move("a", "P2", "P3"), ["a", "P2"]),
        (lambda p: p.lacks("a", "P1").lacks("a", "P2").lacks("a", "P3"), ["a"]),
        (lambda p: p.holds("a", "P1").at_least_one("P2", "a"), ["P2", "a"]),
        (lambda p: p.holds("a", "P1").holds("b", "P1").holds("c", "P1"), ["P1", "c"]),
        (lambda p: p.remove("a", "P1").holds("a", "P2"), ["a", "removed"]),
        (lambda p: p.at_least_one("P1", "ab").lacks("a", "P1").move("b", "P2", "P3"), ["P1", "b"]),
    ],
)
def test_inconsistent_public_facts_name_the_culprits(build, words) -> None:  # type: ignore[no-untyped-def]
    layout = CardLayout.create("abcdef", ["P1", "P2", "P3"])
    with pytest.raises(InconsistentCardsError) as err:
        build(PublicInfo.start(layout, [2, 2, 2]))
    assert isinstance(err.value, EpigamesError)
    for word in words:
        assert word in str(err.value)


def test_jointly_inconsistent_facts_raise_on_query() -> None:
    layout = CardLayout.create("abcdef", ["P1", "P2", "P3"])
    # Each fact is possible, together they are not: P2 has 2 cards, both from {a, b}
    # (two disjoint at-least-one sets over a 2-card capacity) but also c.
    public = (
        PublicInfo.start(layout, [2, 2, 2])
        .at_least_one("P2", "ab")
        .at_least_one("P2", "cd")
        .at_least_one("P2", "ef")
    )
    view = CardKnowledge.public_view(public)
    with pytest.raises(InconsistentCardsError, match=r"P2|no deal"):
        view.worlds_count()
    with pytest.raises(InconsistentCardsError):
        CardKnowledge.public_view(public).possible_holders("a")


def test_inconsistent_private_facts() -> None:
    layout = CardLayout.create("abcdef", ["P1", "P2", "P3"])
    public = PublicInfo.start(layout, [2, 2, 2]).holds("a", "P2")
    with pytest.raises(InconsistentCardsError, match="a"):
        CardKnowledge.create(public, "P1", "ab").holder("c")
    with pytest.raises(InconsistentCardsError, match="count"):
        CardKnowledge.create(public, "P1", "b").holder("c")
    with pytest.raises(InconsistentCardsError, match="c"):
        CardKnowledge.create(public, "P1", "bd", holds=[("c", "P2")], lacks=[("c", "P2")]).holder(
            "e"
        )


def test_unknown_names() -> None:
    layout = CardLayout.create("abc", ["P1", "P2"])
    public = PublicInfo.start(layout, [1, 2])
    with pytest.raises(UnknownCardError, match="'z'"):
        public.holds("z", "P1")
    with pytest.raises(UnknownCardError, match="P9"):
        public.holds("a", "P9")
    knowledge = CardKnowledge.public_view(public)
    # xor is a connective the engine decides; a modal formula needs a seat's knowledge.
    assert knowledge.knows(card_formula(("xor", True, False)))
    with pytest.raises(InputError, match="public view is nobody's knowledge"):
        knowledge.knows(parse('K_P1 "holds(P1, a)"'))
    with pytest.raises(UnknownCardError, match="unknown atom 'p'"):
        knowledge.knows(parse("p"))
    with pytest.raises(UnknownCardError, match="'z'"):
        knowledge.knows(parse('"holds(P1, z)"'))
    with pytest.raises(InconsistentCardsError, match="sum"):
        PublicInfo.start(layout, [1, 1])


def test_formulas() -> None:
    layout = CardLayout.create("abcd", ["P1", "P2", "P3"])
    public = PublicInfo.start(layout, [2, 1, 1])
    me = CardKnowledge.create(public, "P1", "ab")
    c_with_2 = ("holds", "P2", "c")
    c_with_3 = ("holds", "P3", "c")
    assert me.knows(card_formula(("or", c_with_2, c_with_3)))
    assert not me.knows(card_formula(c_with_2))
    assert me.knows(card_formula(("iff", c_with_2, ("holds", "P3", "d"))))
    assert me.knows(card_formula(("implies", ("holds", "P2", "d"), c_with_3)))
    assert me.knows(card_formula(("not", ("holds", 1, "a"))))
    assert me.knows(card_formula(True)) and not me.knows(card_formula(False))
    assert not me.knows(card_formula(("and", c_with_2, ("holds", "P2", "d"))))
    assert me.knows(card_formula(("not", ("and", c_with_2, ("holds", "P2", "d")))))


def test_kripke_pictures() -> None:
    layout = CardLayout.create("abcdef", ["P1", "P2", "P3", "table"], players=[0, 1, 2])
    public = PublicInfo.start(layout, [2, 2, 1, 1])
    me = CardKnowledge.create(public, "P1", "ab")
    model = kripke_worlds(me, "c")
    assert model.worlds == (1, 2, 3)
    assert model.true_world is None
    assert model.partition(0) == (frozenset({1, 2, 3}),)
    assert model.partition(1) == (frozenset({1}), frozenset({2, 3}))
    assert model.partition(2) == (frozenset({2}), frozenset({1, 3}))
    with pytest.raises(KeyError):
        model.partition(3)

    hands = {0: "ab", 1: "cd", 2: "e"}
    everyone = [CardKnowledge.create(public, p, h) for p, h in hands.items()]
    truth = spectator_kripke(everyone, "c", "P2")
    assert truth.true_world == 1
    assert truth.worlds == (0, 1, 2, 3)
    assert truth.partition(1) == (frozenset({1}), frozenset({0}), frozenset({2}), frozenset({3}))
    assert truth.partition(0)[0] == frozenset({1, 2, 3})
    with pytest.raises(InconsistentCardsError, match="rules out"):
        spectator_kripke(everyone, "c", "P3")


def test_objects_are_immutable_values() -> None:
    layout = CardLayout.create("abcd", ["P1", "P2"])
    public = PublicInfo.start(layout, [2, 2])
    assert public.holds("a", "P1") == public.holds("a", "P1")
    assert hash(public.holds("a", "P1")) == hash(public.holds("a", 0))
    later = public.move("a", "P1", "P2")
    assert public.counts == (2, 2) and later.counts == (1, 3)
    with pytest.raises(AttributeError):
        public.counts = (0, 4)  # type: ignore[misc]


def test_layout_finds_equal_cards_and_its_copies_their_own() -> None:
    """Cards are found by the id of the layout's own objects, else by equality; a copy
    or unpickled layout keys the ids of its own new objects, not the old ones."""
    import copy
    import pickle

    from epigames.games.kwartet.cards import CARDS, Card

    layout = CardLayout.create(CARDS[:8], ("a", "b"))
    twin = Card(2, 3)
    assert twin is not CARDS[6]
    assert layout.card_index(CARDS[6]) == layout.card_index(twin) == 6
    assert layout.card_mask([CARDS[0], twin]) == layout.card_mask([CARDS[0], CARDS[6]]) == 0b1000001
    assert layout.card_indices([twin, CARDS[1]]) == [6, 1]
    for other in (pickle.loads(pickle.dumps(layout)), copy.deepcopy(layout)):
        assert other == layout
        assert set(other.ids) == {id(card) for card in other.cards}
        assert other.card_index(CARDS[6]) == other.card_index(other.cards[6]) == 6
