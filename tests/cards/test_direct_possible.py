"""Possible holders straight from the facts (Hall's condition, or one flow where facts tie
cards) agree with the full path: propagation, then the solver over the reduced problem."""

from __future__ import annotations

import random

import pytest

from epigames.cards import CardKnowledge, CardLayout, PublicInfo
from epigames.cards.errors import InconsistentCardsError
from epigames.cards.knowledge import _solved

HOLDERS = ("a", "b", "c", "d")


def full_path(knowledge: CardKnowledge) -> tuple[int, ...]:
    """Propagation and the generic solver, as `_possible_masks` does without the shortcut."""
    problem = knowledge._reduced()
    found = _solved(problem, knowledge.layout.holders).possible()
    return tuple(a | b for a, b in zip(problem.known, found, strict=True))


def random_case(rng: random.Random) -> tuple[CardKnowledge, list[int]]:
    """A deal, public facts true of it (lacks, moves), and one seat's knowledge."""
    n_cards = rng.randint(4, 14)
    layout = CardLayout.create(range(n_cards), HOLDERS)
    deal = [rng.randrange(len(HOLDERS)) for _ in range(n_cards)]
    counts = [deal.count(h) for h in range(len(HOLDERS))]
    public = PublicInfo.start(layout, counts)
    for _ in range(rng.randint(0, 3 * n_cards)):
        card, holder = rng.randrange(n_cards), rng.randrange(len(HOLDERS))
        if rng.random() < 0.8:
            if deal[card] != holder:
                public = public.lacks(card, holder)
        else:
            dst = rng.randrange(len(HOLDERS))
            if dst != deal[card]:
                public = public.move(card, deal[card], dst)
                deal[card] = dst
    agent = rng.randrange(len(HOLDERS) + 1)
    if agent == len(HOLDERS):  # an outside observer: up to four holders with room
        return CardKnowledge.public_view(public), deal
    hand = [c for c in range(n_cards) if deal[c] == agent]
    return CardKnowledge.create(public, agent, hand), deal


@pytest.mark.parametrize("seed", range(500))
def test_direct_possible_holders_are_the_full_paths(seed: int) -> None:
    knowledge, deal = random_case(random.Random(seed))
    direct = knowledge._direct_possible()
    assert direct is not None
    assert direct == full_path(knowledge)
    for card, holder in enumerate(deal):
        assert direct[holder] >> card & 1  # the true deal is among the possible ones


def test_no_direct_answer_for_overlapping_sets_or_facts_that_admit_no_deal() -> None:
    layout = CardLayout.create(range(4), HOLDERS[:2])
    public = PublicInfo.start(layout, [2, 2])
    tied = CardKnowledge.create(public.at_least_one(1, [0, 1]), 0, [2, 3])
    assert tied._direct_possible() == (0b1100, 0b0011)  # one flow answers it
    overlapping = CardKnowledge.public_view(public.at_least_one(1, [0, 1]).at_least_one(1, [1, 2]))
    assert overlapping._direct_possible() is None
    assert overlapping.possible_holders(1) == frozenset({0, 1})
    # a holds two cards but lacks three of the four: no deal, and propagation says why
    # (0, 1 and 2 must go to b, which holds two).
    stuck = CardKnowledge.public_view(public.lacks(0, 0).lacks(1, 0).lacks(2, 0))
    assert stuck._direct_possible() is None
    with pytest.raises(InconsistentCardsError, match="holder b: the holder has no room left"):
        stuck.possible_holders(0)


def test_fast_constructors_make_the_dataclasses_values() -> None:
    from dataclasses import fields

    from epigames.cards.knowledge import _plain
    from epigames.cards.public import public_info

    public = PublicInfo.start(CardLayout.create(range(4), HOLDERS[:2]), [2, 2]).lacks(0, 1)
    values = [getattr(public, f.name) for f in fields(PublicInfo)]
    assert public_info(*values) == PublicInfo(*values)
    made, plain = CardKnowledge(public, 0, 0b11), _plain(public, 0, 0b11)
    assert [getattr(made, f.name) for f in fields(CardKnowledge)] == [
        getattr(plain, f.name) for f in fields(CardKnowledge)
    ]
    assert plain.possible_holders(2) == made.possible_holders(2) == frozenset({1})


def random_tied_case(rng: random.Random) -> tuple[CardKnowledge, list[int]]:
    """`random_case` with facts that tie cards together: at-least-one sets, groups no
    holder holds completely, and not-all sets, all over kinds and all true of the deal."""
    n_cards = rng.randint(4, 14)
    size = rng.randint(2, 4)
    kinds = [list(range(k, min(k + size, n_cards))) for k in range(0, n_cards, size)]
    layout = CardLayout.create(range(n_cards), HOLDERS)
    deal = [rng.randrange(len(HOLDERS)) for _ in range(n_cards)]
    counts = [deal.count(h) for h in range(len(HOLDERS))]

    def complete(kind: list[int]) -> bool:
        return len({deal[c] for c in kind}) == 1

    groups = [kind for kind in kinds if rng.random() < 0.5 and not complete(kind)]
    public = PublicInfo.start(layout, counts, groups)
    for _ in range(rng.randint(0, 2 * n_cards)):
        card, holder = rng.randrange(n_cards), rng.randrange(len(HOLDERS))
        draw = rng.random()
        if draw < 0.5:
            if deal[card] != holder:
                public = public.lacks(card, holder)
        elif draw < 0.8:
            kind = next(k for k in kinds if card in k)
            public = public.at_least_one(deal[card], kind)
        else:
            dst = rng.randrange(len(HOLDERS))
            if dst != deal[card]:
                old = deal[card]
                deal[card] = dst
                if any(complete(k) for k in groups):
                    deal[card] = old  # the move would break the groups' invariant
                else:
                    public = public.move(card, old, dst)
    not_all = [
        (h, kind) for kind in kinds for h in range(len(HOLDERS)) if rng.random() < 0.1
        and any(deal[c] != h for c in kind)
    ]  # fmt: skip
    agent = rng.randrange(len(HOLDERS) + 1)
    if agent == len(HOLDERS):
        return CardKnowledge.public_view(public), deal
    hand = [c for c in range(n_cards) if deal[c] == agent]
    return CardKnowledge.create(public, agent, hand, not_all=not_all), deal


@pytest.mark.parametrize("seed", range(400))
def test_direct_possible_holders_with_tied_cards_are_the_full_paths(seed: int) -> None:
    knowledge, deal = random_tied_case(random.Random(seed))
    direct = knowledge._direct_possible()
    assert direct is not None  # sets over kinds are disjoint, and the deal meets the facts
    assert direct == full_path(knowledge)
    for card, holder in enumerate(deal):
        assert direct[holder] >> card & 1


@pytest.mark.parametrize("seed", range(50))
def test_knowledge_of_a_hand_mask_is_the_knowledge_of_its_cards(seed: int) -> None:
    knowledge, _ = random_tied_case(random.Random(seed))
    if knowledge.agent is None or knowledge.not_all:
        return
    by_mask = CardKnowledge.of_hand_mask(knowledge.public, knowledge.agent, knowledge.hand)
    fields = ("public", "agent", "hand", "seen_holds", "seen_lacks", "not_all")
    assert [getattr(by_mask, f) for f in fields] == [getattr(knowledge, f) for f in fields]
    assert by_mask.known_holders() == knowledge.known_holders()
