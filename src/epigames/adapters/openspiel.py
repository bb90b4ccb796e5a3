"""Every registered game as an OpenSpiel Python game: `pyspiel.load_game("epigames_kwartet")`.

Importing this module registers `epigames_<name>` for each game in the registry (call
`register_games()` again after registering more). Parameters are the game's own, with
the same names and defaults: `pyspiel.load_game("epigames_kwartet(players=3,kinds=4)")`.

Player actions and chance outcomes are indices into the game's fixed lists
(`epigames.adapters.actions`); chance is explicit (`chance_outcomes()` with the rules'
probabilities). Information states come from the seat's `View` alone: the string is the
view as JSON with its observed log's length and digest, the tensor the `knowledge` encoding of
`epigames.adapters.encoding`; observations are the view without its log and the `hand`
encoding. An observer's `dict` gives the tensor's named parts (`seat`, `private`, the
game's public parts, `possible`, `probability`), shaped, as views into it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from typing import Any

import numpy as np
import pyspiel

from epigames.adapters.actions import ActionSpace, action_space, chance_space
from epigames.adapters.encoding import ObservationKind, encoder
from epigames.games import (
    CHANCE,
    TERMINAL,
    Game,
    State as EpigamesState,
    View,
    game_class,
    load_game,
    registered_games,
)
from epigames.games.events import Event
from epigames.games.params import format_value

__all__ = ["PREFIX", "SpielGame", "SpielState", "register_games", "spiel_game_class", "spiel_name"]

#: OpenSpiel names are this prefix and the game's name.
PREFIX = "epigames_"


def spiel_name(name: str) -> str:
    """The OpenSpiel short name of an epigames game: `epigames_kwartet`."""
    return PREFIX + name


def _players_range(cls: type[Game]) -> tuple[int, int]:
    for param in cls.params:
        if param.name == "players" and param.min is not None and param.max is not None:
            return int(param.min), int(param.max)
    players = cls().num_players
    return players, players


def _game_type(cls: type[Game]) -> pyspiel.GameType:
    low, high = _players_range(cls)
    return pyspiel.GameType(
        short_name=spiel_name(cls.name),
        long_name=f"epigames {cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={p.name: p.default for p in cls.params},
    )


def _game_string(cls: type[Game], params: dict[str, Any]) -> str:
    values = {p.name: params.get(p.name, p.default) for p in cls.params}
    if not values:
        return cls.name
    return f"{cls.name}({','.join(f'{k}={format_value(v)}' for k, v in values.items())})"


class _Tables:
    """A game and its action lists; immutable, so copies share it."""

    def __init__(self, game: Game, actions: ActionSpace, chance: ActionSpace) -> None:
        self.game, self.actions, self.chance = game, actions, chance

    def __deepcopy__(self, memo: dict[int, Any]) -> _Tables:
        return self


class _Box:
    """Holds an epigames state, its rewards and text made from it so far.

    OpenSpiel clones a Python state by deep-copying its attributes, and a copy of the box
    is a `clone()` of the state. The text caches only grow with the state's history, so a
    long game costs time linear in its length, not quadratic: OpenSpiel asks for the
    state's string and every seat's information state at every step.
    """

    def __init__(self, state: EpigamesState, rewards: list[float] | None = None) -> None:
        self.state = state
        self.rewards = rewards or [0.0] * state.game.num_players

    @property
    def state(self) -> EpigamesState:
        """The epigames state; setting another (a resampled one) drops the text caches."""
        return self._state

    @state.setter
    def state(self, state: EpigamesState) -> None:
        self._state = state
        # Per seat: how many of its log's events are hashed into its digest.
        self.digests: list[tuple[int, bytes]] = [(0, b"")] * state.game.num_players
        # The state's JSON without its closing `]}`, for the first `texted` actions (made
        # when first asked for: most boxes are never printed).
        self.texted, self.text = 0, ""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        box = _Box(self.state.clone(), list(self.rewards))
        box.digests, box.texted, box.text = list(self.digests), self.texted, self.text
        return box

    def json(self) -> str:
        """`state.to_json()`, made from the actions applied since it was last asked for."""
        history, game = self.state.history, self.state.game
        if not self.text:
            self.text = json.dumps({"game": str(game), "history": []}, ensure_ascii=False)[:-2]
        if self.texted < len(history):
            new = [
                json.dumps(game.action_to_string(a), ensure_ascii=False)
                for a in history[self.texted :]
            ]
            self.text += (", " if self.texted else "") + ", ".join(new)
            self.texted = len(history)
        return self.text + "]}"

    def log_digest(self, view: View) -> tuple[int, str]:
        """The length of `view`'s log and a SHA-256 hash chain over its events' JSON."""
        seat = view.seat
        count, digest = self.digests[seat]
        stop = view.log_length
        if count < stop:
            for event in view.events_since(count):
                text = _event_json(event, event.names).encode()
                digest = hashlib.sha256(digest + text).digest()
            self.digests[seat] = (stop, digest)
        return stop, digest.hex()


class SpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """An epigames game seen by OpenSpiel; `register_games` makes one subclass per game.

    Attributes:
        epigames_name: the registry name of the game (set on each subclass).
    """

    epigames_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        cls = game_class(self.epigames_name)
        game = load_game(_game_string(cls, params or {}))
        actions, chance = action_space(game), chance_space(game)
        low, high = game.returns_range
        info = pyspiel.GameInfo(
            num_distinct_actions=len(actions),
            max_chance_outcomes=len(chance),
            num_players=game.num_players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=None,
            max_game_length=game.max_game_length,
        )
        given = {p.name: getattr(game, p.attr) for p in cls.params}
        # pybind11 drops attributes set before the base class is initialised.
        super().__init__(_game_type(cls), info, given)
        self.tables = _Tables(game, actions, chance)

    def new_initial_state(self) -> SpielState:
        """The start of a game (a chance node: the deal or the first roll)."""
        return SpielState(self, self.tables.game.new_initial_state())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SpielObserver:
        """Information states (perfect recall) or observations of one seat, from its view."""
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return SpielObserver(self, iig_obs_type, params)


class SpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """An epigames state behind OpenSpiel's `State` interface."""

    def __init__(self, game: SpielGame, state: EpigamesState) -> None:
        super().__init__(game)
        self.tables = game.tables
        self._box = _Box(state)

    @property
    def state(self) -> EpigamesState:
        """The epigames state."""
        return self._box.state

    def current_player(self) -> int:
        """A seat, `PlayerId.CHANCE` or `PlayerId.TERMINAL`."""
        player = self.state.current_player
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        actions = self.tables.actions
        return sorted(actions.indices(self.state.legal_actions()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes as (index, probability), by index."""
        chance = self.tables.chance
        return sorted((chance.index(o), float(p)) for o, p in self.state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        chance = self.state.current_player == CHANCE
        table = self.tables.chance if chance else self.tables.actions
        before = self.state.returns()
        self.state.apply(table.actions[action])
        after = self.state.returns()
        changes = [float(a - b) for a, b in zip(after, before, strict=True)]
        # Rewards are read at decision nodes and at the end, never at chance nodes: the
        # chance nodes after a decision add to its rewards (a Klaverjas deal is scored by
        # its last card, then the next deal is dealt) instead of replacing them.
        if chance:
            self._box.rewards = [r + c for r, c in zip(self._box.rewards, changes, strict=True)]
        else:
            self._box.rewards = changes

    def _action_to_string(self, player: int, action: int) -> str:
        tables = self.tables
        table = tables.chance if player == int(pyspiel.PlayerId.CHANCE) else tables.actions
        return tables.game.action_to_string(table.actions[action])

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.state.is_terminal()

    def rewards(self) -> list[float]:
        """What each seat's return changed by since the last decision was made (its own
        change and the chance outcomes' after it), so summed at decision nodes and at the
        end they make the returns."""
        return list(self._box.rewards)

    def returns(self) -> list[float]:
        """Each seat's return (the rules' returns so far; final once terminal)."""
        return [float(r) for r in self.state.returns()]

    def resample_from_infostate(self, player_id: int, uniform: Any) -> SpielState:
        """A state `player_id` cannot tell from this one (for IS-MCTS), hidden part redrawn.

        `uniform()` is OpenSpiel's generator of floats in [0, 1); it seeds the draw.
        """
        rng = random.Random(int(float(uniform()) * 2**53))
        clone: SpielState = self.clone()
        clone._box.state = self.state.resample(player_id, rng)
        return clone

    def __str__(self) -> str:
        return self._box.json()


class SpielObserver:
    """OpenSpiel's Python observer: `tensor`, `dict`, `set_from` and `string_from`."""

    def __init__(self, game: SpielGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params!r}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a seat's own observations are supported (private_info)")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        kind: ObservationKind = "knowledge" if self.perfect_recall else "hand"
        self.encoder = encoder(game.tables.game, kind)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        # OpenSpiel's convention: named views into the tensor, shaped (`trump`, `trick`, …).
        self.dict = self.encoder.views(self.tensor)

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill `tensor` from `player`'s view of `state`."""
        self.tensor[:] = self.encoder.encode(state.state.observation(player))

    def string_from(self, state: SpielState, player: int) -> str:
        """The player's view as JSON; for information states, with its log's length and digest.

        The digest is a SHA-256 chain over the JSON of every event the seat observed, so
        two information states are equal exactly when the seat saw the same events (but for
        a hash collision). The log itself is left out: OpenSpiel asks every seat's string
        at every step, and a default Kemps game's log is ~10 MB of JSON by its end.
        `state.state.observation(player).to_dict()` gives the whole log.
        """
        view = state.state.observation(player)
        text = json.dumps(view.to_dict(include_log=False), ensure_ascii=False)
        if not self.perfect_recall:
            return text
        length, digest = state._box.log_digest(view)
        return f'{text[:-1]}, "log_length": {length}, "log_sha256": "{digest}"}}'


@functools.lru_cache(maxsize=1 << 16)
def _event_json(event: Event, names: tuple[str, ...]) -> str:
    """An event as JSON; `names` is in the key because it words the text but is not part of
    the event's equality."""
    return json.dumps(event.to_dict(), ensure_ascii=False)


def spiel_game_class(name: str) -> type[SpielGame]:
    """The `SpielGame` subclass OpenSpiel creates for game `name` (registered or not)."""
    if name not in _CLASSES:
        title = name.title().replace("_", "")
        _CLASSES[name] = type(f"Spiel{title}Game", (SpielGame,), {"epigames_name": name})
    return _CLASSES[name]


# OpenSpiel keeps each creator until after Python has shut down; a class (unlike a
# closure) is still alive then, so releasing it does not crash the interpreter at exit.
_CLASSES: dict[str, type[SpielGame]] = {}
_REGISTERED: set[str] = set()


def register_games() -> list[str]:
    """Register every epigames game with OpenSpiel that is not yet; returns their names."""
    added = []
    for name in registered_games():
        if name in _REGISTERED:
            continue
        pyspiel.register_game(_game_type(game_class(name)), spiel_game_class(name))
        _REGISTERED.add(name)
        added.append(spiel_name(name))
    return added


register_games()
