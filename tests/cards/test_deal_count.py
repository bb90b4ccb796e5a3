"""Counting deals by items of alike cards, against the card engine and brute force."""

from __future__ import annotations

import itertools
import random

import pytest

from epigames.cards import CardKnowledge
from epigames.cards.deal_count import count_deals
from epigames.cards.symbolic import CardStructure
from epigames.games.ask import _knowledge
from tests.cards.test_quotient import made_up_states
from tests.cards.test_symbolic import states

pytest.importorskip("dd")


@pytest.mark.parametrize(
    "game",
    [
        "kwartet(players=4,kinds=5)",
        "kemps(players=3)",
        "kemps(teams=true,players=4,ranks=6)",
        "klaverjas(deals=1)",
    ],
)
def test_the_count_is_the_card_engines(game: str) -> None:
    """At each of the first 150 steps of seeded games, as many deals as the card engine
    counts."""
    counted = 0
    for state in itertools.islice(states(game, range(2), every=1), 150):
        knowledge = _knowledge(state)
        mine = count_deals(CardStructure.from_knowledge(knowledge))
        public = CardKnowledge(knowledge.public, None, 0, (), (), knowledge.not_all)
        assert mine == public.worlds_count()
        counted += 1
    assert counted >= 20


def test_made_up_facts_are_counted_as_the_deals_listed() -> None:
    """Lacks, at-least-one and not-all facts on a few cards: every deal listed."""
    rng = random.Random(5)
    compared = 0
    for public, not_all, deals in made_up_states(rng, 100):
        assert count_deals(CardStructure.from_public(public, not_all)) == len(deals)
        compared += 1
    assert compared >= 50
