"""Every registered game loads in OpenSpiel and passes its random simulation test."""

from __future__ import annotations

import hashlib
import json
import random

import numpy as np
import pyspiel
import pytest

from epigames.adapters.openspiel import SpielState, register_games, spiel_name
from epigames.games import load_game, registered_games
from tests.adapters.settings import small_games

GAMES = small_games()
#: Every game at its defaults (Klaverjas plays 16 deals), and Klaverjas over a few deals
#: with each way of choosing trump: a deal's score must reach the rewards before the next
#: deal is dealt. Kemps at its defaults runs random players to its cap of 1,000 turns
#: (about 3,700 decisions).
DEFAULTS = [
    *registered_games(),
    "klaverjas(deals=3)",
    "klaverjas(trump=bidding,deals=2)",
]
#: Games whose rewards come at several moments (Klaverjas after every deal).
MULTI_DEAL = ["klaverjas(ranks=3,deals=3)", "klaverjas(ranks=3,deals=3,trump=bidding)"]


def _spiel(game: str) -> pyspiel.Game:
    return pyspiel.load_game(spiel_name(game))


def test_every_registered_game_is_registered() -> None:
    register_games()
    names = set(pyspiel.registered_names())
    assert {spiel_name(name) for name in registered_games()} <= names


@pytest.mark.parametrize("game", GAMES)
def test_random_simulation(game: str) -> None:
    spiel = _spiel(game)
    pyspiel.random_sim_test(spiel, num_sims=2, serialize=False, verbose=False)
    pyspiel.random_sim_test(spiel, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("game", DEFAULTS)
def test_random_simulation_at_the_defaults(game: str) -> None:
    """OpenSpiel's own checks, among them summed rewards against the returns and the
    number of decisions against `max_game_length`."""
    pyspiel.random_sim_test(_spiel(game), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game", GAMES + MULTI_DEAL)
def test_rewards_of_an_rl_environment_add_up_to_the_returns(game: str) -> None:
    """The rewards an RL loop sees (read after the chance that follows each step)."""
    from open_spiel.python import rl_environment

    environment = rl_environment.Environment(
        _spiel(game),
        chance_event_sampler=rl_environment.ChanceEventSampler(seed=3),
        observation_type=rl_environment.ObservationType.OBSERVATION,
    )
    rng = np.random.default_rng(3)
    totals = np.zeros(environment.num_players)
    time_step = environment.reset()
    while not time_step.last():
        player = time_step.observations["current_player"]
        action = rng.choice(time_step.observations["legal_actions"][player])
        time_step = environment.step([action])
        totals += time_step.rewards
    returns = environment.get_state.returns()
    np.testing.assert_allclose(totals, returns)


def test_a_deals_score_is_rewarded_when_the_next_deal_starts() -> None:
    """The decision after a deal's last card sees the deal's score as its reward."""
    state = _spiel("klaverjas(ranks=3,deals=2)").new_initial_state()
    rng = random.Random(0)
    seen = np.zeros(4)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        seen += state.rewards()
        if seen.any():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.state.game.deals == 2 and not state.is_terminal()
    np.testing.assert_allclose(seen, state.returns())
    assert sum(seen) > 0


@pytest.mark.parametrize("game", GAMES)
def test_max_game_length_is_the_games(game: str) -> None:
    assert _spiel(game).max_game_length() == load_game(game).max_game_length


@pytest.mark.parametrize("game", GAMES)
def test_parameters_reach_the_game(game: str) -> None:
    spiel = _spiel(game)
    ours = load_game(game)
    assert spiel.new_initial_state().state.game == ours
    assert spiel.num_players() == ours.num_players
    assert (spiel.min_utility(), spiel.max_utility()) == tuple(map(float, ours.returns_range))


@pytest.mark.parametrize("game", GAMES)
def test_chance_outcomes_are_the_rules(game: str) -> None:
    state = _spiel(game).new_initial_state()
    ours = dict(state.state.chance_outcomes())
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    texts = {state.action_to_string(pyspiel.PlayerId.CHANCE, a): p for a, p in outcomes}
    assert texts == {load_game(game).action_to_string(o): p for o, p in ours.items()}


@pytest.mark.parametrize("game", GAMES)
def test_information_states_depend_only_on_what_the_seat_saw(game: str) -> None:
    """The string and tensor are equal on a state resampled from the seat's own view."""
    state = _spiel(game).new_initial_state()
    rng = random.Random(1)
    compared = 0
    while not state.is_terminal() and compared < 30:
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probabilities)[0])
            continue
        for seat in range(state.num_players()):
            other = state.clone()
            other._box.state = state.state.resample(seat, rng)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            np.testing.assert_array_equal(
                other.information_state_tensor(seat), state.information_state_tensor(seat)
            )
            compared += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 0


def test_an_information_state_is_the_seats_view_with_its_logs_digest() -> None:
    state = _spiel(GAMES[0]).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    view = json.loads(state.information_state_string(seat))
    log = state.state.observation(seat).log
    assert view["seat"] == seat and view["log_length"] == len(log) > 0
    digest = b""
    for event in log:
        digest = hashlib.sha256(
            digest + json.dumps(event.to_dict(), ensure_ascii=False).encode()
        ).digest()
    assert view["log_sha256"] == digest.hex()
    assert "log_sha256" not in json.loads(state.observation_string(seat))
    assert len(state.information_state_tensor(seat)) > len(state.observation_tensor(seat))


@pytest.mark.parametrize("game", GAMES)
def test_strings_kept_up_step_by_step_equal_strings_made_afresh(game: str) -> None:
    """The state's JSON and each seat's digest, extended one step at a time (across
    clones), equal those made from scratch for the same state; a new event changes the
    digest of the seats that saw it."""
    spiel = _spiel(game)
    state = spiel.new_initial_state()
    rng = random.Random(2)
    steps = 0
    while not state.is_terminal() and steps < 60:
        fresh = SpielState(spiel, state.state.clone())
        assert str(state) == str(fresh) == state.state.to_json()
        for seat in range(state.num_players()):
            assert state.information_state_string(seat) == fresh.information_state_string(seat)
        before = [state.information_state_string(seat) for seat in range(state.num_players())]
        lengths = [len(state.state.observation(seat).log) for seat in range(state.num_players())]
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        state = state.clone() if steps % 3 else state
        for seat, old in enumerate(before):
            if len(state.state.observation(seat).log) > lengths[seat]:
                assert state.information_state_string(seat) != old
        steps += 1
    assert steps > 10


@pytest.mark.parametrize("game", GAMES)
def test_an_observers_dict_names_the_tensors_parts(game: str) -> None:
    """OpenSpiel's convention: `dict` holds shaped views into `tensor`, by part name."""
    from epigames.adapters.encoding import encoder

    spiel = _spiel(game)
    observer = spiel.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    state = spiel.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    observer.set_from(state, state.current_player())
    enc = encoder(game, "knowledge")
    assert list(observer.dict) == [part.name for part in enc.parts]
    for part in enc.parts:
        array = observer.dict[part.name]
        assert array.shape == part.shape and np.shares_memory(array, observer.tensor)
    np.testing.assert_array_equal(observer.tensor, state.information_state_tensor())
    assert observer.dict["to_move"][state.current_player()] == 1


def test_a_clone_is_independent() -> None:
    state = _spiel(GAMES[0]).new_initial_state()
    clone = state.clone()
    clone.apply_action(clone.chance_outcomes()[0][0])
    assert state.history() == [] and len(clone.history()) == 1
    assert len(state.state.history) == 0


def test_openspiels_information_set_mcts_plays_a_legal_action() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = _spiel(GAMES[0])
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(state.legal_actions()[0])
    assert bot.step(state) in state.legal_actions()
