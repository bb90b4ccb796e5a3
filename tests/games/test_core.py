"""Game strings, parameters and the game and strategy registries."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, strategies as st

from epigames.errors import InputError, UnknownNameError
from epigames.games import (
    GameStringError,
    Param,
    UnknownGameError,
    UnknownParameterError,
    UnknownStrategyError,
    load_game,
    make_strategy,
    registered_games,
    strategies_for,
)
from epigames.games.kwartet import KwartetGame


def test_registry_and_defaults() -> None:
    assert "kwartet" in registered_games()
    assert load_game("kwartet") == KwartetGame() == load_game(" kwartet ( ) ")
    assert str(load_game("kwartet")) == "kwartet(players=4,kinds=13,ask_own=true,max_moves=5000)"
    assert load_game("kwartet(ask_own=FALSE, players=3)") == KwartetGame(3, 13, False)


@given(st.integers(3, 6), st.integers(2, 13), st.booleans())
def test_canonical_strings_read_back(players: int, kinds: int, ask_own: bool) -> None:
    game = KwartetGame(players, kinds, ask_own)
    assert load_game(str(game)) == game
    assert eval(repr(game)) == game
    assert sum(1 for _ in game.deck) >= players  # every seat gets at least one card


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        (
            "kwartt",
            UnknownGameError,
            "unknown game 'kwartt'; choose one of: blufpoker, kemps, klaverjas, kwartet",
        ),
        ("kwartet(player=3)", UnknownParameterError, "kwartet has no parameter 'player'"),
        ("kwartet(players=9)", GameStringError, "kwartet: players=9 is out of range 3..6"),
        ("kwartet(kinds=1)", GameStringError, "kinds=1 is out of range 2..13"),
        ("kwartet(players=x)", GameStringError, "players='x' is not an integer"),
        ("kwartet(players=true)", GameStringError, "is not an integer"),
        ("kwartet(ask_own=maybe)", GameStringError, "is not a boolean"),
        ("kwartet(players=3,players=4)", GameStringError, "given twice"),
        ("kwartet(players=3", GameStringError, "cannot read game"),
        ("kwartet(players)", GameStringError, "expected key=value"),
    ],
)
def test_bad_game_strings(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(").replace(".", r"\.")):
        load_game(text)
    assert issubclass(error, InputError)


def test_direct_construction_is_validated() -> None:
    with pytest.raises(GameStringError, match="out of range"):
        KwartetGame(players=2)
    with pytest.raises(GameStringError, match="not a boolean"):
        KwartetGame(ask_own=1)  # type: ignore[arg-type]


def test_param_declarations() -> None:
    assert Param("x", float, 0.5, min=0, max=1).parse("0.25", "g") == 0.25
    assert Param("s", str, "a", choices=("a", "b")).describe_range() == "one of: a, b"
    with pytest.raises(GameStringError, match="'c' is not one of: a, b"):
        Param("s", str, "a", choices=("a", "b")).parse("c", "g")
    with pytest.raises(GameStringError):
        Param("n", int, 9, min=0, max=3)  # the default must be legal


def test_strategy_registry() -> None:
    names = ["aggressive", "defensive", "expert", "greedy", "mixed", "owner", "random", "silent"]
    assert strategies_for("kwartet") == names
    with pytest.raises(
        UnknownStrategyError,
        match="unknown strategy 'gredy' for kwartet; choose one of: aggressive, defensive, ",
    ):
        make_strategy("kwartet", "gredy", random.Random(0))
    with pytest.raises(UnknownGameError):
        strategies_for("chess")
    assert issubclass(UnknownStrategyError, UnknownNameError)
