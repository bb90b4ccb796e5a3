"""Blufpoker strategies and the `epigames play blufpoker` transcripts."""

from __future__ import annotations

import random
import re
import sys

import pytest

from epigames import cli
from epigames.games import make_strategy, play_match, strategies_for
from epigames.games.blufpoker import BELIEVE, CALL, BlufpokerView
from epigames.games.blufpoker.events import CupSeen
from epigames.games.blufpoker.strategies.knowledge import gauss
from epigames.games.blufpoker.strategies.naive import BIDS_, CALLS, ROLLS_
from tests.games.blufpoker.helpers import scripted

PLAYERS = "knowledge,greedy/truthful/believe,bayes"


def decide(strategy: str, moves: str, seed: int = 0) -> tuple[object, str]:
    state = scripted(moves)
    view = state.observation(state.current_player)
    assert isinstance(view, BlufpokerView)
    decision = make_strategy("blufpoker", strategy, random.Random(seed)).choose(view)
    assert decision.action in view.legal_actions
    return decision.action, decision.thought.text


def test_every_naive_combination_is_registered() -> None:
    names = set(strategies_for("blufpoker"))
    combos = {f"{r}/{b}/{c}" for r in ROLLS_ for b in BIDS_ for c in CALLS}
    assert len(combos) == 24 and combos | {"knowledge", "bayes", "random"} == names


def test_knowledge_calls_an_impossible_bid() -> None:
    # Bob leaves 2 1 outside and bids 665: no world with a 2 and a 1 reaches it.
    action, thought = decide("knowledge", "throw 2 1 1; believe; roll 1; throw 3; stop; bid 665")
    assert action == CALL and "No world" in thought


def test_knowledge_thinks_with_numbers() -> None:
    _, thought = decide("knowledge", "throw 6 5 3; believe; roll 3; throw 1; stop; bid 654")
    assert re.search(r"P\(cup ≥ 654 \| 6 5 shown\) = 0\.50 [≥<] threshold 0\.\d\d", thought)


def test_knowledge_draws_its_thresholds_as_random_gauss_would() -> None:
    # The same values, and the generator left in the same state (its spare normal too),
    # with other draws in between as a strategy makes them.
    ours, theirs = random.Random(7), random.Random(7)
    for i in range(1000):
        mu, sigma = i / 100, 1 + i % 3
        assert gauss(ours, mu, sigma) == theirs.gauss(mu, sigma)
        if i % 7 == 0:
            assert ours.random() == theirs.random()
        assert ours.getstate() == theirs.getstate()


def test_bayes_believes_an_opening_bid_that_knowledge_would_call() -> None:
    # An opening 666 is true by rule; knowledge weighs only the dice (P = 1/216).
    calls = {decide("knowledge", "throw 6 6 6", seed)[0] for seed in range(10)}
    assert calls == {CALL}
    action, thought = decide("bayes", "throw 6 6 6")
    assert action == BELIEVE and "true by rule" in thought


def test_bayes_believes_a_big_jump_from_a_truthful_bidder_but_not_a_small_step() -> None:
    # 665 over 631 is a jump a truthful bidder makes only with the roll; 665 over 664 with
    # 6 6 outside is one step, what a bluffer bids after a miss, and hard to beat.
    jump = "throw 6 3 1; believe; roll 3 1; throw 6 5; stop; bid 665"
    step = "throw 6 6 4; believe; roll 4; throw 1; stop; bid 665"
    assert decide("bayes", jump)[0] == BELIEVE
    assert decide("knowledge", jump, seed=1)[0] == CALL  # P(cup ≥ 665 | 6 shown) is 1/36
    action, thought = decide("bayes", step)
    assert action == CALL and "β" in thought


@pytest.mark.parametrize("strategy", ["knowledge", "bayes", "greedy/truthful/believe", "random"])
def test_strategies_play_whole_games(strategy: str) -> None:
    for seed in range(5):
        result = play_match("blufpoker", [strategy, "knowledge", "bayes"], seed)
        assert sorted(result.returns) == [-1.0, 0.0, 0.0]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    old = sys.argv
    sys.argv = ["epigames", *args]
    try:
        cli.main()
    except SystemExit as exc:
        assert not exc.code
    finally:
        sys.argv = old
    return capsys.readouterr().out


def test_play_shows_a_readable_game(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["play", "blufpoker", "--players", PLAYERS, "--seed", "3"], capsys)
    result = play_match("blufpoker", PLAYERS.split(","), 3)
    for event in result.events:
        assert event.text in out
    for needle in ("opens with", "outside the cup", " bids ", " calls ", "penalty", "P(", "loses"):
        assert needle in out, needle
    assert out.count(" thinks: ") == result.moves


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_play_for_one_seat_hides_the_cup(seat: int, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(
        ["play", "blufpoker", "--players", PLAYERS, "--seed", "3", "--seat", str(seat)], capsys
    )
    result = play_match("blufpoker", PLAYERS.split(","), 3)
    names = ("Ann", "Bob", "Cas")
    thinkers = {
        line.split(" thinks:")[0].split()[-1] for line in out.splitlines() if " thinks:" in line
    }
    assert thinkers == {names[seat]}
    hidden = [e for e in result.events if isinstance(e, CupSeen) and e.seat != seat]
    assert hidden and not any(e.text in out for e in hidden)
    assert all(e.text in out for e in result.events if isinstance(e, CupSeen) and e.seat == seat)
    for line in out.splitlines():
        if "(private)" in line:
            assert line.split("(private) ")[1].startswith(names[seat])
