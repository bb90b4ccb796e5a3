"""Fixed action spaces per game: every distinct action (and chance outcome), indexed.

Learning libraries want a fixed set of actions (`Discrete(n)`, OpenSpiel's
`num_distinct_actions`) and a mask of the legal ones. The framework's states list only
the legal actions of the moment; each game lists all of its own
(`Game.distinct_actions()`, `Game.distinct_chance_outcomes()`).
`tests/adapters/test_actions.py` fails for a registered game without them.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from epigames.errors import InputError
from epigames.games import Game, load_game


class NoActionSpaceError(InputError):
    """A game whose distinct actions the adapters cannot list."""


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
        # Indices by the identity of action objects met before, each kept alive here so
        # that its id stays its own. A game that hands out the same objects every time (a
        # table of its moves) then skips the hashing, which a dataclass does in Python and
        # which cost most of an observation's time in Kwartet (about 60 legal asks a move).
        self._by_id: dict[int, int] = {}
        self._kept: list[Hashable] = []
        self._keep = 4 * len(self.actions) + 64

    def __len__(self) -> int:
        return len(self.actions)

    def __reduce__(self) -> tuple[type[ActionSpace], tuple[Game, tuple[Hashable, ...]]]:
        # Made anew where it is unpickled: the ids it knows are of this process's objects.
        return (ActionSpace, (self.game, self.actions))

    def index(self, action: Hashable) -> int:
        """The index of an action.

        Raises:
            KeyError: not one of the game's distinct actions (a gap in its `distinct_actions`).
        """
        try:
            return self._index[action]
        except KeyError:
            raise KeyError(
                f"{self.game}: action {self.game.action_to_string(action)!r} is missing from "
                "the game's distinct_actions()"
            ) from None

    def indices(self, actions: Iterable[Hashable]) -> list[int]:
        """The index of each action, in order.

        Raises:
            KeyError: one is not among the game's distinct actions.
        """
        # `type(...) in` rather than `isinstance(..., Sequence)`: an ABC check costs more
        # than a short list of look-ups.
        listed = actions if type(actions) in (tuple, list) else tuple(actions)
        # In C: a mask lists every legal action of every step a trainer takes.
        found = list(map(self._by_id.get, map(id, listed)))
        if None not in found:
            return found  # type: ignore[return-value]  # no None in it
        return [
            self._learn(action) if i is None else i for action, i in zip(listed, found, strict=True)
        ]

    def _learn(self, action: Hashable) -> int:
        """The index of an action met for the first time; kept by identity while room."""
        i = self.index(action)
        if len(self._kept) < self._keep:
            self._kept.append(action)
            self._by_id[id(action)] = i
        return i

    def mask(self, legal: Iterable[Hashable]) -> npt.NDArray[np.int8]:
        """A 0/1 vector over all actions: 1 for each legal one."""
        mask = np.zeros(len(self.actions), dtype=np.int8)
        found = self.indices(legal)
        if len(found) > _FEW:
            mask[found] = 1
        else:  # a store each costs less than making an index array of a short list
            for i in found:
                mask[i] = 1
        return mask


#: Up to this many legal actions, `ActionSpace.mask` stores them one by one.
_FEW = 16


@functools.lru_cache(maxsize=128)
def _space(game: Game, chance: bool) -> ActionSpace:
    try:
        listed = game.distinct_chance_outcomes() if chance else game.distinct_actions()
    except NotImplementedError:
        what, method = (
            ("chance outcome", "distinct_chance_outcomes")
            if chance
            else ("action", "distinct_actions")
        )
        raise NoActionSpaceError(
            f"no {what} list for game {game.name!r}; give its Game a {method}() method"
        ) from None
    return ActionSpace(game, list(listed))


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
