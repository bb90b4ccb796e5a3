"""The generic suite: every registered game, several parameter settings."""

from __future__ import annotations

import json
import math
import os
import pickle
import random
import re
import subprocess
import sys

import pytest

from epigames.errors import IllegalActionError
from epigames.games import (
    CHANCE,
    TERMINAL,
    State,
    load_game,
    play_match,
    registered_games,
    state_from_json,
    strategies_for,
)
from tests.conformance.helpers import game_strings, random_step, rollout, sampled_states, snapshot
from tests.conformance.oracles import hidden_oracle, sound_oracle

SPECS = game_strings()
#: The legal actions row of a view's HTML table (`games.notebook.view_html`).
LEGAL_ROW = re.compile(r"<tr><td [^>]*>legal actions</td>.*?</tr>")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_every_game_has_a_no_peeking_oracle() -> None:
    assert all(hidden_oracle(name) for name in registered_games())


@pytest.mark.parametrize("spec", SPECS)
def test_game_string_round_trips(spec: str) -> None:
    game = load_game(spec)
    assert load_game(str(game)) == game
    assert str(load_game(str(game))) == str(game)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_play_reaches_the_end_within_the_rules(spec: str, seed: int) -> None:
    game = load_game(spec)
    n = game.num_players
    low, high = game.returns_range
    decisions = 0

    def visit(state: State) -> None:
        nonlocal decisions
        player = state.current_player
        decisions += player >= 0
        assert player in (CHANCE, TERMINAL) or 0 <= player < n
        returns = state.returns()
        assert len(returns) == n and all(low <= r <= high for r in returns)
        # Partners share one return (team_returns raises otherwise).
        team_returns = state.team_returns()
        assert team_returns == tuple(returns[team[0]] for team in game.teams)
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            assert outcomes and all(p > 0 for _, p in outcomes)
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            assert len({o for o, _ in outcomes}) == len(outcomes)
            assert not state.legal_actions()
        elif player == TERMINAL:
            assert not state.legal_actions() and not state.chance_outcomes()
        else:
            legal = list(state.legal_actions())
            assert legal and len(set(legal)) == len(legal)
            assert not state.chance_outcomes()
            # The mover's view offers exactly the legal actions; nobody else's offers any.
            assert set(state.observation(player).legal_actions) == set(legal)
            other = (player + 1) % n
            assert not state.observation(other).legal_actions

    final = rollout(spec, seed, visit)
    assert final.is_terminal()
    assert decisions <= game.max_game_length
    best = max(final.returns())
    assert final.winners() == tuple(s for s, r in enumerate(final.returns()) if r == best)


@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_match(spec: str) -> None:
    game = load_game(spec)
    for strategy in strategies_for(game.name):
        names = [strategy] * game.num_players
        digests = [play_match(spec, names, seed).digest() for seed in (0, 1, 2)]
        assert digests == [play_match(spec, names, seed).digest() for seed in (0, 1, 2)]
        assert len(set(digests)) > 1, "different seeds should give different matches"


@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_match_in_a_fresh_process(spec: str) -> None:
    game = load_game(spec)
    names = [strategies_for(game.name)[0]] * game.num_players
    here = play_match(spec, names, 7).digest()
    code = (
        "import sys; from epigames.games import play_match; "
        "from tests.conformance.oracles import lighten; lighten(); "
        "print(play_match(sys.argv[1], sys.argv[2].split(','), 7).digest())"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code, spec, ",".join(names)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=ROOT,  # where `tests` is a package
    )
    assert out.stdout.strip() == here


@pytest.mark.parametrize("spec", SPECS)
def test_match_results_are_consistent_and_picklable(spec: str) -> None:
    game = load_game(spec)
    low, high = game.returns_range
    for strategy in strategies_for(game.name):
        result = play_match(spec, [strategy] * game.num_players, 3)
        assert all(low <= r <= high for r in result.returns)
        best = max(result.returns)
        assert result.winners == tuple(s for s, r in enumerate(result.returns) if r == best)
        assert result.moves == len(result.transcript) > 0
        assert all(0 <= t.seat < game.num_players for t in result.transcript)
        copy = pickle.loads(pickle.dumps(result))
        assert copy == result and copy.digest() == result.digest()
        json.dumps(result.to_dict())
        # The history replays to the same log and returns.
        replayed = state_from_json(
            json.dumps(
                {"game": spec, "history": [game.action_to_string(a) for a in result.history]}
            )
        )
        assert [e.to_dict() for e in replayed.events] == [e.to_dict() for e in result.events]
        assert tuple(replayed.returns()) == result.returns
    assert pickle.loads(pickle.dumps(play_match)) is play_match


@pytest.mark.parametrize("spec", SPECS)
def test_clone_is_independent_and_equal(spec: str) -> None:
    for state in sampled_states(spec, seed=11, count=4):
        before = snapshot(state)
        twin = state.clone()
        assert snapshot(twin) == before
        if state.is_terminal():
            continue
        rng_a, rng_b = random.Random(5), random.Random(5)
        for _ in range(30):
            if twin.is_terminal():
                break
            random_step(twin, rng_a)
        assert snapshot(state) == before, "playing on the clone changed the original"
        for _ in range(30):
            if state.is_terminal():
                break
            random_step(state, rng_b)
        assert snapshot(state) == snapshot(twin)


@pytest.mark.parametrize("spec", SPECS)
def test_a_pickled_state_plays_on_as_the_original(spec: str) -> None:
    # OpenSpiel's serialisation pickles states; compiled ones pickle by their fields.
    for state in sampled_states(spec, seed=13, count=4):
        copy = pickle.loads(pickle.dumps(state))
        assert type(copy) is type(state)
        assert snapshot(copy) == snapshot(state)
        rng_a, rng_b = random.Random(6), random.Random(6)
        for _ in range(30):
            if state.is_terminal():
                break
            random_step(state, rng_a)
            random_step(copy, rng_b)
        assert snapshot(copy) == snapshot(state)
        assert copy.returns() == state.returns()


@pytest.mark.parametrize("spec", SPECS)
def test_json_round_trip_mid_game(spec: str) -> None:
    for state in sampled_states(spec, seed=12, count=4):
        copy = state_from_json(state.to_json())
        assert snapshot(copy) == snapshot(state)
        assert [e.to_dict() for e in copy.events] == [e.to_dict() for e in state.events]
        assert list(copy.legal_actions()) == list(state.legal_actions())
        assert copy.to_json() == state.to_json()


@pytest.mark.parametrize("spec", SPECS)
def test_views_show_no_hidden_information(spec: str) -> None:
    game = load_game(spec)
    hidden_of = hidden_oracle(game.name)
    assert hidden_of is not None
    checked = 0
    for state in sampled_states(spec, seed=21, count=8):
        for seat in range(game.num_players):
            view = state.observation(seat)
            data = view.to_dict()
            # Legal actions name every card the rules let the seat ask for: they follow
            # from its own hand (checked against the rules above), so they reveal nothing.
            del data["legal_actions"]
            # The view's table for notebooks (`_repr_html_`), its legal actions row left out.
            html = LEGAL_ROW.sub("", view._repr_html_())
            assert html != view._repr_html_(), "the legal actions row was not found"
            text = json.dumps(data, ensure_ascii=False) + view.summary() + html
            assert all(e.visible_to(seat) for e in view.log)
            leaked = {token for token in hidden_of(state, seat) if token in text}
            assert not leaked, f"seat {seat} sees {leaked}"
            checked += bool(hidden_of(state, seat))
    assert checked > 0, "the oracle never found anything hidden: the test would be vacuous"


@pytest.mark.parametrize("spec", SPECS)
def test_illegal_and_out_of_turn_actions_raise_and_change_nothing(spec: str) -> None:
    game = load_game(spec)
    pool: set[object] = set()
    for seat_state in sampled_states(spec, seed=31, count=6):
        pool.update(seat_state.legal_actions())
        pool.update(o for o, _ in seat_state.chance_outcomes())
    final = rollout(spec, 31)
    pool.update(final.history)
    junk: list[object] = ["nonsense", None, 3, (1, 2)]
    raised = 0
    for state in sampled_states(spec, seed=31, count=6):
        allowed = set(state.legal_actions()) | {o for o, _ in state.chance_outcomes()}
        candidates = [a for a in pool if a not in allowed]
        random.Random(1).shuffle(candidates)
        before = snapshot(state)
        for action in [*candidates[:40], *junk]:
            with pytest.raises(IllegalActionError, match="illegal action"):
                state.apply(action)
            raised += 1
        assert snapshot(state) == before
        assert game.action_to_string  # the message used it; the state is still usable
    assert raised > 0


def test_every_game_has_a_knowledge_referee() -> None:
    assert all(sound_oracle(load_game(spec).name) for spec in SPECS)


@pytest.mark.parametrize("spec", SPECS)
def test_knowledge_is_sound_in_every_state(spec: str) -> None:
    """After every move, nothing any seat knows is false (checked against the true state)."""
    game = load_game(spec)
    referee = sound_oracle(game.name)
    assert referee is not None
    claims = 0

    def visit(state: State) -> None:
        nonlocal claims
        if state.current_player == CHANCE:  # knowledge starts once the deal is over
            return
        for seat in range(game.num_players):
            claims += referee(state, seat)

    rollout(spec, 41, visit)
    assert claims > 0, "no seat ever knew anything: the test would be vacuous"
