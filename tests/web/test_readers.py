"""Who may read a thought: items a public fact names without placing them stay secret."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from epigames.cards.deck import Card
from epigames.cards.fact_types import Holds, Lacks
from epigames.games.blufpoker.dice import Roll
from epigames.games.blufpoker.events import Claims, Cup
from epigames.games.strategy import Thought
from epigames.web.readers import public_items, thought_readers


def public(*facts: Any) -> Any:
    return SimpleNamespace(public=True, facts=facts)


def test_a_truthful_bid_does_not_show_the_bidders_thought() -> None:
    """Else a shown thought would tell the others that the bid is the roll under the cup."""
    roll = Roll.parse("653")
    thought = Thought("I saw 653 and bid it.", names=frozenset({roll}))
    private = [frozenset({roll}), frozenset(), frozenset()]
    said = public_items([public(Claims(0, roll))])
    assert thought_readers(0, thought, private, said) == {0}
    lifted = public_items([public(Cup(roll))])
    assert thought_readers(0, thought, private, lifted) == {0, 1, 2}


def test_a_lacked_card_is_not_placed_but_a_held_one_is() -> None:
    card = Card.parse("8♥")
    thought = Thought("North holds 8♥.", names=frozenset({card}))
    private = [frozenset(), frozenset(), frozenset({card}), frozenset()]
    assert thought_readers(0, thought, private, public_items([public(Lacks(1, card))])) == {0, 2}
    assert thought_readers(0, thought, private, public_items([public(Holds(2, card))])) == {
        0, 1, 2, 3
    }  # fmt: skip
