"""Kwartet rules on hand-made deals."""

from __future__ import annotations

import pytest

from epigames.cards import Count, Holds, HoldsAtLeastOne, Lacks, Moved, Removed
from epigames.errors import IllegalActionError
from epigames.games import CHANCE, TERMINAL, load_game
from epigames.games.kwartet import (
    Ask,
    Asked,
    Card,
    DealDone,
    Dealt,
    GameOver,
    LaidDown,
    OutOfCards,
)
from tests.games.kwartet.helpers import cards, dealt

SMALL = "kwartet(players=3,kinds=2)"


def small() -> object:
    return dealt(SMALL, "1.1 1.2 2.1", "1.3 2.2 2.3", "1.4 2.4")


def test_deal_is_chance_card_by_card_and_as_even_as_possible() -> None:
    state = load_game("kwartet(players=5)").new_initial_state()
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and {p for _, p in outcomes} == {1 / 52}
    state.apply(Card(8, 4))
    assert len(state.chance_outcomes()) == 51 and Card(8, 4) not in dict(state.chance_outcomes())
    while state.current_player == CHANCE:
        state.apply(state.chance_outcomes()[0][0])
    assert sorted(len(h) for h in state.hands()) == [10, 10, 10, 11, 11]
    assert Card(8, 4) in state.hands()[0]  # South got the first card


def test_each_seat_privately_sees_its_own_hand_and_everyone_sees_the_sizes() -> None:
    state = small()
    dealt_events = [e for e in state.events if isinstance(e, Dealt)]
    assert [e.seat for e in dealt_events] == [0, 1, 2]
    assert all(not e.public for e in dealt_events)
    assert dealt_events[2].cards == tuple(cards("1.4 2.4"))
    assert Count(2, 2) in dealt_events[2].facts
    assert Holds(2, Card(2, 4)) in dealt_events[2].facts
    done = [e for e in state.events if isinstance(e, DealDone)]
    assert done[0].hand_sizes == (3, 3, 2) and done[0].public
    for seat in range(3):
        view = state.observation(seat)
        assert view.hand == state.hands()[seat]
        assert [e for e in view.log if isinstance(e, Dealt)] == [dealt_events[seat]]
        assert view.hand_sizes == (3, 3, 2)


def test_success_moves_the_card_and_the_asker_asks_again() -> None:
    state = small()
    assert state.current_player == 0
    state.apply(Ask(1, Card(1, 3)))
    assert state.current_player == 0
    assert Card(1, 3) in state.hands()[0] and Card(1, 3) not in state.hands()[1]
    event = state.events[-1]
    assert isinstance(event, Asked) and event.success and event.public
    assert event.facts == (
        HoldsAtLeastOne(0, tuple(cards("1.1 1.2 1.3 1.4"))),
        Holds(1, Card(1, 3)),
        Moved(Card(1, 3), 1, 0),
    )
    assert event.text == "South asks Northwest for ⟨1,3⟩: Northwest hands it over."
    assert state.observation(2).hand_sizes == (4, 2, 2)


def test_a_completed_kind_is_laid_down_at_once_for_a_point() -> None:
    state = small()
    state.apply(Ask(1, Card(1, 3)))
    state.apply(Ask(2, Card(1, 4)))
    event = state.events[-1]
    assert isinstance(event, LaidDown) and (event.seat, event.card_kind, event.points) == (0, 1, 1)
    assert event.facts[-1] == Removed(tuple(cards("1.1 1.2 1.3 1.4")))
    assert state.returns() == (1, 0, 0)
    assert state.hands()[0] == (Card(2, 1),)
    # Kind 1 is gone: nobody may ask for it any more.
    with pytest.raises(IllegalActionError):
        state.apply(Ask(1, Card(1, 1)))


def test_failure_passes_the_turn_clockwise_and_shows_the_target_lacks_the_card() -> None:
    state = small()
    state.apply(Ask(2, Card(2, 1)))  # South asks for its own card: allowed by default
    event = state.events[-1]
    assert isinstance(event, Asked) and not event.success
    assert event.facts[-1] == Lacks(2, Card(2, 1))
    assert state.current_player == 1


def test_ask_own_false_forbids_asking_for_own_cards_and_the_ask_reveals_it() -> None:
    state = dealt(
        "kwartet(players=3,kinds=2,ask_own=false)", "1.1 1.2 2.1", "1.3 2.2 2.3", "1.4 2.4"
    )
    legal = state.legal_actions()
    assert Ask(1, Card(2, 1)) not in legal and Ask(1, Card(2, 2)) in legal
    assert len(legal) == 2 * 5  # two targets, five cards South lacks of its kinds
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="ask 1 ⟨2,1⟩"):
        state.apply(Ask(1, Card(2, 1)))
    assert state.to_json() == before
    state.apply(Ask(2, Card(2, 2)))
    assert Lacks(0, Card(2, 2)) in state.events[-1].facts


def test_only_kinds_held_and_only_opponents_with_cards() -> None:
    state = dealt(
        "kwartet(players=3,kinds=3)", "1.1 1.2 1.3 2.1", "1.4 2.2 2.3 3.1", "2.4 3.2 3.3 3.4"
    )
    assert all(a.card.kind in (1, 2) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="legal actions"):
        state.apply(Ask(2, Card(3, 2)))  # South holds no card of kind 3
    with pytest.raises(IllegalActionError):
        state.apply(Ask(0, Card(1, 4)))  # not oneself
    for ask in ["1 1.4", "1 2.2", "1 2.3", "2 2.4"]:
        target, card = ask.split()
        state.apply(Ask(int(target), Card.parse(card)))
    # South laid down kinds 1 and 2, is out of cards, and the turn went to Northwest.
    assert state.returns() == (2, 0, 0)
    assert [type(e) for e in state.events[-3:]] == [Asked, LaidDown, OutOfCards]
    assert any(isinstance(e, OutOfCards) and e.seat == 0 for e in state.events)
    assert state.current_player == 1
    assert all(a.target == 2 for a in state.legal_actions())
    with pytest.raises(IllegalActionError):
        state.apply(Ask(0, Card(3, 1)))  # South has no cards
    state.apply(Ask(2, Card(3, 1)))  # Northwest asks for its own card and fails
    assert state.current_player == 2
    state.apply(Ask(1, Card(3, 2)))  # Northeast fails; South is skipped
    assert state.current_player == 1
    state.apply(Ask(2, Card(3, 2)))
    state.apply(Ask(2, Card(3, 3)))
    state.apply(Ask(2, Card(3, 4)))
    assert state.current_player == TERMINAL and state.is_terminal()
    end = state.events[-1]
    assert isinstance(end, GameOver) and end.scores == (2, 1, 0)
    assert state.winners() == (0,)
    assert end.text == "Game over: South 2, Northwest 1, Northeast 0. South wins."
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(Ask(1, Card(3, 1)))


def test_a_kind_dealt_complete_is_laid_down_before_play() -> None:
    state = dealt(
        "kwartet(players=3,kinds=3)", "1.1 1.2 1.3 1.4", "2.1 2.2 3.1 3.2", "2.3 2.4 3.3 3.4"
    )
    assert state.returns() == (1, 0, 0)
    assert any(isinstance(e, OutOfCards) and e.seat == 0 for e in state.events)
    assert state.current_player == 1
    assert state.observation(0).hand == ()


def test_ties_are_ties() -> None:
    state = dealt(
        "kwartet(players=3,kinds=3)", "1.1 1.2 1.3 1.4", "2.1 2.2 2.3 2.4", "3.1 3.2 3.3 3.4"
    )
    assert state.is_terminal() and state.returns() == (1, 1, 1)
    assert state.winners() == (0, 1, 2)
    assert "Tie between South and Northwest and Northeast" in state.events[-1].text


def test_a_view_is_a_snapshot_and_offers_moves_only_on_its_turn() -> None:
    state = small()
    view = state.observation(0)
    others = state.observation(1)
    assert view.is_my_turn and len(view.legal_actions) == 2 * 8
    assert others.legal_actions == () and not others.is_my_turn
    state.apply(Ask(1, Card(1, 3)))
    assert view.hand == tuple(cards("1.1 1.2 2.1"))
    assert view.hand_sizes == (3, 3, 2) and len(view.log) == 2
    assert state.observation(0).hand == tuple(cards("1.1 1.2 1.3 2.1"))


def test_parameters_and_names() -> None:
    game = load_game("kwartet(players=6)")
    assert game.seat_names == ("South", "Southwest", "Northwest", "North", "Northeast", "Southeast")
    assert load_game("kwartet").seat_names == ("South", "West", "North", "East")
    assert game.returns_range == (0, 13)
    assert game.parse_action("ask Southeast 8.4") == Ask(5, Card(8, 4))
    assert game.parse_action("⟨8,4⟩") == Card(8, 4)


def test_legal_asks_are_kept_by_the_cards_identity_and_equal_for_equal_cards() -> None:
    """The same card tuple gives the same tuple of asks; an equal new tuple (as a seat that
    may not ask for its own cards gets after each change of hand) gives equal asks."""
    from epigames.games.kwartet.cards import CARDS, Ask
    from epigames.games.kwartet.records import legal_asks

    cards = tuple(CARDS[4:8])
    first = legal_asks((1, 2), cards)
    assert first == tuple(Ask(t, c) for t in (1, 2) for c in cards)
    assert legal_asks((1, 2), cards) is first
    assert legal_asks((1, 2), tuple(CARDS[4:8])) == first
    assert legal_asks((2,), cards) == tuple(Ask(2, c) for c in cards)
    assert legal_asks((1, 2), tuple(CARDS[4:7])) == first[:3] + first[4:7]
