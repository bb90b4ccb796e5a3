"""Hidden draws (`Drew`, `draw_unseen`) and per-holder not-all facts against brute force."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from epigames.cards import DECK, CardKnowledge, CardLayout, Drew, InconsistentCardsError, PublicInfo
from epigames.cards.facts import apply_facts

CARDS = tuple(f"c{i}" for i in range(7))
LAYOUT = CardLayout.with_locations(CARDS, ["A", "B", "C"], [DECK])
A, B, C, D = range(4)


def worlds(counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every assignment of the cards to holders with these counts."""
    found = []
    for world in itertools.product(range(len(counts)), repeat=len(CARDS)):
        if tuple(Counter(world).get(h, 0) for h in range(len(counts))) == counts:
            found.append(world)
    return found


def check(knowledge: CardKnowledge, weights: Counter[tuple[int, ...]]) -> None:
    total = sum(weights.values())
    for c, card in enumerate(CARDS):
        holders = {w[c] for w in weights}
        assert knowledge.possible_holders(card) == frozenset(holders), card
        for h in range(LAYOUT.n_holders):
            share = sum(n for w, n in weights.items() if w[c] == h)
            assert knowledge.probability(card, h) == Fraction(share, total), (card, h)


@pytest.mark.parametrize("seed", range(12))
def test_draw_unseen_matches_enumeration(seed: int) -> None:
    rng = random.Random(seed)
    # A holds 2, B holds 2, C nothing (its hand just left), the deck 3; some facts first.
    public = PublicInfo.start(LAYOUT, [2, 2, 0, 3])
    start = Counter({w: 1 for w in worlds((2, 2, 0, 3))})
    for _ in range(2):
        card, holder = rng.choice(CARDS), rng.choice((A, B, D))
        try:
            public = (
                public.lacks(card, holder) if rng.random() < 0.5 else public.holds(card, holder)
            )
        except InconsistentCardsError:
            continue
    c = LAYOUT.card_index
    start = Counter(
        {
            w: 1
            for w in start
            if all(w[c(card)] == h for h in range(4) for card in _cards(public.holding[h]))
            and all(w[c(card)] != h for h in range(4) for card in _cards(public.lacking[h]))
        }
    )
    n = rng.choice((1, 2, 3))
    after = apply_facts(public, [Drew(C, n, D)])
    weights: Counter[tuple[int, ...]] = Counter()
    for world, weight in start.items():
        pile = [i for i, h in enumerate(world) if h == D]
        for drawn in itertools.combinations(pile, n):
            new = list(world)
            for i in drawn:
                new[i] = C
            weights[tuple(new)] += weight
    check(CardKnowledge.public_view(after), weights)


def _cards(mask: int) -> list[str]:
    return [CARDS[i] for i in range(len(CARDS)) if mask >> i & 1]


@pytest.mark.parametrize("seed", range(24))
def test_not_all_matches_enumeration(seed: int) -> None:
    rng = random.Random(seed)
    public = PublicInfo.start(LAYOUT, [2, 2, 2, 1])
    shown = rng.choice(CARDS)
    public = public.holds(shown, B)
    sets = []
    for _ in range(rng.choice((1, 2, 3))):
        sets.append((rng.choice((A, B, C)), tuple(rng.sample(CARDS, rng.choice((1, 2))))))
    allowed = [
        w
        for w in worlds((2, 2, 2, 1))
        if w[0] == A
        and w[LAYOUT.card_index(shown)] == B
        and not any(all(w[LAYOUT.card_index(x)] == h for x in cs) for h, cs in sets)
    ]
    hand = [card for card in CARDS if allowed and allowed[0][LAYOUT.card_index(card)] == A]
    allowed = [w for w in allowed if {CARDS[i] for i, h in enumerate(w) if h == A} == set(hand)]
    if not allowed:
        return
    knowledge = CardKnowledge.create(public, A, hand, not_all=sets)
    check(knowledge, Counter({w: 1 for w in allowed}))
    assert knowledge.worlds_count() == len(allowed)


def test_draw_needs_an_empty_hand() -> None:
    public = PublicInfo.start(LAYOUT, [2, 2, 0, 3])
    with pytest.raises(InconsistentCardsError, match="must hold none"):
        apply_facts(public, [Drew(A, 1, D)])
    with pytest.raises(InconsistentCardsError, match="cannot draw 4"):
        apply_facts(public, [Drew(C, 4, D)])
