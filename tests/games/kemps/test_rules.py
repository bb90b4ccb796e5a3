"""Kemps rules as the 2023 program plays them, and their errors."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from epigames.cards import Card
from epigames.errors import IllegalActionError, InputError
from epigames.games import CHANCE, TERMINAL, load_game, play_match
from epigames.games.kemps import (
    DONE,
    GameOver,
    Kemps,
    KempsActionError,
    KempsState,
    NewHand,
    Swap,
    TableCleared,
    TableDealt,
)
from epigames.games.params import GameStringError


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def start(spec: str, first: Iterable[Card] = ()) -> KempsState:
    """A state after the first deal: the given cards are drawn first (table, then hands),
    then the deck in its own order."""
    state = load_game(spec).new_initial_state()
    assert isinstance(state, KempsState)
    draw(state, first)
    return state


def draw(state: KempsState, chosen: Iterable[Card] = ()) -> None:
    """Play the chance node out: the chosen cards first, then the deck in order."""
    wanted = list(chosen)
    while state.current_player == CHANCE:
        state.apply(wanted.pop(0) if wanted else state.chance_outcomes()[0][0])


SMALL = "kemps(ranks=7)"  # 28 cards: a table of 6, three hands, a deck of 10


def test_the_first_deal_and_a_swap_into_the_same_slot() -> None:
    state = start(SMALL, cards("2♣ 3♣ 4♣ 5♣ 6♣ 7♣  2♦ 3♦ 4♦ 5♦"))
    view = state.observation(0)
    assert view.table == tuple(cards("2♣ 3♣ 4♣ 5♣ 6♣ 7♣"))
    assert view.hand == tuple(cards("2♦ 3♦ 4♦ 5♦"))
    assert view.hand_sizes == (4, 4, 4) and view.deck_size == 10
    state.apply(Swap(2, Card.parse("3♦")))  # take 4♣ from slot 3, put 3♦ there
    view = state.observation(0)
    assert view.table == tuple(cards("2♣ 3♣ 3♦ 5♣ 6♣ 7♣"))
    assert view.hand == tuple(cards("2♦ 4♣ 4♦ 5♦"))  # in the place of the card put down
    assert state.current_player == 0 and view.swaps == 1
    # The card put down may not be taken back in the same turn.
    assert Swap(2, Card.parse("2♦")) not in state.legal_actions()
    with pytest.raises(
        IllegalActionError, match=r"illegal action .swap 3 2♦. for South: 3♦ was put down"
    ):
        state.apply(Swap(2, Card.parse("2♦")))


def test_max_swaps_ends_the_turn() -> None:
    state = start("kemps(ranks=7,max_swaps=2)")
    hand = state.observation(0).hand
    state.apply(Swap(0, hand[0]))
    state.apply(Swap(1, hand[1]))
    assert state.current_player == 1


def test_the_table_is_redealt_after_three_idle_turns() -> None:
    state = start(SMALL)
    old = state.observation(0).table
    for _ in range(3):
        state.apply(DONE)
    # The fourth turn starts with a new table: the old one goes to the discard pile.
    assert state.current_player == CHANCE
    assert type(state.events[-1]) is TableCleared
    draw(state)
    assert type(state.events[-1]) is TableDealt and state.current_player == 0
    view = state.observation(0)
    assert view.discard_size == 6 and view.deck_size == 4
    assert not set(view.table) & set(old)
    # A swap resets the count: three more idle turns are needed.
    state.apply(Swap(0, view.hand[0]))
    state.apply(DONE)
    for _ in range(2):
        state.apply(DONE)
    assert state.current_player == 0
    state.apply(DONE)  # the third idle turn after the swap
    assert state.current_player == CHANCE


def test_a_short_deck_is_refilled_from_the_discard_pile() -> None:
    state = start("kemps(ranks=5)")  # 20 cards: the deck keeps 2
    for _ in range(3):
        state.apply(DONE)
    cleared = state.events[-1]
    assert type(cleared) is TableCleared and cleared.reshuffled
    draw(state)
    view = state.observation(0)
    assert view.deck_size == 2 and view.discard_size == 0


def test_kemps_removes_the_four_cards_and_deals_a_new_hand() -> None:
    state = start(SMALL, cards("2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 8♦ 8♥ 8♠"))
    state.apply(DONE)  # dealt four 8s: Kemps at the end of the turn
    kemps = state.events[-1]
    assert type(kemps) is Kemps and kemps.cards == tuple(cards("8♣ 8♦ 8♥ 8♠"))
    assert state.returns() == (1, 0, 0) and state.current_player == CHANCE
    draw(state, cards("6♦ 6♥ 6♠ 7♦"))
    assert [e.seat for e in state.events if type(e) is NewHand] == [0]
    view = state.observation(0)
    assert view.hand == tuple(cards("6♦ 6♥ 6♠ 7♦"))
    assert view.out == tuple(cards("8♣ 8♦ 8♥ 8♠"))
    assert view.hand_sizes == (4, 4, 4) and view.deck_size == 6
    assert state.current_player == 1


def test_a_freshly_dealt_four_of_a_kind_scores_at_the_end_of_the_next_turn() -> None:
    state = start(SMALL, cards("2♣ 2♦ 2♥ 2♠ 3♣ 3♦ 8♣ 8♦ 8♥ 8♠"))
    state.apply(DONE)
    draw(state, cards("7♣ 7♦ 7♥ 7♠"))  # the new hand is four 7s
    assert state.returns() == (1, 0, 0)
    state.apply(DONE)
    state.apply(DONE)
    assert state.returns() == (1, 0, 0)  # the other seats' turns do not score it
    draw(state)  # three idle turns: a new table
    assert state.current_player == 0
    state.apply(DONE)
    assert state.returns() == (2, 0, 0)


def test_a_dealt_four_of_a_kind_waits_for_its_turn() -> None:
    # Seat 1 is dealt four 8s: seat 0's turn does not score it, seat 1's does.
    state = start(SMALL, cards("2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 2♦ 3♦ 4♦ 5♦ 8♣ 8♦ 8♥ 8♠"))
    state.apply(DONE)
    assert state.returns() == (0, 0, 0) and state.current_player == 1
    state.apply(DONE)
    assert state.returns() == (0, 1, 0)


@pytest.mark.parametrize("seed", range(4))
def test_a_full_game_ends_at_exactly_the_ninth_kemps(seed: int) -> None:
    result = play_match("kemps", ["greedy", "greedy", "greedy"], seed)
    state = load_game("kemps").new_initial_state()
    for action in result.history:
        state.apply(action)
    assert isinstance(state, KempsState)
    assert state.current_player == TERMINAL and not state.capped
    assert sum(state.returns()) == 9
    last = state.events[-1]
    assert type(last) is GameOver and not last.capped
    scorer = next(e.seat for e in reversed(state.events) if type(e) is Kemps)
    assert state.hands()[scorer] == () and sum(len(h) for h in state.hands()) == 8


def test_the_turn_cap_is_reported() -> None:
    state = start("kemps(ranks=7,max_turns=2)")
    state.apply(DONE)
    state.apply(DONE)
    assert state.current_player == TERMINAL and state.capped
    last = state.events[-1]
    assert type(last) is GameOver and last.capped and "turn cap" in last.text


def test_illegal_actions_raise_clear_errors_and_change_nothing() -> None:
    state = start(SMALL)
    before = state.to_json()
    hand = state.observation(0).hand
    other = state.observation(1).hand[0]
    for action, reason in [
        (Swap(6, hand[0]), "the table has slots 1 to 6"),
        (Swap(0, other), f"{other} is not in South's hand"),
        (Card.parse("A♠"), r"illegal action .A♠. for South"),
        ("swap", "illegal action"),
    ]:
        with pytest.raises(IllegalActionError, match=reason):
            state.apply(action)
    assert state.to_json() == before
    with pytest.raises(IllegalActionError, match="at a chance node"):
        load_game(SMALL).new_initial_state().apply(DONE)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("swap", "expected 'swap SLOT CARD'"),
        ("swap 0 7♥", "slots count from 1"),
        ("swap 2 7x", "cannot read action 'swap 2 7x'"),
        ("take 7♥", "expected 'swap SLOT CARD'"),
    ],
)
def test_bad_action_text_says_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(KempsActionError, match=message):
        load_game("kemps").parse_action(text)
    assert issubclass(KempsActionError, InputError)


def test_actions_round_trip_as_text() -> None:
    game = load_game("kemps")
    for action in (Swap(2, Card.parse("7♥")), DONE, Card.parse("10♣")):
        assert game.parse_action(game.action_to_string(action)) == action


def test_a_game_too_small_for_its_deal_is_refused() -> None:
    with pytest.raises(GameStringError, match="need at least 26 cards"):
        load_game("kemps(players=5,ranks=6)")
