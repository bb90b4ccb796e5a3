"""Fixed action spaces per game: every distinct action (and chance outcome), indexed.

Learning libraries want a fixed set of actions (`Discrete(n)`, OpenSpiel's
`num_distinct_actions`) and a mask of the legal ones. The framework's states list only
the legal actions of the moment, so each game's complete list is kept here, one
enumerator per game name, unless the game itself offers `distinct_actions()` (which wins;
`distinct_chance_outcomes()` likewise for chance).
`tests/adapters/test_actions.py` fails for a registered game without one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from epigames.errors import InputError
from epigames.games import Game, load_game

Enumerator = Callable[[Any], Iterable[Hashable]]
_ENUMERATORS: dict[str, Enumerator] = {}
_CHANCE_ENUMERATORS: dict[str, Enumerator] = {}


class NoActionSpaceError(InputError):
    """A game whose distinct actions the adapters cannot list."""


def action_enumerator(name: str) -> Callable[[Enumerator], Enumerator]:
    """Decorator: register the function listing every distinct action of game `name`."""

    def register(func: Enumerator) -> Enumerator:
        _ENUMERATORS[name] = func
        return func

    return register


def chance_enumerator(name: str) -> Callable[[Enumerator], Enumerator]:
    """Decorator: register the function listing every chance outcome of game `name`."""

    def register(func: Enumerator) -> Enumerator:
        _CHANCE_ENUMERATORS[name] = func
        return func

    return register


class ActionSpace:
    """The distinct actions of one game, each with a fixed index.

    Attributes:
        game: the game.
        actions: every action, in index order.
    """

    def __init__(self, game: Game, actions: Sequence[Hashable]) -> None:
        self.game = game
        self.actions = tuple(actions)
        self._index = {action: i for i, action in enumerate(self.actions)}
        if len(self._index) != len(self.actions):
            raise ValueError(f"{game}: the action list repeats an action")

    def __len__(self) -> int:
        return len(self.actions)

    def index(self, action: Hashable) -> int:
        """The index of an action.

        Raises:
            KeyError: not one of the game's distinct actions (a gap in its enumerator).
        """
        try:
            return self._index[action]
        except KeyError:
            raise KeyError(
                f"{self.game}: action {self.game.action_to_string(action)!r} is missing from "
                "the adapters' action list (epigames.adapters.actions)"
            ) from None

    def mask(self, legal: Iterable[Hashable]) -> npt.NDArray[np.int8]:
        """A 0/1 vector over all actions: 1 for each legal one."""
        mask = np.zeros(len(self.actions), dtype=np.int8)
        for action in legal:
            mask[self.index(action)] = 1
        return mask


@functools.lru_cache(maxsize=128)
def _space(game: Game, chance: bool) -> ActionSpace:
    method, table = (
        ("distinct_chance_outcomes", _CHANCE_ENUMERATORS)
        if chance
        else ("distinct_actions", _ENUMERATORS)
    )
    own = getattr(game, method, None)
    if callable(own):
        return ActionSpace(game, list(own()))
    func = table.get(game.name)
    if func is None:
        what, register = ("chance outcome", "chance") if chance else ("action", "action")
        raise NoActionSpaceError(
            f"no {what} list for game {game.name!r}; give its Game a {method}() method "
            f"or register one with epigames.adapters.actions.{register}_enumerator"
        )
    return ActionSpace(game, list(func(game)))


def action_space(game: Game | str) -> ActionSpace:
    """The fixed action space of a game (or game string).

    Raises:
        NoActionSpaceError: the game has no action list.
    """
    return _space(load_game(game), False)


def chance_space(game: Game | str) -> ActionSpace:
    """Every chance outcome of a game, indexed (OpenSpiel's chance actions).

    Raises:
        NoActionSpaceError: the game has no list of chance outcomes.
    """
    return _space(load_game(game), True)


@action_enumerator("kwartet")
def _kwartet(game: Any) -> Iterable[Hashable]:
    from epigames.games.kwartet.cards import Ask

    return [Ask(target, card) for target in range(game.num_players) for card in game.deck]


@action_enumerator("klaverjas")
def _klaverjas(game: Any) -> Iterable[Hashable]:
    from epigames.cards import Suit
    from epigames.games.klaverjas.actions import Bid

    return [Bid(None), *(Bid(suit) for suit in Suit), *game.deck]


@action_enumerator("blufpoker")
def _blufpoker(game: Any) -> Iterable[Hashable]:
    from epigames.games.blufpoker.actions import BELIEVE, CALL, STOP, Bid, Keep, RollDice
    from epigames.games.blufpoker.dice import DICE, ROLLS, multisets

    rolls = [RollDice(dice) for size in range(1, DICE + 1) for dice in multisets(size)]
    keeps = [Keep(dice) for size in range(DICE) for dice in multisets(size)]
    return [CALL, BELIEVE, STOP, *rolls, *(Bid(roll) for roll in ROLLS), *keeps]


@chance_enumerator("kwartet")
def _dealt_cards(game: Any) -> Iterable[Hashable]:
    return list(game.deck)


@chance_enumerator("klaverjas")
def _klaverjas_chance(game: Any) -> Iterable[Hashable]:
    from epigames.cards import Suit
    from epigames.games.klaverjas.actions import Bid

    return [*game.deck, *(Bid(suit) for suit in Suit)]


@chance_enumerator("blufpoker")
def _blufpoker_chance(game: Any) -> Iterable[Hashable]:
    from epigames.games.blufpoker.actions import Throw
    from epigames.games.blufpoker.dice import DICE, multisets

    return [Throw(dice) for size in range(1, DICE + 1) for dice in multisets(size)]
