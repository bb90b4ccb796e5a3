"""`Game.max_game_length` bounds every game, and the longest play reaches it.

Random play stays within the bound in every setting of the suite
(`test_random_play_reaches_the_end_within_the_rules`); here the default Kemps, which random
players run to its cap, and play that makes each game as long as its rules allow.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence

import pytest

from epigames.games import CHANCE, State, load_game
from epigames.games.blufpoker import BlufpokerState
from epigames.games.blufpoker.actions import BELIEVE, Keep, RollDice
from epigames.games.blufpoker.dice import RANK_OF, sort_dice
from epigames.games.kemps.actions import DONE, PASS, Swap
from epigames.games.klaverjas.actions import PASS as NO_TRUMP
from epigames.games.kwartet import KwartetState

Policy = Callable[[State, Sequence[Hashable], random.Random], Hashable]


def _play(spec: str, policy: Policy, seed: int = 0) -> tuple[State, int]:
    """Play `spec` to the end, decisions by `policy` and chance at random: the final state
    and the number of decisions."""
    state = load_game(spec).new_initial_state()
    rng = random.Random(seed)
    decisions = 0
    while not state.is_terminal():
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.randrange(len(outcomes))][0])
            continue
        state.apply(policy(state, list(state.legal_actions()), rng))
        decisions += 1
    return state, decisions


def _random(state: State, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
    return rng.choice(legal)


@pytest.mark.parametrize("spec", ["kemps", "kemps(teams=true)"])
def test_random_play_of_the_default_kemps_ends_within_its_bound(spec: str) -> None:
    """Random players seldom collect four of a kind: the game runs to `max_turns`."""
    state, decisions = _play(spec, _random)
    assert state.capped
    assert state.game.max_game_length // 2 < decisions <= state.game.max_game_length


def _ask_for_own_cards(state: State, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
    # An ask for a card the asker holds always fails, so no kind is ever completed.
    assert isinstance(state, KwartetState)
    own = set(state.hands()[state.current_player])
    return next(ask for ask in legal if getattr(ask, "card", None) in own)


def _swap_all_then_wait(state: State, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
    swaps = [a for a in legal if isinstance(a, Swap)]
    if swaps:
        return rng.choice(swaps)
    return PASS if PASS in legal else DONE


def _pass_while_allowed(state: State, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
    return NO_TRUMP if NO_TRUMP in legal else rng.choice(legal)


@pytest.mark.parametrize(
    ("spec", "policy"),
    [
        ("kwartet(players=3,kinds=3,max_moves=25)", _ask_for_own_cards),
        ("kemps(max_turns=6)", _swap_all_then_wait),
        ("kemps(teams=true,max_turns=6)", _swap_all_then_wait),
        ("klaverjas(ranks=3,deals=2)", _random),
        ("klaverjas(ranks=3,deals=2,trump=bidding)", _pass_while_allowed),
        ("klaverjas(ranks=4,deals=2,trump=random)", _random),
    ],
)
def test_the_longest_play_takes_max_game_length_decisions(spec: str, policy: Policy) -> None:
    state, decisions = _play(spec, policy)
    assert decisions == state.game.max_game_length


def _longest_round(state: BlufpokerState) -> Hashable:
    """Chance and decisions for the longest round: the lowest opening roll, every bid one
    rank up after rolling the dice one by one, up to a poker believed and thrown for in
    vain three times."""
    phase = state.phase
    options = list(state.legal_actions()) or [o for o, _ in state.chance_outcomes()]
    if phase == "open":
        return min(options, key=lambda throw: RANK_OF[sort_dice(throw.dice)])
    if phase == "poker-throw":
        return next(t for t in options if len(set(t.dice)) > 1)
    if phase == "decide":
        return BELIEVE
    if phase == "roll":
        return next(a for a in options if isinstance(a, RollDice) and len(a.dice) == 1)
    if phase == "poker-keep":
        return Keep(())
    return options[0]  # the lowest bid, or any throw under the cup


@pytest.mark.parametrize("spec", ["blufpoker(players=2,penalties=1)", "blufpoker"])
def test_blufpokers_bound_is_its_longest_round_times_the_rounds_it_allows(spec: str) -> None:
    """A game has at most `players * (penalties - 1) + 1` rounds with a penalty, and
    rounds without one (an equalled poker) allowed until more of them are less likely
    than 1e-12: C(p + e, e + 1) q^(e + 1) with q = P(three given faces in three throws)."""
    state = load_game(spec).new_initial_state()
    assert isinstance(state, BlufpokerState)
    decisions = 0
    while state.penalties == (0,) * state.game.players:
        decisions += state.current_player >= 0
        state.apply(_longest_round(state))
    game = state.game
    penalised = game.players * (game.penalties - 1) + 1
    q = (1 - (5 / 6) ** 3) ** 3
    allowed = next(e for e in range(1000) if math.comb(penalised + e, e + 1) * q ** (e + 1) < 1e-12)
    assert game.max_game_length == decisions * (penalised + allowed)
