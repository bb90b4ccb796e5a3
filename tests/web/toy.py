"""A tiny game with Kripke pictures, registered only for the web tests.

`webtoy(players=3)`: one card (`A`, `B`, …) is dealt to each seat, privately. Then each
seat in turn either shows its card (public) or passes. Seats that pass score 1. The
picture of a card has one world per seat that may hold it; the passer's thought names its
hidden card, so the web app must keep that thought from the other seats.
"""

from __future__ import annotations

import string
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from epigames.cards import Holds
from epigames.errors import InputError
from epigames.games import (
    CHANCE,
    TERMINAL,
    Decision,
    Fact,
    Game,
    Param,
    PrivateObservation,
    PublicAnnouncement,
    State,
    Strategy,
    View,
    illegal_action,
    register_game,
    register_strategy,
    registered_games,
)
from epigames.games.picture import HasPictures, KripkePicture
from epigames.games.strategy import Thought
from epigames.logic import KripkeModel

NAME = "webtoy"


@dataclass(frozen=True, slots=True)
class Dealt(PrivateObservation):
    kind: ClassVar[str] = "dealt"
    card: str

    @property
    def text(self) -> str:
        return f"{self.name_of(self.seat)} gets card {self.card}."


@dataclass(frozen=True, slots=True)
class Shown(PublicAnnouncement):
    kind: ClassVar[str] = "shown"
    seat: int
    card: str

    @property
    def text(self) -> str:
        return f"{self.name_of(self.seat)} shows card {self.card}."

    @property
    def facts(self) -> tuple[Fact, ...]:
        return (Holds(self.seat, self.card),)


@dataclass(frozen=True, slots=True)
class Passed(PublicAnnouncement):
    kind: ClassVar[str] = "passed"
    seat: int

    @property
    def text(self) -> str:
        return f"{self.name_of(self.seat)} passes."


@dataclass(frozen=True)
class ToyGame(Game):
    """Show or hide your card."""

    name: ClassVar[str] = NAME
    default_strategy: ClassVar[str] = "passer"
    params: ClassVar[tuple[Param, ...]] = (Param("players", int, 3, min=2, max=5),)
    players: int = 3

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def seat_names(self) -> tuple[str, ...]:
        return ("Ann", "Bob", "Cy", "Di", "Ed")[: self.players]

    @property
    def returns_range(self) -> tuple[float, float]:
        return (0, 1)

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(string.ascii_uppercase[: self.players])

    def new_initial_state(self) -> ToyState:
        return ToyState(self)

    def parse_action(self, text: str) -> Hashable:
        word = text.strip()
        if word in ("show", "pass") or word in self.cards:
            return word
        raise InputError(f"cannot read action {text!r}; expected show or pass")


# Registered once, even if pytest imports this module under two names.
if NAME not in registered_games():
    register_game(ToyGame)


class ToyView(View):
    def __init__(self, state: ToyState, seat: int) -> None:
        super().__init__(
            state.game, seat, state.current_player, state.seen[seat], len(state.seen[seat])
        )
        self.hand = [state.hands[seat]] if seat < len(state.hands) else []
        self.shown = dict(state.shown)
        self._legal = state.legal_actions() if state.current_player == seat else []

    @property
    def legal_actions(self) -> Sequence[Hashable]:
        return self._legal

    def private_items(self) -> frozenset[Hashable]:
        return frozenset(self.hand)

    def _extra_dict(self) -> dict[str, Any]:
        return {"hand": list(self.hand), "shown": {str(k): v for k, v in self.shown.items()}}


class ToyState(State, HasPictures):
    def __init__(self, game: ToyGame) -> None:
        self.game: ToyGame = game
        self.hands: list[str] = []
        self.shown: dict[int, str] = {}
        self.acted = 0
        self._events: list[Any] = []
        self._history: list[Hashable] = []
        self.seen: list[list[Any]] = [[] for _ in range(game.players)]

    @property
    def current_player(self) -> int:
        if len(self.hands) < self.game.players:
            return CHANCE
        return TERMINAL if self.acted == self.game.players else self.acted

    def legal_actions(self) -> list[Hashable]:
        return ["show", "pass"] if self.current_player >= 0 else []

    def chance_outcomes(self) -> list[tuple[Hashable, float]]:
        if self.current_player != CHANCE:
            return []
        left = [c for c in self.game.cards if c not in self.hands]
        return [(c, 1 / len(left)) for c in left]

    def _publish(self, event: Any) -> None:
        self._events.append(event)
        for s in range(self.game.players):
            if event.visible_to(s):
                self.seen[s].append(event)

    def apply(self, action: Hashable) -> None:
        names = self.game.seat_names
        if self.current_player == CHANCE and action in dict(self.chance_outcomes()):
            seat = len(self.hands)
            self.hands.append(str(action))
            self._publish(Dealt(seat, str(action), names=names))
        elif self.current_player >= 0 and action in ("show", "pass"):
            seat = self.current_player
            if action == "show":
                self.shown[seat] = self.hands[seat]
                self._publish(Shown(seat, self.hands[seat], names=names))
            else:
                self._publish(Passed(seat, names=names))
            self.acted += 1
        else:
            raise illegal_action(self, action)
        self._history.append(action)

    def returns(self) -> tuple[float, ...]:
        return tuple(0.0 if s in self.shown else 1.0 for s in range(self.game.players))

    def clone(self) -> ToyState:
        other = ToyState(self.game)
        other.hands, other.shown, other.acted = list(self.hands), dict(self.shown), self.acted
        other._events, other._history = list(self._events), list(self._history)
        other.seen = [list(s) for s in self.seen]
        return other

    def observation(self, seat: int) -> ToyView:
        return ToyView(self, seat)

    @property
    def events(self) -> list[Any]:
        return self._events

    @property
    def history(self) -> list[Hashable]:
        return self._history

    # --- pictures: one world per seat that may hold the card -----------------------

    def picture_subjects(self) -> list[str]:
        return [] if len(self.hands) < self.game.players else list(self.game.cards)

    def _possible(self, card: str, seat: int | None) -> list[int]:
        """Holders consistent with the public log, and with `seat`'s own card."""
        shown = {c: s for s, c in self.shown.items()}
        if card in shown:
            return [shown[card]]
        if seat is not None and self.hands[seat] == card:
            return [seat]
        worlds = [s for s in range(self.game.players) if s not in self.shown]
        return [s for s in worlds if s != seat]

    def picture(self, subject: str, seat: int | None = None) -> KripkePicture:
        if subject not in self.picture_subjects():
            raise InputError(f"no subject {subject!r}; choose one of: {', '.join(self.game.cards)}")
        names = self.game.seat_names
        worlds = self._possible(subject, seat)
        truth = self.hands.index(subject)
        true_world = names[truth] if seat is None or len(worlds) == 1 else None
        partitions = {}
        for a in range(self.game.players):
            own = [names[w] for w in worlds if w == a]
            rest = [names[w] for w in worlds if w != a]
            partitions[names[a]] = [b for b in (own, rest) if b]
        model = KripkeModel.build(
            [names[w] for w in worlds],
            {names[w]: [f"holds({names[w]},{subject})"] for w in worlds},
            partitions=partitions,
            # A seat that cannot tell the holder considers every world here possible.
            designated=[true_world] if true_world else [names[w] for w in worlds],
        )
        probabilities: dict[str, dict[str, float]] = {}
        viewers = range(self.game.players) if seat is None else [seat]
        for a in viewers:
            if seat is None:
                block = [names[truth]] if truth == a else [names[w] for w in worlds if w != a]
            else:
                block = [names[w] for w in worlds]
            probabilities[names[a]] = {w: 1 / len(block) for w in block}
        return KripkePicture(subject, model, true_world, probabilities, seat)


if "shower" not in __import__("epigames.games", fromlist=["strategies_for"]).strategies_for(NAME):

    @register_strategy(NAME, "shower")
    class Shower(Strategy):
        """Shows its card to everyone."""

        name = "shower"

        def choose(self, view: View) -> Decision:
            assert isinstance(view, ToyView)
            card = view.hand[0]
            return Decision("show", Thought(f"I show my {card}."))

    @register_strategy(NAME, "passer")
    class Passer(Strategy):
        """Keeps its card to itself."""

        name = "passer"

        def choose(self, view: View) -> Decision:
            assert isinstance(view, ToyView)
            card = view.hand[0]
            return Decision("pass", Thought(f"I keep {card} to myself."))
