"""The location table of the table games: the counts and hands it keeps follow the cards it
moves."""

from __future__ import annotations

import random

import pytest

from epigames.cards.fact_types import Count, Moved, Removed, Reshuffled
from epigames.cards.public import REMOVED
from epigames.games import load_game
from epigames.games.core import CHANCE
from epigames.games.table import CardTable, TableError, TableState


def counted(table: CardTable) -> list[int]:
    """Each holder's cards counted from where every card is."""
    return [table.where.count(h) for h in range(table.layout.n_holders)]


@pytest.mark.parametrize("seed", range(5))
def test_the_kept_counts_match_the_table_through_a_game(seed: int) -> None:
    state = load_game("sevens(players=3,ranks=7,suits=3)").new_initial_state()
    assert isinstance(state, TableState)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply(rng.choice(state.legal_actions()))
        table = state._table
        assert table.counts == counted(table)
        for h in range(table.layout.n_holders):  # the kept hands, cached or not
            listed = tuple(
                c for c, w in zip(table.layout.cards, table.where, strict=True) if w == h
            )
            assert table.cards_of(h) == listed
        assert state.clone()._table.counts == table.counts
        view = state.observation(0)
        assert list(view.counts) == counted(table)


def test_removed_and_reshuffled_cards_are_counted_where_they_go() -> None:
    game = load_game("sevens(players=2,ranks=3,suits=1)")
    layout = game.card_layout
    assert layout is not None
    deck, pile = 2, 3  # the first piles after the seats: the deck, then the table
    table = CardTable(layout, deck)
    first, second, _ = layout.cards
    table.apply([Moved(first, deck, 0), Moved(second, deck, pile), Count(0, 1)])
    assert table.counts == counted(table) == [1, 0, 1, 1]
    table.apply([Removed((first, first))])  # a card named twice leaves once
    assert table.where[0] == REMOVED
    assert table.counts == counted(table) == [0, 0, 1, 1]
    table.apply([Reshuffled(pile, deck)])
    assert table.counts == counted(table) == [0, 0, 2, 0]
    table.apply([Reshuffled(deck, deck)])
    assert table.counts == [0, 0, 2, 0]
    with pytest.raises(TableError):
        table.apply([Count(deck, 3)])


def test_at_tells_a_card_object_at_a_holder_from_anything_else() -> None:
    layout = load_game("sevens(players=2,ranks=3,suits=1)").card_layout
    assert layout is not None
    table = CardTable(layout, 2)
    card = layout.cards[0]
    assert table.at(card, 2)
    assert not table.at(card, 0)
    assert not table.at(str(card), 2)  # its text is not the card
    assert not table.at("nonsense", 2)
    assert not table.at([card], 2)  # unhashable
