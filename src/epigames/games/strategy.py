"""Strategies: `choose(view) -> Decision`, and a registry per game."""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import ClassVar, NamedTuple, TypeVar

from epigames.errors import UnknownNameError
from epigames.games.core import View, game_class
from epigames.games.events import Fact


class UnknownStrategyError(UnknownNameError):
    """A strategy name that is not registered for the game."""


@dataclass(frozen=True, slots=True)
class Thought:
    """Why a strategy chose its action: a sentence, and what in it only some seats know.

    The transcript and the web app render `str(thought)`; the web app shows it to a seat
    only when the hidden items it names are the seat's own or become public with the move
    (`web.readers`), so nothing about who may read it is guessed from the text.

    Attributes:
        text: one short human sentence ("I know West holds ⟨8,4⟩; I ask for it.").
        names: the items of the game the sentence names that may be hidden (cards, the
            roll under the cup); empty when it names none.
        concluded: the facts the strategy concluded and acted on (e.g. `Holds(West,
            ⟨8,4⟩)`), as the card engine and the logic engine write them.
    """

    text: str
    names: frozenset[Hashable] = frozenset()
    concluded: tuple[Fact, ...] = ()

    def __str__(self) -> str:
        return self.text


#: The thought of a move nobody explained (a person's).
NO_THOUGHT = Thought("")


class Decision(NamedTuple):
    """An action with the reason for it (an immutable named tuple: cheap in hot loops).

    Attributes:
        action: the chosen legal action.
        thought: why, as data (`Thought`).
    """

    action: Hashable
    thought: Thought


class Strategy(abc.ABC):
    """A player: sees only its seat's `View` and draws randomness only from its own `rng`.

    Attributes:
        rng: this strategy's private generator, seeded by the match.
    """

    name: ClassVar[str] = ""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    @abc.abstractmethod
    def choose(self, view: View) -> Decision:
        """Pick one of `view.legal_actions` (it is this seat's turn)."""


#: Anything that makes a strategy from its generator: usually the `Strategy` subclass.
StrategyFactory = Callable[[random.Random], Strategy]
F = TypeVar("F", bound=StrategyFactory)

_STRATEGIES: dict[str, dict[str, StrategyFactory]] = {}


def register_strategy(game_name: str, name: str) -> Callable[[F], F]:
    """Decorator: register a strategy factory (usually a class) for a game by name."""

    def decorate(factory: F) -> F:
        table = _STRATEGIES.setdefault(game_name, {})
        if name in table:
            raise ValueError(f"strategy {name!r} is already registered for {game_name}")
        table[name] = factory
        return factory

    return decorate


def strategies_for(game_name: str) -> list[str]:
    """The strategy names registered for a game, sorted.

    Raises:
        UnknownGameError: no such game.
    """
    game_class(game_name)
    return sorted(_STRATEGIES.get(game_name, {}))


def make_strategy(game_name: str, name: str, rng: random.Random) -> Strategy:
    """A fresh strategy for `game_name`, drawing randomness from `rng`.

    Raises:
        UnknownGameError: no such game.
        UnknownStrategyError: no such strategy for the game.
    """
    names = strategies_for(game_name)
    if name not in names:
        raise UnknownStrategyError(
            f"unknown strategy {name!r} for {game_name}; choose one of: "
            f"{', '.join(names) or '(none registered)'}"
        )
    return _STRATEGIES[game_name][name](rng)
