"""Strategies: `choose(view) -> Decision`, and a registry per game."""

from __future__ import annotations

import abc
import functools
import importlib.metadata
import inspect
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple, Protocol, TypeVar

from epigames.errors import EpigamesError, InputError, UnknownNameError
from epigames.games.core import State, View, game_class
from epigames.games.events import Fact


class UnknownStrategyError(UnknownNameError):
    """A strategy name that is not registered for the game."""


@dataclass(frozen=True, slots=True)
class Thought:
    """Why a strategy chose its action: a sentence, and the facts it acted on.

    The transcript and the web app render `str(thought)`. A thought is its thinker's
    private observation, like its hand: the web app shows it to the thinker, and to
    other seats only in a review or to spectators.

    A sentence with values in it is best given as a template and its `args`
    (``Thought("I call {} ({:.2f} < {}).", args=(bid, p, limit))``): it is formatted only
    when read, so a tournament, which reads no thoughts, formats none.

    Attributes:
        template: the sentence; with `args`, a `str.format` template over them.
        concluded: the facts the strategy concluded and acted on (e.g. `Holds(West,
            ⟨8,4⟩)`), as the card engine and the logic engine write them.
        args: the values the template is formatted with; immutable ones, since the
            sentence is made when it is read.
    """

    template: str
    concluded: tuple[Fact, ...] = ()
    args: tuple[object, ...] = ()

    @property
    def text(self) -> str:
        """One short human sentence ("I know West holds ⟨8,4⟩; I ask for it.")."""
        return self.template.format(*self.args) if self.args else self.template

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


class UniformRandom(Strategy):
    """A uniformly random legal action: the baseline every game has, and a fuzzer for its rules.

    A game's subclass may say the choice in its own words (`explain`).
    """

    name = "random"

    def choose(self, view: View) -> Decision:
        """Any legal action, uniformly."""
        legal = view.legal_actions
        action = legal[int(self.rng.random() * len(legal))]
        return Decision(action, self.explain(view, action))

    def explain(self, view: View, action: Hashable) -> Thought:
        """The thought behind a random `action`."""
        return Thought(
            "I pick {} at random among {} legal actions.", args=(action, len(view.legal_actions))
        )


#: Draws a state its seat cannot tell from the true one, from the given generator.
Resampler = Callable[[random.Random], State]


class SearchStrategy(Strategy):
    """A strategy that searches from whole states drawn from its seat's information (IS-MCTS).

    Search needs a state, and a `View` is not one. The `Match` that seats it binds a
    `Resampler`: `state.resample(seat, rng)` of the position the seat is to move in, whose
    hidden part is drawn anew from the seat's own knowledge. The true state never reaches
    the strategy, so its choice cannot depend on what the seat cannot see.
    """

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self._resample: Resampler | None = None

    def bind(self, resample: Resampler) -> None:
        """Take the resampler of the seat this strategy plays (called by `Match`)."""
        self._resample = resample

    def sampled_state(self) -> State:
        """A state the seat cannot tell from the true one, drawn with this strategy's `rng`.

        Raises:
            EpigamesError: no `Match` has bound a resampler.
        """
        if self._resample is None:
            raise EpigamesError(f"strategy {self.name!r} searches from states: seat it in a Match")
        return self._resample(self.rng)


#: Anything that makes a strategy from its generator: usually the `Strategy` subclass.
StrategyFactory = Callable[[random.Random], Strategy]
F = TypeVar("F", bound=StrategyFactory)

_STRATEGIES: dict[str, dict[str, StrategyFactory]] = {}
_ABOUT: dict[str, dict[str, str]] = {}


def register_strategy(game_name: str, name: str, about: str | None = None) -> Callable[[F], F]:
    """Decorator: register a strategy factory (usually a class) for a game by name.

    A `Strategy` class registered this way takes the name as its `name`. `about` is one
    sentence for a person choosing a player (`strategy_description`); without it, the
    first paragraph of the factory's docstring says it.
    """

    def decorate(factory: F) -> F:
        table = _STRATEGIES.setdefault(game_name, {})
        if name in table:
            raise ValueError(f"strategy {name!r} is already registered for {game_name}")
        table[name] = factory
        if about is not None:
            _ABOUT.setdefault(game_name, {})[name] = about
        if isinstance(factory, type) and issubclass(factory, Strategy):
            factory.name = name
        return factory

    return decorate


def _first_paragraph(doc: str | None) -> str:
    """A docstring's first paragraph on one line, without code quotes (empty if none)."""
    paragraph = inspect.cleandoc(doc or "").split("\n\n")[0]
    return " ".join(paragraph.replace("`", "").split())


def strategies_for(game_name: str) -> list[str]:
    """The strategy names registered for a game, sorted (without plugins' strategies).

    Raises:
        UnknownGameError: no such game.
    """
    game_class(game_name)
    return sorted(_STRATEGIES.get(game_name, {}))


class StrategyPlugin(Protocol):
    """Strategies from another layer or package, named `prefix:name` or `prefix:name(k=v,…)`.

    A plugin is found by its prefix in the `epigames.strategies` entry point group, and
    its module is imported only when a name with that prefix is listed, checked or made,
    so the games layer never imports it (`openspiel:` is `epigames.adapters.bots`).
    """

    def names(self, game_name: str) -> Sequence[str]:
        """The plugin's strategy names for a game, without the prefix (`ismcts`)."""

    def make(self, game_name: str, spec: str, rng: random.Random) -> Strategy:
        """A fresh strategy from `spec` (`ismcts(simulations=200)`), drawing from `rng`.

        Raises:
            InputError: an unknown name or bad parameters; the plugin cannot run here.
        """

    def check(self, game_name: str, spec: str) -> None:
        """Raise what `make` would for `spec`, without making a strategy (cheaply)."""

    def describe(self, game_name: str, name: str) -> str:
        """One sentence on how the strategy `name` (one of `names`) plays, for menus."""


#: The entry point group of strategy plugins: one entry point per prefix.
PLUGIN_GROUP = "epigames.strategies"
_PREFIX_SEP = ":"


class StrategyPluginError(InputError):
    """A strategy plugin that cannot be loaded (its package is missing or broken)."""


@functools.cache
def _plugin_points() -> dict[str, importlib.metadata.EntryPoint]:
    return {ep.name: ep for ep in importlib.metadata.entry_points(group=PLUGIN_GROUP)}


@functools.cache
def strategy_plugin(prefix: str) -> StrategyPlugin | None:
    """The plugin for a prefix (`openspiel`), loaded on first use; None when there is none.

    Raises:
        StrategyPluginError: the entry point exists but its module cannot be imported.
    """
    point = _plugin_points().get(prefix)
    if point is None:
        return None
    try:
        plugin: StrategyPlugin = point.load()
    except ImportError as exc:
        raise StrategyPluginError(
            f"strategies '{prefix}:…' cannot be loaded from {point.value}: {exc}"
        ) from None
    return plugin


def strategy_choices(game_name: str) -> list[str]:
    """Every strategy name a game accepts: the registered ones, then plugins' (`openspiel:ismcts`).

    Raises:
        UnknownGameError: no such game.
    """
    names = strategies_for(game_name)
    for prefix in sorted(_plugin_points()):
        plugin = strategy_plugin(prefix)
        if plugin is not None:
            names += [f"{prefix}{_PREFIX_SEP}{name}" for name in plugin.names(game_name)]
    return names


def strategy_description(game_name: str, name: str) -> str:
    """One sentence on how a strategy plays, for a person choosing a player.

    A registered strategy's `about`, else its factory's docstring's first paragraph; a
    plugin's strategy (`openspiel:ismcts`) is described by its plugin.

    Raises:
        UnknownGameError: no such game.
        UnknownStrategyError: no such strategy for the game.
    """
    found = _plugin_of(game_name, name)
    if found is not None:
        return found[0].describe(game_name, found[1])
    about = _ABOUT.get(game_name, {}).get(name)
    if about is not None:
        return about
    factory = _STRATEGIES[game_name][name]
    # A partial's own docstring is functools' ("partial(func, ...)"): not this strategy's.
    doc = None if isinstance(factory, functools.partial) else factory.__doc__
    return _first_paragraph(doc)


def _unknown(game_name: str, name: str) -> UnknownStrategyError:
    return UnknownStrategyError(
        f"unknown strategy {name!r} for {game_name}; choose one of: "
        f"{', '.join(strategy_choices(game_name)) or '(none registered)'}"
    )


def _plugin_of(game_name: str, name: str) -> tuple[StrategyPlugin, str] | None:
    """The plugin and the rest of a prefixed name; None for a registered name.

    Raises:
        UnknownGameError: no such game.
        UnknownStrategyError: neither registered nor of a known prefix.
    """
    game_class(game_name)
    if name in _STRATEGIES.get(game_name, {}):
        return None
    prefix, sep, spec = name.partition(_PREFIX_SEP)
    plugin = strategy_plugin(prefix.strip()) if sep else None
    # The name before any parameters: `ismcts` of `ismcts(simulations=200)`.
    if plugin is None or spec.partition("(")[0].strip() not in plugin.names(game_name):
        raise _unknown(game_name, name)
    return plugin, spec.strip()


def split_strategy_names(text: str) -> list[str]:
    """`a, b(x=1,y=2), c` as `["a", "b(x=1,y=2)", "c"]`: commas inside parentheses stay."""
    names, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            names.append(text[start:i].strip())
            start = i + 1
    names.append(text[start:].strip())
    return names


def check_strategy(game_name: str, name: str) -> None:
    """Raise what `make_strategy` would raise for this name, without making the strategy."""
    found = _plugin_of(game_name, name)
    if found is not None:
        found[0].check(game_name, found[1])


def make_strategy(game_name: str, name: str, rng: random.Random) -> Strategy:
    """A fresh strategy for `game_name`, drawing randomness from `rng`.

    `name` is a registered name or a plugin's `prefix:name(k=v,…)`.

    Raises:
        UnknownGameError: no such game.
        UnknownStrategyError: no such strategy for the game.
        InputError: a plugin's strategy with bad parameters, or that cannot run here.
    """
    found = _plugin_of(game_name, name)
    if found is None:
        return _STRATEGIES[game_name][name](rng)
    return found[0].make(game_name, found[1], rng)
