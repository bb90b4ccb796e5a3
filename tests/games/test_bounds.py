"""Every numeric game parameter is bounded, and every game's default agents end its games."""

from __future__ import annotations

import json

import pytest

from epigames.games import game_class, load_game, play_match, registered_games, strategies_for
from epigames.games.params import GameStringError, Param
from tests.commands.helpers import run


def test_a_number_without_both_bounds_is_refused_at_declaration() -> None:
    with pytest.raises(TypeError, match="needs both min and max"):
        Param("turns", int, 10, min=1)
    with pytest.raises(TypeError, match="needs both min and max"):
        Param("share", float, 0.5, max=1.0)
    Param("name", str, "a")  # strings and booleans need none
    Param("on", bool, True)


@pytest.mark.parametrize("name", registered_games())
def test_every_numeric_parameter_has_a_range(name: str) -> None:
    for param in game_class(name).params:
        if param.type in (int, float):
            assert param.min is not None and param.max is not None, param.name


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("kemps(max_turns=1000000000)", "kemps: max_turns=1000000000 is out of range 1..100000"),
        ("kwartet(max_moves=100001)", "kwartet: max_moves=100001 is out of range 1..100000"),
        ("klaverjas(target=100001)", "klaverjas: target=100001 is out of range 0..100000"),
    ],
)
def test_a_huge_value_is_refused_with_its_range(spec: str, message: str) -> None:
    with pytest.raises(GameStringError) as err:
        load_game(spec)
    assert str(err.value) == message


def test_the_cli_refuses_it_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "kemps(max_turns=1000000000)"], capsys)
    assert code != 0
    assert "max_turns=1000000000 is out of range 1..100000" in out + err


@pytest.mark.parametrize("name", registered_games())
def test_the_default_agents_end_the_default_game(name: str) -> None:
    game = load_game(name)
    default = type(game).default_strategy
    assert default in strategies_for(name)
    for seed in range(3):
        result = play_match(str(game), [default] * game.num_players, seed)
        assert not result.capped, (name, seed, result.moves)


def test_random_kemps_agents_run_to_the_cap_so_greedy_ones_are_the_default() -> None:
    # Greedy agents end a game in about 30 turns; random ones are still at it after 2,000.
    assert play_match("kemps(max_turns=2000)", ["random"] * 3, 0).capped
    assert not play_match("kemps(max_turns=2000)", ["greedy"] * 3, 0).capped
    assert load_game("kemps").default_strategy == "greedy"


def test_play_seats_the_default_agents(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "kemps", "--seed", "2", "--json"], capsys)
    assert code == 0
    first = json.loads(out.splitlines()[0])
    assert first["strategies"] == ["greedy"] * 3
    assert play_match("kemps", ["greedy"] * 3, 2).moves < 1000
