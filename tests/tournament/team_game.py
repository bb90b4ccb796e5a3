"""A tiny partnership game for the team tests; registered only inside them (`registered`).

`teamtoy(teams=2,size=2)`: `teams·size` seats; team `j` holds the seats `j, j+teams,
j+2·teams, …`, so with two teams of two the partners sit opposite, `(0, 2)` and `(1, 3)`,
as in Klaverjas. Chance deals each seat one card, privately, from `1..2·seats`. Then
each seat in turn shows its card (public) or passes. A shown card adds `card - seats` to
its team's score, so showing a low card hurts the team. The teams with the highest score
get 1, the others 0: partners share one return. With `size=1` it is a game without
partners.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from epigames.errors import InputError
from epigames.games import (
    CHANCE,
    TERMINAL,
    Decision,
    Game,
    Param,
    PrivateObservation,
    PublicAnnouncement,
    State,
    Strategy,
    View,
    game_registered,
    illegal_action,
    register_strategy,
)
from epigames.games.strategy import Thought

NAME = "teamtoy"


@dataclass(frozen=True, slots=True)
class Dealt(PrivateObservation):
    kind: ClassVar[str] = "dealt"
    card: int

    @property
    def text(self) -> str:
        return f"{self.name_of(self.seat)} gets card {self.card}."


@dataclass(frozen=True, slots=True)
class Shown(PublicAnnouncement):
    kind: ClassVar[str] = "shown"
    seat: int
    card: int

    @property
    def text(self) -> str:
        return f"{self.name_of(self.seat)} shows card {self.card}."


@dataclass(frozen=True, slots=True)
class Passed(PublicAnnouncement):
    kind: ClassVar[str] = "passed"
    seat: int

    @property
    def text(self) -> str:
        return f"{self.name_of(self.seat)} passes."


@dataclass(frozen=True)
class TeamGame(Game):
    """Show or hide your card, for your team."""

    name: ClassVar[str] = NAME
    params: ClassVar[tuple[Param, ...]] = (
        Param("sides", int, 2, min=2, max=3, help="number of teams"),
        Param("size", int, 2, min=1, max=3, help="seats per team"),
    )
    sides: int = 2
    size: int = 2

    @property
    def num_players(self) -> int:
        return self.sides * self.size

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(range(j, self.num_players, self.sides)) for j in range(self.sides))

    @property
    def returns_range(self) -> tuple[float, float]:
        return (0.0, 1.0)

    @property
    def deck(self) -> tuple[int, ...]:
        return tuple(range(1, 2 * self.num_players + 1))

    def new_initial_state(self) -> TeamState:
        return TeamState(self)

    def parse_action(self, text: str) -> Hashable:
        word = text.strip()
        if word in ("show", "pass"):
            return word
        if word.isdigit() and int(word) in self.deck:
            return int(word)
        raise InputError(f"cannot read action {text!r}; expected show, pass or a card")


class TeamView(View):
    """A seat's card and the public shows, from the events the seat observed."""

    def __init__(self, state: TeamState, seat: int) -> None:
        seen = state.seen[seat]
        super().__init__(state.game, seat, state.current_player, seen, len(seen))
        self.hand = [e.card for e in seen if isinstance(e, Dealt)]
        self.shown = {e.seat: e.card for e in seen if isinstance(e, Shown)}
        self._legal = state.legal_actions() if state.current_player == seat else []

    @property
    def legal_actions(self) -> Sequence[Hashable]:
        return self._legal

    def _extra_dict(self) -> dict[str, Any]:
        return {"hand": list(self.hand), "shown": {str(k): v for k, v in self.shown.items()}}

    def private_items(self) -> frozenset[Hashable]:
        return frozenset(self.hand)


class TeamState(State):
    def __init__(self, game: TeamGame) -> None:
        self.game: TeamGame = game
        self.hands: list[int] = []
        self.shown: dict[int, int] = {}
        self.acted = 0
        self._events: list[Any] = []
        self._history: list[Hashable] = []
        self.seen: list[list[Any]] = [[] for _ in range(game.num_players)]

    @property
    def current_player(self) -> int:
        players = self.game.num_players
        if len(self.hands) < players:
            return CHANCE
        return TERMINAL if self.acted == players else self.acted

    def legal_actions(self) -> list[Hashable]:
        return ["show", "pass"] if self.current_player >= 0 else []

    def chance_outcomes(self) -> list[tuple[Hashable, float]]:
        if self.current_player != CHANCE:
            return []
        left = [c for c in self.game.deck if c not in self.hands]
        return [(c, 1 / len(left)) for c in left]

    def _publish(self, event: Any) -> None:
        self._events.append(event)
        for seat in range(self.game.num_players):
            if event.visible_to(seat):
                self.seen[seat].append(event)

    def apply(self, action: Hashable) -> None:
        names = self.game.seat_names
        player = self.current_player
        if player == CHANCE and action in dict(self.chance_outcomes()):
            assert isinstance(action, int)
            self._publish(Dealt(len(self.hands), action, names=names))
            self.hands.append(action)
        elif player >= 0 and action in ("show", "pass"):
            if action == "show":
                self.shown[player] = self.hands[player]
                self._publish(Shown(player, self.hands[player], names=names))
            else:
                self._publish(Passed(player, names=names))
            self.acted += 1
        else:
            raise illegal_action(self, action)
        self._history.append(action)

    def scores(self) -> list[int]:
        """Each team's score: `card - seats` for every card its members showed."""
        players = self.game.num_players
        return [
            sum(self.shown[seat] - players for seat in team if seat in self.shown)
            for team in self.game.teams
        ]

    def returns(self) -> tuple[float, ...]:
        seats = range(self.game.num_players)
        if not self.is_terminal():
            return tuple(0.0 for _ in seats)
        scores = self.scores()
        best = max(scores)
        return tuple(1.0 if scores[self.game.team_of(s)] == best else 0.0 for s in seats)

    def clone(self) -> TeamState:
        other = TeamState(self.game)
        other.hands, other.shown, other.acted = list(self.hands), dict(self.shown), self.acted
        other._events, other._history = list(self._events), list(self._history)
        other.seen = [list(s) for s in self.seen]
        return other

    def observation(self, seat: int) -> TeamView:
        return TeamView(self, seat)

    @property
    def events(self) -> list[Any]:
        return self._events

    @property
    def history(self) -> list[Hashable]:
        return self._history


@register_strategy(NAME, "random")
class RandomPlayer(Strategy):
    name = "random"

    def choose(self, view: View) -> Decision:
        action = self.rng.choice(list(view.legal_actions))
        return Decision(action, Thought(f"I {action} at random."))


@register_strategy(NAME, "shower")
class Shower(Strategy):
    name = "shower"

    def choose(self, view: View) -> Decision:
        return Decision("show", Thought("I always show my card."))


@register_strategy(NAME, "smart")
class Smart(Strategy):
    """Shows a card only when it adds to the team's score."""

    name = "smart"

    def choose(self, view: View) -> Decision:
        assert isinstance(view, TeamView)
        card = view.hand[0]
        # The card is named: the thought must not tell other seats a hidden card.
        if card > view.game.num_players:
            return Decision("show", Thought(f"My {card} helps my team."))
        return Decision("pass", Thought(f"My {card} would cost my team."))


@contextmanager
def registered() -> Iterator[type[TeamGame]]:
    """The game in the registry for the length of a `with` block (its strategies stay
    registered but unreachable outside it)."""
    with game_registered(TeamGame):
        yield TeamGame
