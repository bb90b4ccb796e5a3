"""The game framework: immutable `Game` configs, `State`s, seat `View`s and the registry.

A game is a frozen dataclass whose fields are its declared parameters; `load_game`
builds one from a string such as `"kwartet(players=3,kinds=5)"` and `str(game)` gives the
canonical string back. States follow OpenSpiel: the player to move is a seat, `CHANCE`
(sample one of `chance_outcomes()`) or `TERMINAL`; rules hold no randomness.
"""

from __future__ import annotations

import abc
import contextlib
import dataclasses
import functools
import itertools
import json
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar, overload

import numpy as np
import numpy.typing as npt

from epigames.cards.layout import CardLayout
from epigames.errors import IllegalActionError, InputError
from epigames.games.events import (
    Event,
    Fact,
    GroupObservation,
    PrivateObservation,
    PublicAnnouncement,
)
from epigames.games.knowledge import AnyKnowledge
from epigames.games.notebook import state_html, view_html
from epigames.games.observation import Arrays, Axis, Part, zeros
from epigames.games.params import (
    GameStringError,
    Param,
    ParamValue,
    UnknownGameError,
    UnknownParameterError,
    format_value,
    split_game_string,
)
from epigames.games.turn import CHANCE, TERMINAL

if TYPE_CHECKING:
    from epigames.games.ask import Asking

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Event",
    "EventLog",
    "Fact",
    "Game",
    "GameStringError",
    "GroupObservation",
    "Param",
    "PrivateObservation",
    "PublicAnnouncement",
    "SeatError",
    "SharedLogView",
    "State",
    "StateFormatError",
    "UniformOutcomes",
    "UnknownGameError",
    "UnknownParameterError",
    "View",
    "by_fields",
    "cached_property",
    "game_class",
    "game_registered",
    "illegal_action",
    "load_game",
    "register_game",
    "registered_games",
    "replay",
    "replayed",
    "seat_error",
    "state_from_json",
    "unregister_game",
]

T = TypeVar("T")


class SeatError(InputError):
    """A seat number or name that the game does not have."""


class StateFormatError(InputError):
    """A serialised state that cannot be read back."""


class Game(abc.ABC):
    """An immutable game configuration; subclasses are frozen dataclasses.

    A subclass sets `name` and `params` and declares one dataclass field per parameter,
    with the parameter's default. Construction validates every value, so a `Game` that
    exists is always a legal configuration. `default_strategy` is the agent seated where
    none is named (`epigames play` without `--players`, the web app's seats): one whose
    games end by the rules.
    """

    name: ClassVar[str] = ""
    params: ClassVar[tuple[Param, ...]] = ()
    default_strategy: ClassVar[str] = "random"
    #: A short game that shows the agents at their best, for a first visit (the web app's
    #: start page, form defaults and guided games): its game string (empty: the defaults)
    #: and its agents, given to the seats in turn (empty: `default_strategy`).
    showcase: ClassVar[str] = ""
    showcase_agents: ClassVar[tuple[str, ...]] = ()
    #: Every event class the game logs: the JSON Schema of its transcripts
    #: (`epigames.games.schema`) is made from these, so a game lists each one.
    event_types: ClassVar[tuple[type[Event], ...]] = ()

    @classmethod
    def showcase_match(cls) -> tuple[Game, tuple[str, ...]]:
        """The showcase game and one agent per seat (`showcase`, `showcase_agents`)."""
        game = load_game(cls.showcase or cls.name)
        agents = cls.showcase_agents or (cls.default_strategy,)
        return game, tuple(itertools.islice(itertools.cycle(agents), game.num_players))

    def __post_init__(self) -> None:
        for param in self.params:
            param.check(getattr(self, param.attr), self.name)
        self._check_teams()

    def __str__(self) -> str:
        """The canonical game string: every parameter, in declared order."""
        if not self.params:
            return self.name
        body = ",".join(f"{p.name}={format_value(getattr(self, p.attr))}" for p in self.params)
        return f"{self.name}({body})"

    @property
    def num_players(self) -> int:
        """How many seats play: by default the game's `players` parameter.

        A game without that parameter overrides this property.
        """
        players = getattr(self, "players", None)
        if not isinstance(players, int):
            raise NotImplementedError(f"{type(self).__name__} must define num_players")
        return players

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Display names of the seats, in seat order."""
        return tuple(f"seat {i}" for i in range(self.num_players))

    @property
    def card_layout(self) -> CardLayout | None:
        """Where the game's cards can be: its cards, the seats, then its piles (`Location`s,
        face up or down); None for a game without cards."""
        return None

    @property
    def asking(self) -> Asking | None:
        """How `games.ask` answers formulas on this game's states; None: as about card
        holders (``holds(h, c)``, `games.ask.CARDS`)."""
        return None

    @property
    def private_axis(self) -> Axis:
        """Every item `View.private_items()` may hold, in order: by default the cards of
        `card_layout`.

        Raises:
            NotImplementedError: a game without cards that does not declare its own.
        """
        layout = self._layout_for("private items")
        return Axis("card", layout.cards, _card_names(layout))

    @property
    def knowledge_axes(self) -> tuple[Axis, Axis]:
        """The subjects of `view.knowledge` and the values each may take, in the order of
        `Knowledge.matrices()`: by default the cards of `card_layout` and its holders
        (indices, named by the layout).

        Raises:
            NotImplementedError: a game without cards that does not declare its own.
        """
        layout = self._layout_for("knowledge axes")
        holders = Axis("holder", tuple(range(layout.n_holders)), layout.holders)
        return Axis("card", layout.cards, _card_names(layout)), holders

    def public_parts(self) -> tuple[Part, ...]:
        """The public state as named fixed-size arrays (`games.observation.Part`), sized
        from the parameters alone; `View.write_public` fills them in.

        Here the seat to move; a game adds its own parts after these (trump, the trick,
        bids, scores, counts of cards), so that a seat's observation tells apart any two
        positions whose public state differs.
        """
        return (Part("to_move", (Axis.seats(self.seat_names),), "1 for the seat to move"),)

    def _layout_for(self, what: str) -> CardLayout:
        layout = self.card_layout
        if layout is None:
            raise NotImplementedError(f"{type(self).__name__} must declare its {what}")
        return layout

    @property
    def holder_labels(self) -> tuple[str, ...]:
        """How plain words name what can hold the game's hidden items: the seats by name,
        then the piles of its `card_layout` (`the deck`)."""
        layout = self.card_layout
        if layout is None:
            return self.seat_names
        return layout.labels or layout.holders

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The teams: each a tuple of the seats that play together, in seat order.

        By default every seat is a team of its own, `((0,), (1,), …)`. A partnership game
        overrides it (Klaverjas: `((0, 2), (1, 3))`, partners sit opposite). Members of one
        team always get equal returns (see `State.team_returns`), so they win together.
        The teams must divide the seats among them; construction checks it.
        """
        return tuple((seat,) for seat in range(self.num_players))

    def _check_teams(self) -> None:
        """Check that `teams` hold each seat exactly once, each team non-empty and in order.

        Raises:
            ValueError: they do not (a bug in the game's definition, not a user's error).
        """
        teams = self.teams
        if sorted(seat for team in teams for seat in team) != list(range(self.num_players)):
            raise ValueError(
                f"{self.name}: teams {teams} must hold each of the seats "
                f"0..{self.num_players - 1} exactly once"
            )
        for team in teams:
            if not team or list(team) != sorted(team):
                raise ValueError(
                    f"{self.name}: team {team} must be non-empty and list its seats in order"
                )

    def team_of(self, seat: int) -> int:
        """The index in `teams` of the team that `seat` plays in.

        Raises:
            SeatError: no such seat.
        """
        for index, team in enumerate(self.teams):
            if seat in team:
                return index
        raise SeatError(f"no seat {seat!r} in {self.name}; choose 0..{self.num_players - 1}")

    @property
    @abc.abstractmethod
    def returns_range(self) -> tuple[float, float]:
        """The smallest and largest return any seat can get."""

    @property
    def max_game_length(self) -> int:
        """The most decisions one game can take, whatever the players do (chance outcomes
        not counted): OpenSpiel's `max_game_length`.

        Each game computes it from its parameters: Kemps from its cap, `max_turns`;
        Blufpoker, which no rule bounds, allows rounds until more are less likely than
        1e-12. A game that does not override it cannot be loaded in OpenSpiel.
        """
        raise NotImplementedError(f"{type(self).__name__} does not bound its length")

    def distinct_actions(self) -> Sequence[Hashable]:
        """Every action some state of the game allows, in a fixed order: the fixed action
        space learning libraries want (`adapters.actions`).

        Raises:
            NotImplementedError: the game does not list them.
        """
        raise NotImplementedError(f"{type(self).__name__} does not list its actions")

    def distinct_chance_outcomes(self) -> Sequence[Hashable]:
        """Every chance outcome some state of the game draws, in a fixed order.

        Raises:
            NotImplementedError: the game does not list them.
        """
        raise NotImplementedError(f"{type(self).__name__} does not list its chance outcomes")

    @abc.abstractmethod
    def new_initial_state(self) -> State:
        """A fresh state at the start of the game (usually a chance node: the deal)."""

    @abc.abstractmethod
    def parse_action(self, text: str) -> Hashable:
        """Read an action or chance outcome from `action_to_string` output.

        Raises:
            InputError: the text is not an action of this game.
        """

    def action_to_string(self, action: Hashable) -> str:
        """The text of an action or chance outcome; `parse_action` reads it back."""
        return str(action)

    def seat_index(self, text: str | int) -> int:
        """Resolve a seat given by number (`2`) or display name (`north`, any case).

        Raises:
            SeatError: no such seat.
        """
        names = self.seat_names
        word = str(text).strip()
        if word.lstrip("-").isdigit() and 0 <= int(word) < self.num_players:
            return int(word)
        lowered = [n.lower() for n in names]
        if word.lower() in lowered:
            return lowered.index(word.lower())
        raise SeatError(
            f"no seat {word!r} in {self.name}; choose 0..{self.num_players - 1} "
            f"or one of: {', '.join(names)}"
        )


class cached_property(Generic[T]):  # lower case, as the functools one it stands in for
    """`functools.cached_property` without the lock Python 3.11 takes on every first read.

    The lock (gone in 3.12) costs more than most of what views compute, and a view is
    never shared between threads while it fills its cache. The value is stored in the
    instance's `__dict__` under the property's name, so later reads find it there: the
    class must have a `__dict__` (a plain class, or one mypyc compiles as
    `native_class=False`). The name comes from `__set_name__` when the class is made; a
    method compiled by mypyc may have no `__name__`.
    """

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name: str = getattr(func, "__name__", "")
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> Self: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...

    def __get__(self, instance: object, owner: type | None = None) -> T | Self:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


class View:
    """What one seat sees: built only from that seat's observations.

    The game's `State.observation(seat)` creates it from records that were updated by the
    events the seat observed (its private observations and the public announcements), never
    by filtering the true state. Everything is a snapshot: later moves do not change a view.

    Per-seat knowledge (a `games.knowledge.Knowledge`) belongs here as one lazy property
    built from the seat's observations only: `@cached_property def knowledge` (this
    module's `cached_property`).
    """

    def __init__(
        self, game: Game, seat: int, current_player: int, log: list[Event], log_length: int
    ) -> None:
        self._game = game
        self._seat = seat
        self._current_player = current_player
        # The seat's log only grows, so a prefix length is a cheap snapshot.
        self._log_source = log
        self._log_length = log_length

    @property
    def game(self) -> Game:
        """The game being played."""
        return self._game

    @property
    def seat(self) -> int:
        """The seat this view belongs to."""
        return self._seat

    @property
    def current_player(self) -> int:
        """Whose turn it is: a seat, `CHANCE` or `TERMINAL` (public in every game here)."""
        return self._current_player

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is to move."""
        return self._current_player == self._seat

    @cached_property
    def log(self) -> tuple[Event, ...]:
        """Every event this seat observed, in order: public ones and its own private ones."""
        return tuple(self._log_source[: self._log_length])

    @property
    def log_length(self) -> int:
        """How many events this seat had observed when the view was made."""
        return self._log_length

    def events_since(self, index: int) -> Sequence[Event]:
        """The events this seat observed from position `index` of its log on.

        Cheaper than slicing `log`, which copies the whole log first: a reader that keeps
        up with a growing log (a digest, an incremental encoder) asks only for what is new.
        """
        return self._log_source[index : self._log_length]

    @property
    def legal_actions(self) -> Sequence[Hashable]:
        """This seat's legal actions; empty when it is not its turn."""
        return ()

    def private_items(self) -> frozenset[Hashable]:
        """The items only this seat (and whoever saw them too) can see: its cards, its look."""
        return frozenset()

    def public_state(self) -> dict[str, npt.NDArray[np.float32]]:
        """The public state this seat sees, as the named arrays of `Game.public_parts()`
        in the game's own units (flags, counts, points)."""
        arrays = zeros(self._game.public_parts())
        self.write_public(arrays)
        return arrays

    def write_public(self, arrays: Arrays) -> None:
        """Write the public state into `arrays`: one zeroed array per part of
        `Game.public_parts()`, by name.

        Here the seat to move; a game that adds parts extends it (and calls this).
        """
        player = self._current_player
        if player >= 0:
            arrays["to_move"][player] = 1.0

    @property
    def knowledge(self) -> AnyKnowledge:
        """What this seat knows about the hidden part of the game (`games.knowledge`).

        Each game overrides it (usually a `cached_property`), derived from the
        seat's observations only.
        """
        raise NotImplementedError(f"{type(self).__name__} has no knowledge")

    def to_dict(self, include_log: bool = True) -> dict[str, Any]:
        """The view's content as JSON values (for transcripts and tests)."""
        data: dict[str, Any] = {
            "seat": self._seat,
            "current_player": self._current_player,
            "legal_actions": [self._game.action_to_string(a) for a in self.legal_actions],
        }
        data.update(self._extra_dict())
        if include_log:
            data["log"] = [event.to_dict() for event in self.log]
        return data

    def _extra_dict(self) -> dict[str, Any]:
        """Game-specific content for `to_dict`; subclasses override."""
        return {}

    def summary(self) -> str:
        """One line about the seat's private situation (e.g. its hand), for transcripts."""
        return ""

    def _repr_html_(self) -> str:
        """The view as HTML tables (`games.notebook.view_html`): Jupyter shows it so."""
        return view_html(self)


class UniformOutcomes(Sequence[tuple[Hashable, float]]):
    """Equally likely chance outcomes: the `(outcome, 1 / n)` pairs, made only when read.

    A state's `chance_outcomes()` may return it (e.g. for each card of a deal): a `Match`
    then draws one by index, as `sample_outcome` would from the pairs, without making them.

    Attributes:
        outcomes: the outcomes, in order.
    """

    __slots__ = ("outcomes",)

    def __init__(self, outcomes: Sequence[Hashable]) -> None:
        self.outcomes = outcomes

    def __len__(self) -> int:
        return len(self.outcomes)

    @overload
    def __getitem__(self, index: int) -> tuple[Hashable, float]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[Hashable, float]]: ...

    def __getitem__(
        self, index: int | slice
    ) -> tuple[Hashable, float] | list[tuple[Hashable, float]]:
        probability = 1.0 / len(self.outcomes)
        if isinstance(index, slice):
            return [(o, probability) for o in self.outcomes[index]]
        return (self.outcomes[index], probability)

    def __iter__(self) -> Iterator[tuple[Hashable, float]]:
        return zip(self.outcomes, itertools.repeat(1.0 / len(self.outcomes)))

    def __repr__(self) -> str:
        return f"UniformOutcomes({list(self.outcomes)!r})"


class State(abc.ABC):
    """A position in a game: whose turn, what is legal, the log so far.

    Subclasses implement the abstract methods; `apply` must raise `IllegalActionError`
    (see `illegal_action`) and leave the state unchanged for any action that is not legal,
    including actions of another seat and chance outcomes at a player's turn.
    """

    game: Game

    @property
    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat to move, `CHANCE` or `TERMINAL`."""

    @abc.abstractmethod
    def legal_actions(self) -> Sequence[Hashable]:
        """The current player's legal actions (empty at chance and terminal nodes)."""

    @abc.abstractmethod
    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        """`(outcome, probability)` pairs at a chance node (empty elsewhere)."""

    @abc.abstractmethod
    def apply(self, action: Hashable) -> None:
        """Play an action or chance outcome.

        Raises:
            IllegalActionError: not legal here; the state is unchanged.
        """

    @abc.abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Each seat's return so far (final once terminal)."""

    @abc.abstractmethod
    def clone(self) -> Self:
        """An independent copy: applying actions to one leaves the other unchanged."""

    @abc.abstractmethod
    def observation(self, seat: int) -> View:
        """The seat's read-only view, built from its own observations only."""

    @property
    @abc.abstractmethod
    def events(self) -> Sequence[Event]:
        """The full event log (public and private events), in order."""

    @property
    @abc.abstractmethod
    def history(self) -> Sequence[Hashable]:
        """Every action and chance outcome applied, in order."""

    def resample(self, seat: int, rng: random.Random) -> Self:
        """A state that `seat` cannot tell from this one, its hidden part drawn anew.

        Like OpenSpiel's `ResampleFromInfostate`: the seat's view (hand, log, knowledge) is
        the same in the result; what the seat cannot see (others' cards, the dice under a
        cup) is drawn from the seat's knowledge with the engine's sampler. Everything made
        for the seat (pictures, formula answers, its transcript) must be the same on both
        states: the no-peeking tests check that. Other seats' private logs may be left
        as they were: the result serves only `seat`'s questions.
        """
        raise NotImplementedError(f"{self.game.name} cannot resample hidden information")

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.current_player == TERMINAL

    #: Whether the game stopped at a cap of its parameters (a turn limit) rather than by its
    #: rules; tournaments count such games apart. A game that has a cap sets it at the end.
    capped: bool = False

    def team_returns(self) -> tuple[float, ...]:
        """Each team's return, in the order of `game.teams`: the one return its members share.

        Members of one team always get equal returns: a team game's rules must give every
        member the team's score (they win or lose together).

        Raises:
            ValueError: members of a team got different returns (a bug in the game's rules).
        """
        returns = self.returns()
        shared = []
        for team in self.game.teams:
            values = {returns[seat] for seat in team}
            if len(values) != 1:
                raise ValueError(
                    f"{self.game.name}: team {team} got different returns "
                    f"{[returns[seat] for seat in team]}; members must share one return"
                )
            shared.append(returns[team[0]])
        return tuple(shared)

    def winners(self) -> tuple[int, ...]:
        """The seats with the highest return (several on a tie); empty before the end."""
        if not self.is_terminal():
            return ()
        scores = self.returns()
        best = max(scores)
        return tuple(seat for seat, score in enumerate(scores) if score == best)

    def to_json(self) -> str:
        """The state as JSON: the canonical game string and the history, replayable."""
        history = [self.game.action_to_string(a) for a in self.history]
        return json.dumps({"game": str(self.game), "history": history}, ensure_ascii=False)

    def __str__(self) -> str:
        return self.to_json()

    def _repr_html_(self) -> str:
        """The state as HTML tables (`games.notebook.state_html`): Jupyter shows it so."""
        return state_html(self)


class SharedLogView:
    """Mixin for a `View` (listed before it) that reads its log from the state's shared log.

    The view keeps the state (`_source`) and the shared log's length when it was made
    (`_stop`); the seat's own log is read only when asked for, and events logged after the
    view was made are left out, so the view stays a snapshot.
    """

    _seat: int
    _source: EventLog
    _stop: int

    @cached_property
    def _observed(self) -> tuple[list[Event], int]:
        """The seat's log (a list that only grows) and its length when the view was made."""
        return self._observe()

    def _observe(self) -> tuple[list[Event], int]:
        log = self._source._seat_log(self._seat)
        bit = 1 << self._seat
        later = sum(1 for audience in self._source.audiences[self._stop :] if audience & bit)
        return log, len(log) - later

    @cached_property
    def log(self) -> tuple[Event, ...]:
        """Every event this seat observed, in order: public ones and its own private ones."""
        log, length = self._observed
        return tuple(log[:length])

    @property
    def log_length(self) -> int:
        """How many events this seat had observed when the view was made."""
        return self._observed[1]

    def events_since(self, index: int) -> Sequence[Event]:
        """The events this seat observed from position `index` of its log on."""
        log, length = self._observed
        return log[index:length]


class EventLog:
    """Mixin for a `State` (listed before it): one shared event log with each entry's audience.

    `_start_log(players)` in `__init__` creates the lists, `_clone_log(other)` copies them
    into a clone, and a game's `_publish` calls `_deliver(event)` before updating its own
    records. Delivering an event appends it and its audience (a seat mask) once; a seat's
    own log is read from the shared one only when the seat's view is asked for, so playing
    through the rules alone copies nothing per seat. The `events` and `history` properties
    implement the `State` interface.
    """

    game: Game
    _events: list[Event]
    _audience: list[int]
    _seen: list[list[Event]]
    _read: list[int]
    _history: list[Hashable]

    def _start_log(self, players: int) -> None:
        self._events = []
        self._audience = []
        # Each seat's log as far as it was read (`_read[seat]` entries of the shared log).
        self._seen = [[] for _ in range(players)]
        self._read = [0] * players
        self._history = []

    def _seat_log(self, seat: int) -> list[Event]:
        """What `seat` observed so far (for its view; the list only grows).

        Raises:
            SeatError: no such seat.
        """
        seen = self._seen
        if type(seat) is not int or not 0 <= seat < len(seen):  # one list per seat
            check_seat(self.game, seat)
        log = seen[seat]
        start, stop = self._read[seat], len(self._events)
        if start < stop:
            bit, events, audience = 1 << seat, self._events, self._audience
            log.extend([events[i] for i in range(start, stop) if audience[i] & bit])
            self._read[seat] = stop
        return log

    def _clone_log(self, other: EventLog) -> None:
        """Give `other` copies of the lists (the events and actions are shared values)."""
        other._events, other._history = list(self._events), list(self._history)
        other._audience, other._read = list(self._audience), list(self._read)
        other._seen = [list(seen) for seen in self._seen]

    @property
    def events(self) -> list[Event]:
        """The full log, public and private events (do not modify)."""
        return self._events

    @property
    def audiences(self) -> list[int]:
        """Each event's audience as a seat mask (bit `s` for seat `s`; do not modify)."""
        return self._audience

    @property
    def history(self) -> list[Hashable]:
        """Every action and chance outcome applied, in order (do not modify)."""
        return self._history

    def _deliver(self, event: Event) -> None:
        """Log an event with the seats that observe it."""
        self._events.append(event)
        self._audience.append(-1 if event.public else event.audience())


def _card_names(layout: CardLayout) -> tuple[str, ...]:
    return tuple(layout.card_name(c) for c in range(layout.n_cards))


def check_seat(game: Game, seat: int) -> None:
    """Raise `SeatError` unless `seat` is one of `game`'s seat numbers."""
    if type(seat) is not int or not 0 <= seat < game.num_players:
        raise seat_error(game, seat)


def seat_error(game: Game, seat: object) -> SeatError:
    """The error for `seat`, which is not one of `game`'s seat numbers (returned, not raised)."""
    return SeatError(f"no seat {seat!r} in {game}; seats are 0..{game.num_players - 1}")


def illegal_action(state: State, action: object, limit: int = 12) -> IllegalActionError:
    """The error for playing `action` where it is not legal; names the legal ones.

    Returned, not raised, so callers write `raise illegal_action(state, action)`.
    """
    game = state.game
    shown = _action_text(game, action)
    player = state.current_player
    if player == TERMINAL:
        return IllegalActionError(f"illegal action {shown}: the game is over")
    if player == CHANCE:
        legal = [outcome for outcome, _ in state.chance_outcomes()]
        who = "at a chance node; possible outcomes"
    else:
        legal = list(state.legal_actions())
        who = f"for {game.seat_names[player]}; legal actions"
    texts = [game.action_to_string(a) for a in legal[:limit]]
    more = f", … ({len(legal)} in all)" if len(legal) > limit else ""
    return IllegalActionError(f"illegal action {shown} {who}: {', '.join(texts)}{more}")


def _action_text(game: Game, action: object) -> str:
    try:
        return repr(game.action_to_string(action))  # type: ignore[arg-type, unused-ignore]
    except Exception:  # any object may be passed in; its text is only for the message
        return repr(action)


_GAMES: dict[str, type[Game]] = {}
G = TypeVar("G", bound=type[Game])
StateT = TypeVar("StateT", bound=State)


def register_game(cls: G) -> G:
    """Class decorator: add a `Game` dataclass to the registry under `cls.name`."""
    if not cls.name or cls.name in _GAMES:
        raise ValueError(f"game name {cls.name!r} is empty or already registered")
    fields = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    declared = {p.attr for p in cls.params}
    if fields != declared:
        raise ValueError(f"{cls.name}: fields {sorted(fields)} != params {sorted(declared)}")
    _GAMES[cls.name] = cls
    return cls


def unregister_game(name: str) -> type[Game]:
    """Take the game called `name` out of the registry (for tests); returns its class.

    Games loaded before are forgotten too, so `load_game` no longer finds it. Its
    strategies stay registered but unreachable: `strategies_for` asks the game registry
    first, so registering the class again brings them back.

    Raises:
        UnknownGameError: no such game.
    """
    cls = game_class(name)
    del _GAMES[name]
    _load.cache_clear()
    return cls


@contextlib.contextmanager
def game_registered(cls: type[Game]) -> Iterator[type[Game]]:
    """Register a `Game` class for the length of a `with` block only.

    For games that exist for some tests alone: anything that lists `registered_games()`
    elsewhere (the conformance suite, the web app) never sees them.
    """
    register_game(cls)
    try:
        yield cls
    finally:
        unregister_game(cls.name)


def registered_games() -> list[str]:
    """The names of all registered games, sorted."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """The registered game class called `name`.

    Raises:
        UnknownGameError: no such game.
    """
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r}; choose one of: {', '.join(registered_games())}"
        ) from None


@functools.lru_cache(maxsize=256)
def _load(text: str) -> Game:
    name, pairs = split_game_string(text)
    cls = game_class(name)
    by_name = {p.name: p for p in cls.params}
    values: dict[str, ParamValue] = {}
    for key, raw in pairs:
        param = by_name.get(key)
        if param is None:
            choices = ", ".join(by_name) or "(none)"
            raise UnknownParameterError(
                f"{name} has no parameter {key!r}; choose one of: {choices}"
            )
        if param.attr in values:
            raise GameStringError(f"{name}: parameter {key!r} is given twice in {text!r}")
        values[param.attr] = param.parse(raw, name)
    return cls(**values)


def load_game(spec: str | Game) -> Game:
    """Build a game from a string such as `"kwartet(players=3,kinds=5)"`.

    A bare name means every default. A `Game` passes through unchanged.

    Raises:
        GameStringError: malformed string, a value of the wrong type or out of range.
        UnknownGameError: the game is not registered.
        UnknownParameterError: the game has no such parameter.
    """
    if isinstance(spec, Game):
        return spec
    return _load(spec)


def replay(game: Game | str, history: Iterable[Hashable]) -> State:
    """A new state of `game` after applying `history` (actions and chance outcomes)."""
    state = load_game(game).new_initial_state()
    for action in history:
        state.apply(action)
    return state


def by_fields(state: State, names: tuple[str, ...]) -> tuple[Any, tuple[Any, ...]]:
    """A compiled state's `__reduce__`: its class, its game and the values of `names`.

    A compiled class's `__init__` needs its game, so pickle's default (the class made
    bare, then its attributes set) cannot make one; this makes it with its game and then
    sets the fields `names` (all the state keeps besides what its game decides).
    """
    values = tuple([getattr(state, name) for name in names])
    return _restored, (type(state), state.game, names, values)


def _restored(
    cls: Callable[[Game], StateT], game: Game, names: tuple[str, ...], values: tuple[Any, ...]
) -> StateT:
    """The state `by_fields` describes (an unpickled one)."""
    state = cls(game)
    for name, value in zip(names, values, strict=True):
        setattr(state, name, value)
    return state


def replayed(state: StateT, history: Iterable[Hashable], seat: int | None = None) -> StateT:
    """A new state of `state`'s game and type after `history` (e.g. a resampled deal).

    With `seat`, the new state must look the same to that seat (what a resampled deal
    promises); a difference is a bug in the game's resampling, so it is asserted.
    """
    other = replay(state.game, history)
    assert isinstance(other, type(state))
    if seat is not None:
        assert other.observation(seat).to_dict() == state.observation(seat).to_dict()
    return other


def state_from_json(text: str) -> State:
    """Rebuild a state from `State.to_json()` output by replaying its history.

    Raises:
        StateFormatError: not the JSON that `to_json` writes.
        IllegalActionError: the history contains an illegal action.
    """
    try:
        data = json.loads(text)
        game_text, history = data["game"], data["history"]
    except (ValueError, TypeError, KeyError):
        raise StateFormatError(
            f"cannot read state {text[:80]!r}; expected JSON with 'game' and 'history'"
        ) from None
    if not isinstance(game_text, str) or not isinstance(history, list):
        raise StateFormatError(f"cannot read state {text[:80]!r}; bad 'game' or 'history'")
    game = load_game(game_text)
    return replay(game, (game.parse_action(str(a)) for a in history))
