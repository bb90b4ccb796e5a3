"""`cards.quotient`: formulas on the quotient model equal the knowledge structure's answers."""

from __future__ import annotations

import itertools
import random
from math import factorial

import pytest

from epigames.cards import DECK, CardKnowledge, CardLayout, PublicInfo
from epigames.cards.quotient import quotient
from epigames.cards.symbolic import CardStructure, StructureTooLargeError
from epigames.games.ask import ask, true_deal
from epigames.games.steps import match_at
from epigames.logic import formula as fm
from tests.cards.test_symbolic import random_formula, states

pytest.importorskip("dd")

GAMES = [
    "kemps(players=2,table=2,ranks=3,max_turns=12)",
    "kemps(players=3,table=2,ranks=4,max_turns=12)",
    "klaverjas(ranks=3,deals=1)",
    "kwartet(players=3,kinds=3)",
]


@pytest.mark.parametrize("game", GAMES)
def test_the_quotient_answers_as_the_structure_does(game: str) -> None:
    rng = random.Random(game)
    compared = refused = 0
    for state in states(game, range(3), every=2):
        knowledge = state.observation(0).knowledge
        assert isinstance(knowledge, CardKnowledge)
        cards = CardStructure.from_knowledge(knowledge)
        deal = true_deal(state, knowledge)
        by_name = {name: c for (c, _), name in cards.atom.items()}
        for _ in range(6):
            f = random_formula(rng, cards, depth=3)
            named = frozenset(by_name[a] for a in f.atoms())
            small = quotient(cards, named, deal)
            if small is None:
                refused += 1
                continue
            assert small.model.holds(f) == cards.holds(f, deal), f
            for seat in sorted(cards.layout.players):
                k = fm.K(cards.layout.holders[seat], f)
                assert small.model.holds(k) == cards.holds(k, deal), k
            assert small.deals == cards.count_deals()
            compared += 1
    assert compared >= 10, (compared, refused)


def test_the_eight_player_kemps_deal_is_answered_on_the_quotient() -> None:
    """6.6 million hand-size combinations: no knowledge structure, but a formula about
    one card has a quotient of nine worlds (the card in one of the eight hands or the
    deck), or one if the card lies on the table."""
    game = "kemps(teams=true,players=8)"
    state = match_at(game, ["random"] * 8, 0, 0).state
    with pytest.raises(StructureTooLargeError):
        CardStructure.from_knowledge(state.observation(0).knowledge).build()
    card = state.hands()[1][0]
    answer = ask(state, f"holds(1, {card}) & ~K_0 holds(1, {card})")
    assert answer.value and answer.knowers == (1,)  # only East knows its own card
    # The deals of the 48 unseen cards: four to each hand, sixteen to the deck.
    assert answer.worlds == factorial(48) // (factorial(4) ** 8 * factorial(16))


@pytest.mark.parametrize("seed", range(6))
def test_facts_about_the_alike_cards_are_kept(seed: int) -> None:
    """Hand-made facts whose sets hold all the cards the formula does not name: someone
    holds at least one of them, or not all of them (a group, a not-all fact)."""
    rng = random.Random(seed)
    layout = CardLayout.with_locations(list(range(7)), ("A", "B", "C"), (DECK,))
    counts = (3, 2, 1, 1)
    public = PublicInfo.start(layout, counts, groups=[(4, 5, 6)] if seed % 2 else ())
    public = public.at_least_one(rng.randrange(3), [4, 5, 6])
    not_all = ((0, 0b1110000),) if seed % 3 else ()
    cards = CardStructure.from_public(public, not_all)
    deals = [d for d in itertools.product(range(4), repeat=7) if _fits(cards, d)]
    assert deals and len(deals) == cards.count_deals()
    by_name = {name: c for (c, _), name in cards.atom.items()}
    compared = 0
    for deal in rng.sample(deals, min(5, len(deals))):
        for _ in range(8):
            f = random_formula(rng, cards, depth=3)
            # Cards 0 to 3 lie outside the facts' sets: named, the rest are alike.
            named = frozenset({0, 1, 2, 3, *(by_name[a] for a in f.atoms())})
            small = quotient(cards, named, deal)
            assert small is not None and small.deals == len(deals)
            assert small.model.holds(f) == cards.holds(f, deal), f
            compared += 1
    assert compared == 40


def _fits(cards: CardStructure, deal: tuple[int, ...]) -> bool:
    """Whether a deal (a holder per card) keeps every public fact of `cards`."""
    public = cards.public
    held = [sum(1 << c for c, h in enumerate(deal) if h == x) for x in range(4)]
    if [m.bit_count() for m in held] != list(public.counts):
        return False
    facts_some = all(held[h] & mask for h, mask in public.constraints)
    groups = [(h, g) for g in public.groups for h in range(4)] + list(cards.not_all)
    return facts_some and not any(held[h] & mask == mask for h, mask in groups)
