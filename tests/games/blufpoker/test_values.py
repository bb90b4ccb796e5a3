"""Blufpoker values: the 56 rolls and their ranking, actions, str/parse/repr round trips."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from epigames.errors import IllegalActionError, InputError
from epigames.games.blufpoker import (
    BIDS,
    ROLLS,
    Believe,
    Bid,
    Call,
    Keep,
    Roll,
    RollDice,
    RollError,
    Stop,
    Throw,
)
from epigames.games.blufpoker.actions import BELIEVE, CALL, STOP, ActionSyntaxError, parse_action
from epigames.games.blufpoker.dice import FIRST_POKER, RANKS

rolls = st.sampled_from(ROLLS)


def test_there_are_56_rolls_ranked_as_the_issue_says() -> None:
    assert RANKS == len(ROLLS) == 56 == len(set(ROLLS))
    texts = [str(r) for r in ROLLS]
    assert texts[:8] == ["211", "221", "311", "321", "322", "331", "332", "411"]
    assert texts[49:] == ["665", "111", "222", "333", "444", "555", "666"]
    plain = [r.value for r in ROLLS[:FIRST_POKER]]
    assert plain == sorted(plain) and not any(r.is_poker for r in ROLLS[:FIRST_POKER])
    assert all(r.is_poker for r in ROLLS[FIRST_POKER:])
    assert Roll(6, 6, 5) < Roll(1, 1, 1) < Roll(6, 6, 6)
    assert Roll(2, 1, 1) == min(ROLLS) and max(ROLLS) == Roll(6, 6, 6)
    assert all(a < b for a, b in itertools.pairwise(ROLLS))


def test_every_throw_of_three_dice_is_one_of_the_rolls() -> None:
    seen = {Roll.of(t) for t in itertools.product(range(1, 7), repeat=3)}
    assert seen == set(ROLLS)


@settings(deadline=None)  # no time limits: the machine may be busy
@given(rolls)
def test_roll_round_trips(roll: Roll) -> None:
    assert Roll.parse(str(roll)) is roll
    assert Roll.parse(" ".join(str(roll))) is roll
    assert eval(repr(roll)) == roll
    assert ROLLS[roll.rank] is roll and Roll.of(reversed(roll.dice)) is roll


@pytest.mark.parametrize("text", ["", "65", "6543", "700", "500", "abc", "601"])
def test_bad_rolls_are_errors(text: str) -> None:
    with pytest.raises(RollError, match="not a roll"):
        Roll.parse(text)


def test_unsorted_roll_gets_a_hint_and_errors_are_input_errors() -> None:
    with pytest.raises(RollError, match="did you mean 653"):
        Roll.parse("356")
    with pytest.raises(RollError):
        Roll(3, 5, 6)
    assert issubclass(RollError, InputError) and not issubclass(RollError, IllegalActionError)


@settings(deadline=None)
@given(rolls)
def test_actions_round_trip(roll: Roll) -> None:
    some = [BIDS[roll.rank], RollDice(roll.dice[1:]), Keep(roll.dice[:2]), Throw(roll.dice)]
    for action in [CALL, BELIEVE, STOP, Keep(()), *some]:
        assert parse_action(str(action)) == action
        assert eval(repr(action)) == action
    assert (Call(), Believe(), Stop()) == (CALL, BELIEVE, STOP)


def test_action_texts() -> None:
    assert str(Bid(Roll(6, 5, 4))) == "bid 654"
    assert str(RollDice((5, 3))) == "roll 5 3" and parse_action("roll 53") == RollDice((5, 3))
    assert str(Keep(())) == "keep none" and str(Keep((5, 5))) == "keep 5 5"
    assert str(Throw((6, 4))) == "throw 6 4" and Throw((6, 4)).probability == 2 / 36


@pytest.mark.parametrize(
    "text", ["bid 700", "bid 356", "roll", "roll 7", "roll 1 1 1 1", "keep 5 5 5", "jump", "call 3"]
)
def test_unreadable_actions_raise_input_errors_not_illegal_action_errors(text: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_action(text)
    assert not isinstance(caught.value, IllegalActionError)


def test_malformed_action_values_are_refused() -> None:
    with pytest.raises(ActionSyntaxError):
        RollDice((3, 5))  # not high to low
    with pytest.raises(ActionSyntaxError):
        RollDice(())
    with pytest.raises(RollError):
        Bid(653)  # type: ignore[arg-type]
