"""Locations (table, deck, discard pile, out of the game) against brute-force enumeration.

Random Kemps-like histories on small decks: two seats, a face-up table and face-down
deck, discard pile and out-of-the-game pile. Cards go from the deck to the table, from a
hand to the table and back, from the table to the discard pile, and the discard pile is
reshuffled into the deck; the piles may start with cards nobody has seen.

The oracle enumerates every *initial* deal consistent with what was public at the deal
(the table's cards), replays the history forwards (checking every fact at its moment and
applying every move and reshuffle) and tallies the current deals it reaches, each
weighted by how many initial deals lead there. That weight is the true posterior under
a uniformly shuffled deal; the engine's answers (uniform over consistent current deals)
must equal both the unweighted and the weighted tallies. It shares no bookkeeping with the
engine, and the history reaches the engine only as typed facts through `apply_facts`.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from epigames.cards import (
    DECK,
    DISCARD,
    OUT,
    REMOVED,
    TABLE,
    CardFact,
    CardKnowledge,
    CardLayout,
    Count,
    Holds,
    HoldsAtLeastOne,
    InconsistentCardsError,
    Lacks,
    Moved,
    PublicInfo,
    Reshuffled,
    UnsupportedFactError,
)
from epigames.cards.facts import apply_facts, start_from_counts
from tests.cards.formulas import card_formula

SEATS = 2
T, D, X = 2, 3, 4  # table, deck, discard pile (5 is out of the game)
HOLDERS = 6


@dataclass
class History:
    """The layout, the initial and current true deals, the facts so far, the public info."""

    layout: CardLayout
    initial_counts: list[int]
    table_at_deal: frozenset[int]
    deal: list[int]  # card index -> holder now
    facts: list[CardFact] = field(default_factory=list)
    public: PublicInfo | None = None

    def say(self, *facts: CardFact) -> None:
        """One public step: the facts, folded into the public information."""
        self.facts.extend(facts)
        assert self.public is not None
        self.public = apply_facts(self.public, facts)

    def cards_of(self, h: int) -> list[int]:
        return [c for c, where in enumerate(self.deal) if where == h]


def new_history(rng: random.Random, n_cards: int) -> History:
    layout = CardLayout.with_locations(
        [f"c{i}" for i in range(n_cards)], ["P0", "P1"], [TABLE, DECK, DISCARD, OUT]
    )
    assert layout.holders[T] == "table" and layout.public == frozenset({T})
    counts = [2, 2, rng.randint(1, 2), 0, rng.randint(0, 1), rng.randint(0, 1)]
    counts[D] = n_cards - sum(counts)
    order = list(range(n_cards))
    rng.shuffle(order)
    deal = [0] * n_cards
    i = 0
    for h, n in enumerate(counts):
        for c in order[i : i + n]:
            deal[c] = h
        i += n
    table = frozenset(c for c in range(n_cards) if deal[c] == T)
    history = History(layout, counts, table, deal)
    opening: list[CardFact] = [Count(h, n) for h, n in enumerate(counts) if n]
    opening += [Holds(T, layout.cards[c]) for c in sorted(table)]
    history.facts.extend(opening)
    history.public = start_from_counts(layout, opening)
    return history


def step(history: History, rng: random.Random) -> None:
    """One random true public step of a Kemps-like game, or a true fact about a seat."""
    lay, deal = history.layout, history.deal
    card = lay.cards
    roll = rng.random()
    table, deck, pile = history.cards_of(T), history.cards_of(D), history.cards_of(X)
    if roll < 0.3 and table:
        p = rng.randrange(SEATS)
        hand = history.cards_of(p)
        take = rng.choice(table)
        facts: list[CardFact] = [Moved(card[take], T, p)]
        deal[take] = p
        if hand and rng.random() < 0.8:  # swap: put one back (or just take one)
            give = rng.choice(hand)
            facts.append(Moved(card[give], p, T))
            deal[give] = T
        history.say(*facts)
    elif roll < 0.4 and any(h < SEATS for h in deal):
        give = rng.choice([c for c, h in enumerate(deal) if h < SEATS])
        history.say(Moved(card[give], deal[give], T))
        deal[give] = T
    elif roll < 0.55 and table:
        for c in table:
            deal[c] = X
        history.say(*(Moved(card[c], T, X) for c in table), Count(X, len(table) + len(pile)))
    elif roll < 0.7 and deck:
        c = rng.choice(deck)
        deal[c] = T
        history.say(Moved(card[c], D, T), Count(D, len(deck) - 1))
    elif roll < 0.8 and pile:
        for c in pile:
            deal[c] = D
        history.say(Reshuffled(X, D), Count(X, 0), Count(D, len(deck) + len(pile)))
    else:
        c = rng.randrange(lay.n_cards)
        p = rng.randrange(SEATS)
        if deal[c] == p:
            history.say(Holds(p, card[c]))
        elif rng.random() < 0.6:
            history.say(Lacks(p, card[c]))
        elif history.cards_of(p):
            others = rng.sample(range(lay.n_cards), 2)
            mine = rng.choice(history.cards_of(p))
            history.say(HoldsAtLeastOne(p, tuple(card[x] for x in {mine, *others})))


def initial_deals(history: History) -> Iterator[list[int]]:
    """Every initial deal with the initial counts and the table's cards as announced."""
    n = history.layout.n_cards
    counts = list(history.initial_counts)
    counts[T] = 0
    rest = [c for c in range(n) if c not in history.table_at_deal]
    holders = [h for h in range(HOLDERS) if counts[h]]

    def go(cards: list[int], i: int, deal: list[int]) -> Iterator[list[int]]:
        if i == len(holders):
            yield deal
            return
        h = holders[i]
        for chosen in itertools.combinations(cards, counts[h]):
            for c in chosen:
                deal[c] = h
            left = [c for c in cards if c not in chosen]
            yield from go(left, i + 1, deal)

    start = [T if c in history.table_at_deal else -1 for c in range(n)]
    yield from go(rest, 0, start)


def replay(history: History, initial: list[int]) -> tuple[int, ...] | None:
    """The current deal that ``initial`` leads to, or None if a fact is false on the way."""
    lay = history.layout
    deal = list(initial)
    for fact in history.facts:
        match fact:
            case Count(holder=h, n=n):
                if deal.count(h) != n:
                    return None
            case Holds(holder=h, card=c):
                if deal[lay.card_index(c)] != h:
                    return None
            case Lacks(holder=h, card=c):
                if deal[lay.card_index(c)] == h:
                    return None
            case HoldsAtLeastOne(holder=h, cards=cards):
                if not any(deal[lay.card_index(c)] == h for c in cards):
                    return None
            case Moved(card=c, src=src, dst=dst):
                i = lay.card_index(c)
                if deal[i] != src:
                    return None
                deal[i] = dst
            case Reshuffled(src=src, dst=dst):
                deal = [dst if h == src else h for h in deal]
            case _:
                raise AssertionError(fact)
    return tuple(deal)


def reachable(history: History) -> Counter[tuple[int, ...]]:
    """Current deals, each with the number of initial deals that lead to it."""
    tally: Counter[tuple[int, ...]] = Counter()
    for initial in initial_deals(history):
        now = replay(history, initial)
        if now is not None:
            tally[now] += 1
    return tally


def random_formula(rng: random.Random, lay: CardLayout, depth: int) -> Any:
    if depth == 0 or rng.random() < 0.4:
        return ("holds", rng.randrange(HOLDERS), lay.cards[rng.randrange(lay.n_cards)])
    op = rng.choice(["and", "or", "not"])
    if op == "not":
        return ("not", random_formula(rng, lay, depth - 1))
    return (op, random_formula(rng, lay, depth - 1), random_formula(rng, lay, depth - 1))


def evaluate(formula: Any, lay: CardLayout, deal: tuple[int, ...]) -> bool:
    op, *args = formula
    if op == "holds":
        return deal[lay.card_index(args[1])] == args[0]
    values = [evaluate(a, lay, deal) for a in args]
    return not values[0] if op == "not" else all(values) if op == "and" else any(values)


def check(history: History, rng: random.Random, agent: int | None) -> None:
    """One seat's (or the public) knowledge against the enumeration."""
    lay, public = history.layout, history.public
    assert public is not None
    truth = tuple(history.deal)
    tally = reachable(history)
    assert truth in tally
    if agent is None:
        know = CardKnowledge.public_view(public)
    else:
        hand = history.cards_of(agent)
        know = CardKnowledge.create(public, agent, [lay.cards[c] for c in hand])
        tally = Counter(
            {
                d: n
                for d, n in tally.items()
                if [h == agent for h in d] == [h == agent for h in truth]
            }
        )
    worlds = list(tally)
    weight = sum(tally.values())
    assert know.worlds_count() == len(worlds), history.facts
    for c in range(lay.n_cards):
        card = lay.cards[c]
        holders = Counter(d[c] for d in worlds)
        weighted: Counter[int] = Counter()
        for d, n in tally.items():
            weighted[d[c]] += n
        assert know.possible_holders(card) == frozenset(holders), (card, history.facts)
        assert know.holder(card) == (next(iter(holders)) if len(holders) == 1 else None)
        for h in range(HOLDERS):
            p = know.probability(card, h)
            assert p == Fraction(holders[h], len(worlds))
            assert p == Fraction(weighted[h], weight)  # uniform is the true posterior
    for _ in range(3):
        formula = random_formula(rng, lay, 2)
        assert know.knows(card_formula(formula)) == all(
            evaluate(formula, lay, d) for d in worlds
        ), formula
    sample = know.sample_world(rng)
    assert REMOVED not in sample and sample in tally


def play_and_check(seed: int, n_cards: int, steps: int) -> None:
    rng = random.Random(seed)
    history = new_history(rng, n_cards)
    for i in range(steps):
        step(history, rng)
        if i % 3 == 2:  # often: cards passing the table soon leave little unknown
            check(history, rng, rng.randrange(SEATS))
    check(history, rng, rng.randrange(SEATS))
    check(history, rng, None)


FAST = settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@FAST
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 16))
def test_eight_cards(seed: int, steps: int) -> None:
    play_and_check(seed, 8, steps)


@FAST
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 24))
def test_nine_cards(seed: int, steps: int) -> None:
    play_and_check(seed, 9, steps)


@pytest.mark.parametrize("seed", range(12))
def test_after_a_reshuffle(seed: int) -> None:
    """Play until the discard pile has been reshuffled into the deck, then check."""
    rng = random.Random(500 + seed)
    history = new_history(rng, 9)
    while not any(isinstance(f, Reshuffled) for f in history.facts):
        step(history, rng)
    check(history, rng, 0)
    for _ in range(4):
        step(history, rng)
    check(history, rng, 1)
    check(history, rng, None)


def test_a_reshuffle_of_unseen_cards_merges_the_piles() -> None:
    """Two unseen cards in the discard pile join the deck: which ones stays unknown."""
    layout = CardLayout.with_locations("abcdef", ["P0", "P1"], [TABLE, DECK, DISCARD, OUT])
    public = start_from_counts(layout, [Count(0, 1), Count(1, 1), Count(D, 2), Count(X, 2)])
    me = CardKnowledge.create(public, 0, ["a"])
    assert me.possible_holders("b") == {1, D, X}
    public = apply_facts(public, [Reshuffled(X, D), Count(D, 4), Count(X, 0)])
    me = CardKnowledge.create(public, 0, ["a"])
    assert me.possible_holders("b") == {1, D}
    assert me.probability("b", D) == Fraction(4, 5)
    public = apply_facts(public, [Moved("b", D, T)])
    assert CardKnowledge.public_view(public).holder("b") == T


def test_a_card_moved_to_a_face_down_pile_is_still_known() -> None:
    layout = CardLayout.with_locations("abcd", ["P0", "P1"], [TABLE, DECK, DISCARD])
    deal = [Count(0, 1), Count(1, 1), Count(T, 1), Count(D, 1), Holds(T, "c")]
    public = start_from_counts(layout, deal)
    public = apply_facts(public, [Moved("c", T, X), Count(X, 1), Count(T, 0)])
    public = apply_facts(public, [Moved("d", D, T)])  # drawn: it was in the deck
    view = CardKnowledge.public_view(public)
    assert view.holder("c") == X and view.holder("d") == T
    assert view.possible_holders("a") == {0, 1}
    public = apply_facts(public, [Reshuffled(X, D)])
    assert CardKnowledge.public_view(public).holder("c") == D


def test_known_values_name_the_face_down_pile_but_not_the_table() -> None:
    """A card seen going to a face-down pile is knowledge; one on the table is in view."""
    layout = CardLayout.with_locations("abcde", ["P0", "P1"], [TABLE, DECK, DISCARD])
    deal = [Count(0, 1), Count(1, 1), Count(T, 2), Count(D, 1), Holds(T, "c"), Holds(T, "e")]
    public = start_from_counts(layout, deal)
    public = apply_facts(public, [Moved("c", T, X), Count(X, 1), Count(T, 1)])
    me = CardKnowledge.create(public, 0, ["a"])
    assert me.known_values() == {"a": "P0", "c": "discard"}


def test_a_public_location_must_show_its_cards() -> None:
    layout = CardLayout.with_locations("abcd", ["P0", "P1"], [TABLE, DECK])
    with pytest.raises(InconsistentCardsError, match="table is a public location"):
        start_from_counts(layout, [Count(0, 1), Count(1, 1), Count(T, 1), Count(D, 1)])
    deal = [Count(0, 1), Count(1, 1), Count(T, 1), Count(D, 1), Holds(T, "a")]
    public = start_from_counts(layout, deal)
    with pytest.raises(InconsistentCardsError, match="count"):
        apply_facts(public, [Count(D, 2)])


def test_a_reshuffle_the_engine_cannot_fold_exactly_is_refused() -> None:
    """Piles known to lack different unseen cards would need a cardinality bound."""
    layout = CardLayout.with_locations("abcdef", ["P0", "P1"], [TABLE, DECK, DISCARD])
    public = start_from_counts(layout, [Count(0, 1), Count(1, 1), Count(D, 2), Count(X, 2)])
    lacking = apply_facts(public, [Lacks(X, "b")])
    with pytest.raises(UnsupportedFactError, match="lack different cards"):
        apply_facts(lacking, [Reshuffled(X, D)])
    claimed = apply_facts(public, [HoldsAtLeastOne(X, ("b", "c"))])
    with pytest.raises(UnsupportedFactError, match="at least one"):
        apply_facts(claimed, [Reshuffled(X, D)])
    with pytest.raises(InconsistentCardsError, match="both"):
        apply_facts(public, [Reshuffled(D, D)])


def test_layout_locations() -> None:
    layout = CardLayout.with_locations("ab", ["N", "S"], [TABLE, DECK, OUT])
    assert layout.holders == ("N", "S", "table", "deck", "out")
    assert layout.players == {0, 1} and layout.locations == (2, 3, 4)
    assert layout.public == {2}
    with pytest.raises(Exception, match="not players"):
        CardLayout(("a",), ("N", "table"), frozenset({0, 1}), frozenset({1}))


def test_fact_renderings() -> None:
    facts: list[CardFact] = [
        Holds(1, "a"),
        Lacks(0, "b"),
        HoldsAtLeastOne(2, ("a", "b")),
        Count(3, 5),
        Moved("a", 3, 2),
        Reshuffled(4, 3),
    ]
    assert [str(f) for f in facts] == [
        "holds(1, a)",
        "lacks(0, b)",
        "at_least_one(2, {a, b})",
        "count(3) = 5",
        "moved(a, 3 → 2)",
        "reshuffled(4 → 3)",
    ]
    assert [f.as_tuple() for f in facts][2] == ("at_least_one", 2, ("a", "b"))
    assert facts[4].to_dict() == {"fact": "moved", "card": "a", "src": 3, "dst": 2}
    assert facts[2].to_dict() == {"fact": "at_least_one", "holder": 2, "cards": ["a", "b"]}
    with pytest.raises(ValueError, match="not a card fact"):
        apply_facts(PublicInfo.start(CardLayout.create("a", ["P"]), [1]), [("holds", 0, "a")])


def test_sampling_is_uniform_after_a_reshuffle() -> None:
    rng = random.Random(3)
    while True:
        history = new_history(rng, 8)
        while not any(isinstance(f, Reshuffled) for f in history.facts):
            step(history, rng)
        assert history.public is not None
        hand = [history.layout.cards[c] for c in history.cards_of(0)]
        know = CardKnowledge.create(history.public, 0, hand)
        if 6 <= know.worlds_count() <= 40:
            break
    draws = 300 * know.worlds_count()
    seen = Counter(know.sample_world(rng) for _ in range(draws))
    assert len(seen) == know.worlds_count()
    expected = draws / len(seen)
    chi2 = sum((n - expected) ** 2 / expected for n in seen.values())
    assert chi2 < 3 * len(seen) + 30
