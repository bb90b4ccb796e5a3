"""`tom` in the team game: it completes, signals and calls Stop Kemps on what the
opponents can know (`tom_team`), in constructed positions and in seeded games."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from epigames.cards import Card
from epigames.games import load_game, play_match
from epigames.games.kemps import Call
from epigames.games.kemps.actions import SIGNAL
from epigames.games.kemps.rules import KempsState
from epigames.games.kemps.strategies.tom import PublicCollections, plan_tom
from epigames.games.kemps.strategies.tom_team import (
    STOP_AT,
    first_callers,
    seen_chance,
    stop_call,
)
from tests.games.kemps.test_rules import cards, start

GAME = "kemps(teams=true,ranks=6)"
PASSES = ["pass"] * 4
TWOS = cards("2♥ 2♦ 2♣ 2♠")
#: South takes 2♥ and 2♦ in view; West and North then put 2♠ and 2♣ on the table: all
#: four 2s can reach South's hand only in view.
SHOWN = "2♥ 2♦ 3♣ 4♠  3♦ 4♦ 5♥ 6♦  2♠ 5♣ 6♣ 7♣  2♣ 5♦ 6♥ 7♦  3♥ 4♥ 5♠ 6♠"
SHOWN_MOVES = [
    *("swap 1 5♥", "swap 2 6♦", "done", *PASSES),
    *("swap 3 2♠", "done", *PASSES),
    *("swap 4 2♣", "done", *PASSES),
    *("done", *PASSES),
]
#: South holds 2♠ 2♣ from the deal and takes 2♥ 2♦ from the table: two 2s stay hidden.
HIDDEN = "2♥ 2♦ 3♣ 4♠  2♠ 2♣ 5♥ 6♦  3♦ 5♣ 6♣ 7♣  4♦ 5♦ 6♥ 7♦  3♥ 4♥ 5♠ 6♠"


def position(deal: str, moves: list[str]) -> KempsState:
    state = start(GAME, cards(deal))
    for move in moves:
        state.apply(state.game.parse_action(move))
    return state


def south_plan(state: KempsState, stoppers: set[int]) -> tuple[int, str]:
    """South's plan: its number of swaps and its words, West and East taken as having
    called Stop Kemps when in `stoppers`."""
    view = state.observation(0)
    public = PublicCollections(0, 4).update(view.log)
    public.stoppers |= stoppers
    plan = plan_tom(view, public)
    return len(plan.swaps), str(plan)


def test_the_first_callers_are_the_opponents_asked_before_the_partner() -> None:
    assert first_callers(load_game("kemps(teams=true)"), 0) == (1,)  # type: ignore[arg-type]
    assert first_callers(load_game("kemps(teams=true)"), 3) == (0,)  # type: ignore[arg-type]
    six = load_game("kemps(teams=true,players=6)")
    assert first_callers(six, 0) == (1, 2)  # type: ignore[arg-type]
    eight = load_game("kemps(teams=true,players=8)")
    assert first_callers(eight, 5) == (6, 7, 0)  # type: ignore[arg-type]


def test_tom_leaves_the_last_card_when_a_stop_kemps_caller_would_know() -> None:
    """All four 2s would be taken in view: West, first to call, would know (1.00). Against
    a West that has called Stop Kemps tom takes one 2 and leaves the other; else it
    completes."""
    state = position(SHOWN, SHOWN_MOVES)
    assert state.current_player == 0
    swaps, said = south_plan(state, {1})
    assert swaps == 1
    assert "West would give four 2s in my hand 1.00 if I took 2♣ in view" in said
    assert "I leave it on the table" in said
    swaps, said = south_plan(state, set())
    assert swaps == 2 and "West could tell my four 2s (1.00) but has not called" in said
    # East is not asked before North: its calls do not matter.
    swaps, _ = south_plan(state, {3})
    assert swaps == 2


def test_tom_completes_when_the_first_caller_cannot_tell() -> None:
    """Two of South's 2s are hidden: West would give the four of a kind little, so tom
    completes even against a West that calls Stop Kemps."""
    state = position(HIDDEN, [])
    view = state.observation(0)
    swaps, said = south_plan(state, {1})
    assert swaps == 2
    found = re.search(r"West, first to call, would give four 2s in my hand only (\d\.\d\d)", said)
    assert found is not None and float(found.group(1)) <= float(STOP_AT)
    # The chance said is the card engine's, after the two swaps in view.
    for move in ("swap 1 5♥", "swap 2 6♦"):
        state.apply(state.game.parse_action(move))
    chance = seen_chance(state.observation(1).public, 1, 0, TWOS)
    assert f"{float(chance):.2f}" == found.group(1)
    assert view.seat == 0


def test_tom_calls_stop_kemps_when_it_knows_and_not_when_it_cannot() -> None:
    shown = position(SHOWN, [*SHOWN_MOVES, "swap 3 4♦", "swap 4 3♦", "signal"])
    assert shown.current_player == 1  # West is asked first
    west = shown.observation(1)
    public = PublicCollections(1, 4).update(west.log)
    decision = stop_call(west, public.shown)
    assert decision is not None and decision.action == Call(0, True)
    assert "I know South holds 2♣, 2♦, 2♥, 2♠ (it took them)" in str(decision.thought)
    assert "1.00, above 1/3: Stop Kemps!" in str(decision.thought)

    hidden = position(HIDDEN, ["swap 1 5♥", "swap 2 6♦", "signal"])
    west = hidden.observation(1)
    assert west.knowledge.probability_holds_all(0, TWOS) <= STOP_AT
    assert stop_call(west, PublicCollections(1, 4).update(west.log).shown) is None


@pytest.mark.parametrize("opponent", ["greedy", "kbgreedy"])
def test_seeded_team_games_are_legal_deterministic_and_say_why(opponent: str) -> None:
    """A tom pair against each report pair: every move legal (the match refuses any
    other), the same seed the same game and thoughts, and every signal says what the first
    opponent to call can know of it."""
    game = "kemps(teams=true,max_turns=400)"
    signals = 0
    for seed in range(4):
        lineup = ["tom", opponent] * 2 if seed % 2 else [opponent, "tom"] * 2
        result = play_match(game, lineup, seed)
        again = play_match(game, lineup, seed)
        assert result.history == again.history
        assert [str(e.thought) for e in result.transcript] == [
            str(e.thought) for e in again.transcript
        ]
        for entry in result.transcript:
            if result.strategies[entry.seat] == "tom" and entry.action == SIGNAL:
                signals += 1
                assert re.search(r"first to call, gives that \d\.\d\d", str(entry.thought))
    assert signals > 0


def test_stop_at_is_where_a_call_pays() -> None:
    """Right: +1 and the opponents' point gone; wrong: -1. Even at `STOP_AT`."""
    p = STOP_AT
    assert 2 * p - (1 - p) == Fraction(0)
    assert isinstance(TWOS[0], Card)
