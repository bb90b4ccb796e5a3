"""The PettingZoo environments pass PettingZoo's own tests for every registered game."""

from __future__ import annotations

import random
from functools import partial
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)

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
def test_api_with_named_parts(game: str) -> None:
    """`layout="dict"`: the observation's named parts, the flat vector's slices, shaped."""
    api_test(env(game, "knowledge", layout="dict", max_cycles=30), num_cycles=60)
    named, flat = env(game, "knowledge", layout="dict"), env(game, "knowledge")
    named.reset(seed=3)
    flat.reset(seed=3)
    agent = named.agent_selection
    parts = named.observe(agent)["observation"]
    vector = flat.observe(agent)["observation"]
    assert list(parts) == [part.name for part in encoder(game, "knowledge").parts]
    np.testing.assert_array_equal(np.concatenate([a.ravel() for a in parts.values()]), vector)
    space = named.observation_space(agent)["observation"]
    assert all(space[name].shape == array.shape for name, array in parts.items())


# The recipe of docs/adapters.md. The seed and max_cycles tests sample actions without
# the mask, so the seat to move's illegal draws are replaced (`illegal="random"`); the AEC
# half of max_cycles_test counts selections per agent, so every seat is selected each
# cycle (`turns="cycle"`).


@pytest.mark.parametrize("game", GAMES)
def test_parallel_api(game: str) -> None:
    parallel_api_test(parallel_env(game), num_cycles=1000)


@pytest.mark.parametrize("game", GAMES)
def test_parallel_seed(game: str) -> None:
    parallel_seed_test(partial(parallel_env, game, illegal="random"))


@pytest.mark.parametrize("game", GAMES)
def test_max_cycles(game: str) -> None:
    module = SimpleNamespace(
        env=partial(env, game, turns="cycle", illegal="random"),
        parallel_env=partial(parallel_env, game, illegal="random"),
    )
    max_cycles_test(module)


def _wait_only(mask: np.ndarray) -> bool:
    return bool(mask[-1] == 1 and not mask[:-1].any())


@pytest.mark.parametrize("game", GAMES)
def test_in_a_parallel_step_only_the_seat_to_move_acts(game: str) -> None:
    """The active agent's choice is played as chosen; the others' masks allow only `wait`,
    and whatever they send instead (here: their first index) is ignored."""
    par, same = parallel_env(game), parallel_env(game)
    observations, infos = par.reset(seed=7)
    same.reset(seed=7)
    rng = np.random.default_rng(7)
    steps = 0
    while par.agents:
        active = infos[par.agents[0]]["active_agent"]
        assert all(info["active_agent"] == active for info in infos.values())
        for agent, observation in observations.items():
            assert _wait_only(observation["action_mask"]) == (agent != active)
        choice = int(rng.choice(np.flatnonzero(observations[active]["action_mask"])))
        stray = {agent: 0 for agent in par.agents}
        waits = {agent: par.action_space(agent).n - 1 for agent in same.agents}
        played = len(par.state.history)
        observations, _, _, _, infos = par.step({**stray, active: choice})
        same.step({**waits, active: choice})
        assert par.state.history[played] == par.actions.actions[choice]
        assert not any(info.get("illegal") for info in infos.values())
        steps += 1
    assert par.state.history == same.state.history
    assert steps > 3 and par.state.is_terminal()


@pytest.mark.parametrize("game", GAMES)
def test_parallel_rewards_add_up_to_the_returns(game: str) -> None:
    """Random masked play ends in every episode (20 of 20 crashed when every seat's action
    was applied in turn) and the rewards sum to the returns."""
    par = parallel_env(game)
    rng = np.random.default_rng(1)
    for episode in range(5):
        observations, _ = par.reset(seed=episode)
        totals = dict.fromkeys(par.possible_agents, 0.0)
        while par.agents:
            actions = {
                agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
                for agent in par.agents
            }
            observations, rewards, terminations, _, _ = par.step(actions)
            for agent, reward in rewards.items():
                totals[agent] += reward
        assert all(terminations.values()) and par.state.is_terminal()
        assert list(totals.values()) == pytest.approx(list(par.state.returns()))


def test_the_seat_to_move_must_act_legally_in_a_parallel_step() -> None:
    par = parallel_env(GAMES[0])
    _, infos = par.reset(seed=0)
    active = infos[par.agents[0]]["active_agent"]
    wait = par.action_space(active).n - 1
    with pytest.raises(IllegalActionError, match="illegal action"):
        par.step(dict.fromkeys(par.agents, wait))
    lenient = parallel_env(GAMES[0], illegal="random")
    lenient.reset(seed=0)
    _, _, _, _, infos = lenient.step(dict.fromkeys(lenient.agents, wait))
    assert infos[active]["illegal"] is True
    assert lenient.state.history[len(par.state.history)] in par.state.legal_actions()


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
        ({"layout": "nested"}, "unknown layout 'nested'"),
    ],
)
def test_bad_options_say_what_is_expected(options: dict[str, Any], match: str) -> None:
    with pytest.raises(InputError, match=match):
        env(GAMES[0], **options)


def test_a_parallel_env_takes_no_turns_option() -> None:
    with pytest.raises(AdapterOptionError, match="no turns option"):
        parallel_env(GAMES[0], turns="cycle")


@pytest.mark.parametrize("uniform", [True, False])
def test_chance_is_drawn_as_generator_choice_draws_it(uniform: bool) -> None:
    """`_draw` skips `Generator.choice`'s checks, not its draw: a seed deals as before."""
    from epigames.adapters.pettingzoo import _draw
    from epigames.games.core import UniformOutcomes

    picker = np.random.default_rng(7)
    for case in range(200):
        n = int(picker.integers(1, 60))
        if uniform:
            outcomes: Any = UniformOutcomes(list(range(n)))
        else:
            weights = picker.random(n) * (picker.random(n) > 0.2)
            weights[-1] += weights.sum() == 0
            outcomes = [(i, float(w / weights.sum())) for i, w in enumerate(weights)]
        p = np.array([probability for _, probability in outcomes], dtype=np.float64)
        ours, numpy = np.random.default_rng(case), np.random.default_rng(case)
        for _ in range(20):
            assert _draw(ours, outcomes) == int(numpy.choice(n, p=p / p.sum()))


def _play_checking_masks(aec: Any, seed: int, fill: int, limit: int = 10_000) -> int:
    """Play an episode (up to `limit` decisions) checking each mask against one made anew
    and writing `fill` into it after; returns the decisions made."""
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    table: Any = aec.unwrapped
    decisions = 0
    while aec.agents and decisions < limit:
        observation, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        mask = observation["action_mask"]
        expected = table.actions.mask(table.state.legal_actions())
        np.testing.assert_array_equal(mask, expected)
        mask[:] = fill  # the caller's own copy: the step still sees the legal actions
        aec.step(int(rng.choice(np.flatnonzero(expected))))
        decisions += 1
    return decisions


def test_the_mask_is_of_the_state_it_is_read_in() -> None:
    """The seat to move's mask is kept between its observation and its step only."""
    assert _play_checking_masks(env("kwartet(players=3,kinds=3)"), seed=2, fill=0, limit=40)


def test_masks_kept_for_the_same_legal_tuple_stay_right() -> None:
    """A mask kept by the identity of a legal-action tuple (Kwartet hands out one tuple
    per situation) is met again and still equals a mask made anew, though the caller
    wrote into every copy it got."""
    aec = env("kwartet(players=3,kinds=4)")
    decisions = sum(_play_checking_masks(aec, seed=episode, fill=1) for episode in range(4))
    assert 0 < len(aec.unwrapped._masks) < decisions / 2  # most masks were met again
