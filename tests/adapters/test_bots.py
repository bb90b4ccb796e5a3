"""OpenSpiel's IS-MCTS at an epigames table: lookup, no peeking, seeds, CLI and tournaments."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from epigames.errors import InputError
from epigames.games import (
    Match,
    SearchStrategy,
    State,
    UnknownStrategyError,
    check_strategy,
    load_game,
    make_strategy,
    registered_games,
    strategies_for,
    strategy_choices,
)
from epigames.tournament import (
    TournamentStore,
    checked_config,
    parse_strategies,
    run_tournament,
)
from tests.adapters.settings import small_games
from tests.commands.helpers import run

#: A search small enough for tests; it still draws several worlds and expands the root.
QUICK = "openspiel:ismcts(simulations=6,worlds=2,horizon=8)"
GAMES = small_games()


def _others(game: str) -> list[str]:
    return ["random"] * (load_game(game).num_players - 1)


def test_every_game_lists_the_bot_after_its_own_strategies() -> None:
    for name in registered_games():
        assert strategy_choices(name) == [*strategies_for(name), "openspiel:ismcts"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("openspiel:foo", "unknown strategy 'openspiel:foo' for kwartet; choose one of: "),
        ("nospiel:ismcts", "unknown strategy 'nospiel:ismcts' for kwartet; choose one of: "),
        ("openspiel:ismcts(simulations=0)", "simulations=0 is out of range 1..1000000"),
        ("openspiel:ismcts(sims=3)", "unknown parameter 'sims' in 'openspiel:ismcts(sims=3)'"),
        ("openspiel:ismcts(3)", "cannot read strategy 'openspiel:ismcts(3)'; expected"),
    ],
)
def test_bad_names_say_what_is_expected(name: str, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_strategy("kwartet", name)
    with pytest.raises(InputError):
        make_strategy("kwartet", name, random.Random(0))


def test_unknown_bot_lists_the_choices() -> None:
    with pytest.raises(UnknownStrategyError) as caught:
        check_strategy("kwartet", "openspiel:foo")
    assert str(caught.value).endswith("random, silent, openspiel:ismcts")


def test_without_open_spiel_the_bot_asks_for_the_rl_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # `import pyspiel` now fails
    with pytest.raises(InputError, match=r"needs OpenSpiel.*pip install 'epigames\[rl\]'"):
        check_strategy("kwartet", "openspiel:ismcts")


def test_a_bot_outside_a_match_says_so() -> None:
    bot = make_strategy("kwartet", QUICK, random.Random(0))
    assert isinstance(bot, SearchStrategy)
    with pytest.raises(Exception, match="searches from states: seat it in a Match"):
        bot.sampled_state()


@pytest.mark.parametrize("game", GAMES)
def test_the_bot_plays_every_game_seeded(game: str) -> None:
    names = [QUICK, *_others(game)]
    first, again = Match(game, names, 3).run(), Match(game, names, 3).run()
    assert first.digest() == again.digest()
    thoughts = [t.thought.text for t in first.transcript if t.seat == 0]
    assert any(t.startswith("IS-MCTS, 6 simulations: ") and "visited" in t for t in thoughts)
    assert Match(game, names, 4).run().digest() != first.digest()


def _hidden_differs(state: State, other: State, seat: int) -> bool:
    return any(
        other.observation(s).to_dict() != state.observation(s).to_dict()
        for s in range(state.game.num_players)
        if s != seat
    )


def _decision_point(game: str, seed: int) -> tuple[State, State]:
    """A state of a random game with a choice of actions, and a resample of it
    for the seat to move that differs in what that seat cannot see (another seat's view)."""
    match = Match(game, ["random"] * load_game(game).num_players, seed)
    while True:
        match.run_chance()
        state = match.state
        assert not match.over
        seat = state.current_player
        if len(state.legal_actions()) >= 2 and len(state.history) > 12:
            other = state.resample(seat, random.Random(11))
            if _hidden_differs(state, other, seat):
                return state, other
        match.step()


def _choice(state: State, seat: int, seed: int) -> tuple[object, str]:
    bot = make_strategy(state.game.name, QUICK, random.Random(seed))
    assert isinstance(bot, SearchStrategy)
    bot.bind(lambda rng: state.resample(seat, rng))
    decision = bot.choose(state.observation(seat))
    return decision.action, decision.thought.text


@pytest.mark.parametrize("game", GAMES)
def test_the_choice_does_not_depend_on_hidden_cards(game: str) -> None:
    """Two states the seat cannot tell apart, the same bot seed: the same action."""
    state, other = _decision_point(game, 5)
    seat = state.current_player
    assert other.observation(seat).to_dict() == state.observation(seat).to_dict()
    for seed in range(3):
        assert _choice(state, seat, seed) == _choice(other, seat, seed)


def test_player_lists_keep_the_bots_parameters_together() -> None:
    names = parse_strategies(f" {QUICK}, greedy ,silent")
    assert names == (QUICK, "greedy", "silent")


def test_the_bot_plays_at_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    game = GAMES[registered_games().index("kwartet")]
    players = f"{QUICK},greedy,silent"
    code, out, err = run(["play", game, "--players", players, "--seed", "2"], capsys)
    assert code == 0 and "IS-MCTS, 6 simulations" in out, err
    code, out, err = run(["play", game, "--players", "openspiel:bad,greedy,silent"], capsys)
    assert code == 2 and "unknown strategy 'openspiel:bad' for kwartet" in err


def test_one_and_two_workers_give_the_same_rows(tmp_path: Path) -> None:
    game = str(load_game(GAMES[registered_games().index("kwartet")]))
    config = checked_config(game, [QUICK, "greedy", "silent"], 6, seed=9)
    rows = []
    for jobs in (1, 2):
        path = tmp_path / f"{jobs}.duckdb"
        with TournamentStore.open(path) as store:
            run_tournament(config, store, jobs=jobs)
        with TournamentStore.open(path, read_only=True) as store:
            rows.append([row.key() for row in store.rows(config.name)])
    assert len(rows[0]) == 6 and rows[0] == rows[1]
