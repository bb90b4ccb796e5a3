"""Blufpoker rules: rounds, calls, the poker phase, the end, and illegal actions."""

from __future__ import annotations

import random

import pytest

from epigames.errors import IllegalActionError, InputError
from epigames.games import CHANCE, TERMINAL, load_game, play_match
from epigames.games.blufpoker import BELIEVE, BIDS, CALL, STOP, Keep, Roll, RollDice, Throw
from epigames.games.blufpoker.events import Called, Cup, Opened, PokerDone, Stopped
from epigames.games.match import sample_outcome
from epigames.games.outcomes import WeightedOutcomes
from tests.games.blufpoker.helpers import BLUFF, scripted, snapshot


def test_a_round_opens_with_a_true_bid_and_passes_on() -> None:
    state = scripted("throw 6 5 3")
    assert state.current_player == 1 and state.phase == "decide"
    assert set(state.legal_actions()) == {CALL, BELIEVE}
    opened = [e for e in state.events if isinstance(e, Opened)]
    assert opened[0].roll == Roll(6, 5, 3) and Cup(Roll(6, 5, 3)) in opened[0].facts


def test_believing_rolling_stopping_and_bidding() -> None:
    state = scripted("throw 6 5 3; believe")
    assert state.phase == "roll" and STOP not in state.legal_actions()  # must roll first
    assert set(state.legal_actions()) >= {RollDice((3,)), RollDice((6, 5, 3))}
    state.apply(RollDice((3,)))
    assert state.current_player == CHANCE and len(state.chance_outcomes()) == 6
    state.apply(Throw((1,)))
    assert state.cup == Roll(6, 5, 1) and STOP in state.legal_actions()
    assert RollDice((3,)) not in state.legal_actions()  # a die is rolled once a turn
    state.apply(STOP)
    stopped = [e for e in state.events if isinstance(e, Stopped)][-1]
    assert stopped.visible == (6, 5)
    assert state.legal_actions() == BIDS[Roll(6, 5, 3).rank + 1 :]  # strictly higher


def test_rolling_every_die_ends_the_rolling_without_a_stop() -> None:
    state = scripted("throw 4 2 1; believe; roll 4 2 1; throw 6 6 2")
    assert state.phase == "bid" and state.cup == Roll(6, 6, 2)


def test_a_caught_bluff_penalises_the_bidder_who_starts_the_next_round() -> None:
    state = scripted(BLUFF + "; call")
    called = [e for e in state.events if isinstance(e, Called)][-1]
    assert (called.roll, called.bid, called.loser) == (Roll(6, 5, 1), Roll(6, 5, 4), 1)
    assert state.penalties == (0, 1, 0)
    assert state.current_player == CHANCE and state.holder == 1
    state.apply(Throw((2, 2, 1)))
    assert state.current_player == 2  # Bob opened, Cas decides


def test_calling_a_true_bid_penalises_the_caller() -> None:
    state = scripted("throw 6 5 3; believe; roll 3; throw 4; stop; bid 654; call")
    assert state.penalties == (0, 0, 1) and state.holder == 2


def test_a_bid_below_the_roll_is_true() -> None:
    state = scripted("throw 6 5 3; believe; roll 3; throw 6; stop; bid 654; call")
    assert state.penalties == (0, 0, 1)


@pytest.mark.parametrize(
    ("throws", "penalties", "starter"),
    [
        ("throw 5 5 2; keep 5 5; throw 5", (1, 0, 0), 0),  # beats 444: the bidder
        ("throw 4 4 4", (0, 0, 0), 1),  # equals it: nobody; the believer starts
        ("throw 3 2 1; keep none; throw 6 5 1; keep 6; throw 2 1", (0, 1, 0), 1),  # fails
        ("throw 3 3 3", (0, 0, 0), None),  # a lower poker is no success: rolling goes on
    ],
)
def test_poker_phase(throws: str, penalties: tuple[int, ...], starter: int | None) -> None:
    state = scripted("throw 4 4 4; believe; " + throws)
    assert state.penalties == penalties
    if starter is None:
        assert state.phase == "poker-keep" and state.current_player == 1
        assert Keep((3, 3)) in state.legal_actions()
        assert "keep 3 3 3" not in {str(a) for a in state.legal_actions()}
        return
    done = [e for e in state.events if isinstance(e, PokerDone)]
    assert len(done) == 1 and state.holder == starter and state.phase == "open"


def test_the_game_ends_at_the_penalty_limit() -> None:
    state = scripted(BLUFF + "; call", spec="blufpoker(penalties=1)")
    assert state.current_player == TERMINAL and state.returns() == (0.0, -1.0, 0.0)
    assert state.winners() == (0, 2) and not state.legal_actions()
    assert "Bob loses" in state.events[-1].text


@pytest.mark.parametrize(
    ("moves", "bad"),
    [
        ("throw 6 5 3", BIDS[Roll(6, 6, 1).rank]),  # out of turn: bidding when deciding
        ("throw 6 5 3", Throw((1, 2, 3)[::-1])),  # a chance outcome at a player's turn
        ("", CALL),  # a player's action at a chance node
        ("throw 6 5 3; believe", STOP),  # rolling no die
        ("throw 6 5 3; believe", RollDice((4,))),  # a die that is not in the cup
        ("throw 6 5 3; believe; roll 3", Throw((1, 1))),  # wrong number of dice
        ("throw 6 5 3; believe; roll 3; throw 1; stop", BIDS[Roll(6, 5, 3).rank]),  # not higher
        ("throw 6 5 3; believe; roll 3; throw 1; stop", BIDS[0]),
        ("throw 6 5 3; believe; roll 3; throw 1; stop", RollDice((6,))),
        ("throw 4 4 4; believe; throw 5 5 2", Keep((6,))),
        ("throw 4 4 4; believe; throw 5 5 2", BELIEVE),
    ],
)
def test_illegal_actions_raise_and_change_nothing(moves: str, bad: object) -> None:
    state = scripted(moves)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="illegal action"):
        state.apply(bad)
    assert snapshot(state) == before


def test_bad_bid_texts_raise_input_errors() -> None:
    game = load_game("blufpoker")
    for text in ("bid 700", "bid 356", "roll"):
        with pytest.raises(InputError) as caught:
            game.parse_action(text)
        assert not isinstance(caught.value, IllegalActionError)


@pytest.mark.parametrize("spec", ["blufpoker(players=2)", "blufpoker(players=6,penalties=2)"])
def test_random_play_always_ends_and_rounds_are_bounded(spec: str) -> None:
    for seed in range(20):
        state = load_game(spec).new_initial_state()
        rng = random.Random(seed)
        steps_this_round = 0
        while not state.is_terminal():
            if state.current_player == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply(rng.choice(list(state.legal_actions())))
            steps_this_round = 0 if state.phase == "open" else steps_this_round + 1
            # 55 bids at most, each turn at most 1 decision + 3 rolls + stop + bid + throws.
            assert steps_this_round < 56 * 9


def test_same_seed_same_game_and_parameters() -> None:
    names = ["knowledge", "greedy/truthful/believe", "bayes"]
    assert play_match("blufpoker", names, 5).digest() == play_match("blufpoker", names, 5).digest()
    assert str(load_game("blufpoker")) == "blufpoker(players=3,penalties=5)"
    with pytest.raises(ValueError, match="out of range"):
        load_game("blufpoker(players=7)")


def test_a_look_under_the_cup_lasts_until_the_cup_changes() -> None:
    # Ann opens 653 and sees it; Bob believes and looks; Ann's look holds until Bob rolls.
    state = scripted("throw 6 5 3; believe")
    assert [state.observation(s).cup for s in range(3)] == [Roll(6, 5, 3), Roll(6, 5, 3), None]
    state.apply(RollDice((3,)))
    assert [state.observation(s).cup for s in range(3)] == [None, Roll(6, 5, 3), None]
    for text in ("throw 1", "stop", "bid 654", "believe"):
        state.apply(state.game.parse_action(text))
    # Cas believes Bob's bluff and looks: both know the cup now, Ann does not.
    assert [state.observation(s).cup for s in range(3)] == [None, Roll(6, 5, 1), Roll(6, 5, 1)]
    assert state.observation(2).untouched == (6, 5, 1) and state.observation(1).fresh == (1,)


def test_a_caller_does_not_see_the_cup_it_takes_over() -> None:
    # Cas calls Bob's bluff: Bob starts the next round; a caught caller holds the cup unseen.
    state = scripted("throw 6 5 3; believe; roll 3; throw 6; stop; bid 654; call")
    assert state.holder == 2 and state.observation(2).cup is None
    assert state.observation(1).cup == Roll(6, 6, 5)  # Bob rolled it and still knows it


def test_a_view_is_a_snapshot_even_when_its_log_is_read_later() -> None:
    state = scripted(BLUFF)
    early = [state.observation(s) for s in range(3)]
    lengths = [len(view.log) for view in [state.observation(s) for s in range(3)]]
    state.apply(CALL)
    state.apply(Throw((5, 5, 2)))
    for seat, view in enumerate(early):
        assert len(view.log) == view.log_length == lengths[seat]
        assert view.events_since(0) == list(view.log)
        assert all(e.visible_to(seat) for e in view.log)
    assert len(state.observation(0).log) > lengths[0]


@pytest.mark.parametrize("spec", ["blufpoker(players=2)", "blufpoker(players=4,penalties=2)"])
def test_a_views_board_is_the_public_record_now(spec: str) -> None:
    # The state keeps the board between changes of the public record: after every action
    # and chance outcome, each seat's board is the one made afresh from the record.
    for seed in range(10):
        state = load_game(spec).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(sample_outcome(state.chance_outcomes(), rng))
            else:
                state.apply(rng.choice(list(state.legal_actions())))
            kept = [state.observation(s).board for s in range(state.game.num_players)]
            state._board = None
            assert kept == [state.observation(s).board for s in range(state.game.num_players)]


@pytest.mark.parametrize("count", [1, 2, 3])
def test_throws_are_drawn_as_from_their_pairs(count: int) -> None:
    # The throws of `count` dice keep their running totals (`WeightedOutcomes`): the draw
    # is the one a scan of the plain pairs makes, for the same generator.
    state = scripted("throw 6 5 3; believe")
    state.apply(RollDice((6, 5, 3)[:count]))
    outcomes = state.chance_outcomes()
    assert isinstance(outcomes, WeightedOutcomes) and len(outcomes[0][0].dice) == count
    pairs = tuple(outcomes)
    assert type(pairs) is tuple and pairs == outcomes
    a, b = random.Random(count), random.Random(count)
    assert [sample_outcome(outcomes, a) for _ in range(2000)] == [
        sample_outcome(pairs, b) for _ in range(2000)
    ]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
