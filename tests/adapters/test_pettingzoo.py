"""The PettingZoo environments pass PettingZoo's own tests for every registered game."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, seed_test

from epigames.adapters.encoding import Encoder, encoder
from epigames.adapters.pettingzoo import AdapterOptionError, env, parallel_env
from epigames.errors import IllegalActionError, InputError
from epigames.games import CHANCE, State
from tests.adapters.settings import small_games

GAMES = small_games()
KINDS = ["hand", "knowledge"]

# PettingZoo warns about dict observations (as for its own card games); not a failure.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", GAMES)
def test_api(game: str, kind: str) -> None:
    api_test(env(game, kind, max_cycles=60), num_cycles=300)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", GAMES)
def test_seed(game: str, kind: str) -> None:
    seed_test(lambda: env(game, kind), num_cycles=60)


@pytest.mark.parametrize("game", GAMES)
def test_max_cycles(game: str) -> None:
    module = SimpleNamespace(
        env=lambda max_cycles: env(game, max_cycles=max_cycles, turns="cycle", illegal="random"),
        parallel_env=lambda max_cycles: parallel_env(game, max_cycles=max_cycles, illegal="random"),
    )
    max_cycles_test(module)


def _play(aec: Any, seed: int) -> dict[str, float]:
    """Random legal play to the end; the rewards each agent collected."""
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, _ = aec.last()
        totals[agent] += reward
        if termination or truncation:
            aec.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        aec.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize("game", GAMES)
def test_rewards_add_up_to_the_returns(game: str) -> None:
    aec = env(game)
    totals = _play(aec, seed=5)
    state = aec.unwrapped.state
    assert state.is_terminal()
    assert [totals[a] for a in aec.possible_agents] == pytest.approx(list(state.returns()))


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_plays_the_same_game(game: str) -> None:
    first, second = env(game), env(game)
    _play(first, seed=11)
    _play(second, seed=11)
    assert first.unwrapped.state.history == second.unwrapped.state.history


def _knowledge_start(game: str, seed: int) -> tuple[Encoder, State]:
    """The knowledge encoder of `game` and the state of its knowledge env reset with `seed`."""
    aec = env(game, "knowledge")
    aec.reset(seed=seed)
    return encoder(game, "knowledge"), aec.unwrapped.state


@pytest.mark.parametrize("game", GAMES)
def test_observations_depend_only_on_what_the_seat_sees(game: str) -> None:
    """The vectors are equal on the true state and on one resampled from the seat's view."""
    enc, state = _knowledge_start(game, seed=2)
    rng = random.Random(2)
    compared = 0
    while not state.is_terminal() and compared < 40:
        if state.current_player != CHANCE:
            for seat in range(enc.game.num_players):
                other = state.resample(seat, rng)
                mine = enc.encode(state.observation(seat))
                np.testing.assert_array_equal(mine, enc.encode(other.observation(seat)))
                compared += 1
            state.apply(rng.choice(list(state.legal_actions())))
        else:
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.randrange(len(outcomes))][0])
    assert compared > 0


@pytest.mark.parametrize("game", GAMES)
def test_knowledge_arrays_are_the_views_knowledge(game: str) -> None:
    """Possible values have positive probability, each subject's add up to 0 or 1."""
    enc, state = _knowledge_start(game, seed=4)
    knowledge = state.observation(state.current_player).knowledge
    arrays = enc.knowledge_arrays(knowledge)
    possible, probability = arrays
    assert possible.any()
    np.testing.assert_array_equal(possible > 0, probability > 0)
    for s, subject in enumerate(enc.subjects):
        sums = probability[s].sum()
        assert sums == pytest.approx(1.0, abs=1e-5) or sums == 0.0
        values = {enc.values[v] for v in np.flatnonzero(possible[s])}
        assert values == set(knowledge.possible_holders(subject))
        for v in np.flatnonzero(possible[s])[:3]:
            expected = float(knowledge.probability(subject, enc.values[v]))
            assert probability[s, v] == pytest.approx(expected, rel=1e-6)


def test_knowledge_adds_to_the_hand() -> None:
    game = GAMES[0]
    hand, knowing = encoder(game, "hand"), encoder(game, "knowledge")
    assert knowing.size == hand.size + knowing.knowledge_size > hand.size


def test_an_illegal_index_raises_by_default() -> None:
    aec = env(GAMES[0])
    aec.reset(seed=0)
    observation = aec.observe(aec.agent_selection)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="illegal action"):
        aec.step(illegal)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"observation": "cards"}, "unknown observation 'cards'"),
        ({"turns": "often"}, "unknown turns 'often'"),
        ({"max_cycles": 0}, "max_cycles"),
    ],
)
def test_bad_options_say_what_is_expected(options: dict[str, Any], match: str) -> None:
    with pytest.raises(InputError, match=match):
        env(GAMES[0], **options)


def test_a_parallel_env_needs_cycle_turns() -> None:
    with pytest.raises(AdapterOptionError, match="turns='cycle'"):
        parallel_env(GAMES[0], turns="game")
