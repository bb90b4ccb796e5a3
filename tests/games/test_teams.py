"""Teams in the game framework: `Game.teams`, `team_of`, `State.team_returns`, the registry.

The partnership game is `teamtoy` of `tests/tournament/team_game.py`, registered only
inside these tests.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

import pytest

from epigames.errors import IllegalActionError
from epigames.games import (
    CHANCE,
    SeatError,
    State,
    UnknownGameError,
    game_registered,
    load_game,
    play_match,
    registered_games,
    state_from_json,
    strategies_for,
    unregister_game,
)
from tests.tournament.team_game import NAME, TeamGame, TeamState, registered


@pytest.fixture
def team_game() -> Iterator[None]:
    with registered():
        yield


def _random_terminal(game_string: str, seed: int) -> State:
    """A finished game, every chance outcome and move drawn from `seed`."""
    rng = random.Random(seed)
    state = load_game(game_string).new_initial_state()
    while not state.is_terminal():
        if state.current_player == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply(rng.choices(outcomes, weights)[0])
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    return state


def test_the_test_game_is_registered_only_inside_its_block() -> None:
    assert NAME not in registered_games()
    with registered():
        assert NAME in registered_games()
        assert load_game(NAME).teams == ((0, 2), (1, 3))
        assert strategies_for(NAME) == ["random", "shower", "smart"]
    assert NAME not in registered_games()
    # Loaded games are forgotten too: `load_game` caches them.
    with pytest.raises(UnknownGameError):
        load_game(NAME)
    with pytest.raises(UnknownGameError):
        strategies_for(NAME)
    with registered():  # and it can come back, with its strategies
        assert strategies_for(NAME) == ["random", "shower", "smart"]


def test_unregistering_an_unknown_game_is_refused() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'nosuchgame'"):
        unregister_game("nosuchgame")


@pytest.mark.parametrize("name", ["kwartet", "blufpoker"])
def test_games_without_partners_have_one_seat_per_team(name: str) -> None:
    game = load_game(name)
    assert game.teams == tuple((seat,) for seat in range(game.num_players))
    assert [game.team_of(seat) for seat in range(game.num_players)] == list(range(game.num_players))


@pytest.mark.parametrize("name", registered_games())
def test_every_registered_game_divides_its_seats_into_teams(name: str) -> None:
    game = load_game(name)
    seats = [seat for team in game.teams for seat in team]
    assert sorted(seats) == list(range(game.num_players))
    for index, team in enumerate(game.teams):
        assert all(game.team_of(seat) == index for seat in team)


@pytest.mark.usefixtures("team_game")
@pytest.mark.parametrize(
    ("spec", "teams"),
    [
        ("teamtoy", ((0, 2), (1, 3))),
        ("teamtoy(sides=3,size=2)", ((0, 3), (1, 4), (2, 5))),
        ("teamtoy(sides=2,size=3)", ((0, 2, 4), (1, 3, 5))),
        ("teamtoy(sides=3,size=1)", ((0,), (1,), (2,))),
    ],
)
def test_teams_and_team_of(spec: str, teams: tuple[tuple[int, ...], ...]) -> None:
    game = load_game(spec)
    assert game.teams == teams
    for index, team in enumerate(teams):
        for seat in team:
            assert game.team_of(seat) == index
    with pytest.raises(SeatError, match="no seat"):
        game.team_of(game.num_players)


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        (((0, 2), (1,)), "must hold each of the seats 0..3 exactly once"),
        (((0, 2), (1, 2, 3)), "exactly once"),
        (((0, 2), (3, 1)), "list its seats in order"),
    ],
)
def test_teams_that_do_not_divide_the_seats_are_a_bug(
    teams: tuple[tuple[int, ...], ...], message: str
) -> None:
    @dataclass(frozen=True)
    class Broken(TeamGame):
        name: ClassVar[str] = "broken"

        @property
        def teams(self) -> tuple[tuple[int, ...], ...]:
            return teams

    with pytest.raises(ValueError, match=message):
        Broken()


@pytest.mark.usefixtures("team_game")
@pytest.mark.parametrize("spec", ["teamtoy", "teamtoy(sides=3,size=2)", "teamtoy(sides=2,size=3)"])
def test_partners_share_one_return(spec: str) -> None:
    won_by = set()
    for seed in range(60):
        state = _random_terminal(spec, seed)
        returns = state.returns()
        shared = state.team_returns()
        teams = state.game.teams
        assert len(shared) == len(teams)
        for team, value in zip(teams, shared, strict=True):
            assert [returns[seat] for seat in team] == [value] * len(team)
        # Winners are whole teams.
        winners = set(state.winners())
        assert winners == {s for t, team in enumerate(teams) for s in team if shared[t] == 1.0}
        won_by.add(tuple(shared))
    assert len(won_by) > 1  # the deals differ: not always the same team wins


@pytest.mark.usefixtures("team_game")
def test_team_returns_refuses_partners_with_different_returns() -> None:
    class Unfair(TeamState):
        def returns(self) -> tuple[float, ...]:
            return (1.0, 0.0, 0.0, 0.0)

    state = Unfair(load_game("teamtoy"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"team \(0, 2\) got different returns \[1.0, 0.0\]"):
        state.team_returns()


@pytest.mark.usefixtures("team_game")
def test_the_test_game_keeps_the_rules() -> None:
    """A real game: seeded matches repeat, states round-trip, illegal moves change nothing."""
    lineup = ["smart", "random", "shower", "random"]
    first = play_match("teamtoy", lineup, seed=5)
    assert first.digest() == play_match("teamtoy", lineup, seed=5).digest()
    state = _random_terminal("teamtoy", 3)
    assert state_from_json(state.to_json()).returns() == state.returns()
    start = load_game("teamtoy").new_initial_state()
    assert sum(p for _, p in start.chance_outcomes()) == pytest.approx(1.0)
    with pytest.raises(IllegalActionError):
        start.apply("show")
    assert start.history == [] and start.current_player == CHANCE
    # A seat sees its own card, never another's.
    for _ in range(4):
        start.apply(start.chance_outcomes()[0][0])
    assert start.observation(1).hand == [start.hands[1]]
    assert all(start.hands[0] != e.card for e in start.observation(1).log if hasattr(e, "card"))


def test_game_registered_unregisters_after_an_error() -> None:
    with pytest.raises(RuntimeError), game_registered(TeamGame):
        raise RuntimeError("boom")
    assert NAME not in registered_games()
