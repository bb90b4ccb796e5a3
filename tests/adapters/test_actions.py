"""The fixed action spaces: complete, without repeats, and in the masks."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import pytest

from epigames.adapters.actions import NoActionSpaceError, action_space
from epigames.games import CHANCE, Game, game_registered, load_game
from tests.adapters.settings import small_games


@pytest.mark.parametrize("game", small_games())
def test_every_legal_action_of_random_play_has_an_index(game: str) -> None:
    space = action_space(game)
    rng = random.Random(3)
    seen = 0
    for _ in range(5):
        state = load_game(game).new_initial_state()
        while not state.is_terminal() and len(state.history) < 400:
            if state.current_player == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = list(state.legal_actions())
            mask = space.mask(legal)
            assert mask.sum() == len(legal)
            assert [space.actions[i] for i in mask.nonzero()[0]] == sorted(legal, key=space.index)
            seen += len(legal)
            state.apply(rng.choice(legal))
    assert seen > 0


def test_a_game_without_a_list_is_refused_with_advice() -> None:
    base = type(load_game("kwartet"))

    @dataclass(frozen=True)
    class Unlisted(base):  # type: ignore[valid-type, misc]
        name: ClassVar[str] = "unlisted_game"

        def distinct_actions(self) -> Sequence[Hashable]:
            return Game.distinct_actions(self)  # the framework's: no list

    with game_registered(Unlisted), pytest.raises(NoActionSpaceError, match="distinct_actions"):
        action_space("unlisted_game")


def test_a_game_may_list_its_own_actions() -> None:
    base = type(load_game("kwartet"))

    @dataclass(frozen=True)
    class Listed(base):  # type: ignore[valid-type, misc]
        name: ClassVar[str] = "listed_game"

        def distinct_actions(self) -> list[str]:
            return ["a", "b"]

    with game_registered(Listed):
        game: Game = load_game("listed_game")
        assert action_space(game).actions == ("a", "b")
        assert action_space(game).index("b") == 1


def test_indices_are_the_same_for_new_and_met_objects_and_after_pickling() -> None:
    """Indices are kept by the identity of action objects met before (kept alive), so an
    equal new object and a copy from another process get the same index."""
    import copy
    import pickle

    space = action_space("kwartet(players=3,kinds=3)")
    state = load_game("kwartet(players=3,kinds=3)").new_initial_state()
    while state.current_player < 0:
        state.apply(state.chance_outcomes()[0][0])
    legal = list(state.legal_actions())
    expected = [space.actions.index(a) for a in legal]
    assert space.indices(legal) == expected
    assert space.indices(iter(legal)) == expected  # met: by identity
    assert space.indices([copy.deepcopy(a) for a in legal]) == expected  # equal, not met
    again = pickle.loads(pickle.dumps(space))
    assert not again._by_id and again.indices(legal) == expected
    assert space.mask(legal).nonzero()[0].tolist() == sorted(expected)
