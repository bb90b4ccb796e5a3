"""The Kwartet rules and game parameters (the state is in `state.py`, seat views in `views.py`).

A deck of `kinds` quartets (4 cards each) is dealt card by card, clockwise from South,
as chance nodes. On its turn a player asks an opponent who still has cards for a card of
a kind the player holds (not one it holds itself when `ask_own` is false). If the opponent
has it, the card moves and the player asks again; if not, the turn passes clockwise to the
next player with cards. A completed kind is laid down at once for a point; a player
without cards stops playing (and passes the turn if it was asking). The game ends when
every kind is down; a seat's return is its number of points.

Some strategy mixes never finish (two players who only ask each other for cards they
hold themselves), so a game also ends after `max_moves` asks: the kinds still in play
then score for nobody, and the points laid down so far decide (equal points tie).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from epigames.cards import CardLayout
from epigames.games import core
from epigames.games.kwartet import observation
from epigames.games.kwartet.cards import (
    CARDS,
    MAX_KINDS,
    MAX_PLAYERS,
    MEMBERS,
    SEAT_NAMES,
    Ask,
    Card,
)
from epigames.games.kwartet.events import EVENTS
from epigames.games.kwartet.knowledge import layout_for
from epigames.games.kwartet.state import KwartetState as KwartetState
from epigames.games.observation import Part
from epigames.games.params import Param


@core.register_game
@dataclass(frozen=True)
class KwartetGame(core.Game):
    """Kwartet: collect complete kinds (quartets) by asking opponents for cards."""

    name: ClassVar[str] = "kwartet"
    event_types: ClassVar[tuple[type[core.Event], ...]] = EVENTS
    # Five kinds: a whole game of 20 to 35 asks.
    showcase: ClassVar[str] = "kwartet(players=4,kinds=5)"
    showcase_agents: ClassVar[tuple[str, ...]] = ("expert",)
    params: ClassVar[tuple[Param, ...]] = (
        Param("players", int, 4, min=3, max=MAX_PLAYERS, help="number of seats"),
        Param("kinds", int, 13, min=2, max=MAX_KINDS, help="kinds (quartets) in the deck"),
        Param("ask_own", bool, True, help="may a player ask for a card it holds itself"),
        Param(
            "max_moves",
            int,
            5000,
            min=1,
            max=100_000,
            help="asks after which the game stops; kinds still in play score for nobody",
        ),
    )
    players: int = 4
    kinds: int = 13
    ask_own: bool = True
    # Random players need about 550 asks with 4 seats and 1,400 at most seen with 6, so
    # the default stops only games that would not end otherwise.
    max_moves: int = 5000

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Compass names, clockwise from South."""
        return SEAT_NAMES[self.players]

    @property
    def card_layout(self) -> CardLayout:
        """The kinds' cards in the seats' hands (laid-down kinds leave the game)."""
        return layout_for(self.kinds, self.seat_names)

    @property
    def returns_range(self) -> tuple[float, float]:
        """From no point to every kind."""
        return (0, self.kinds)

    @property
    def max_game_length(self) -> int:
        """Asks are the only decisions, and the game stops after `max_moves` of them."""
        return self.max_moves

    @property
    def deck(self) -> tuple[Card, ...]:
        """Every card of this game, in deck order."""
        return CARDS[: self.kinds * MEMBERS]

    def public_parts(self) -> tuple[Part, ...]:
        """The seat to move, hand sizes, points and the kinds laid down (`observation`)."""
        return observation.public_parts(self)

    def distinct_actions(self) -> list[Ask]:
        """An ask of every seat for every card (the rules allow some of them at a time)."""
        return [Ask(target, card) for target in range(self.players) for card in self.deck]

    def distinct_chance_outcomes(self) -> tuple[Card, ...]:
        """The card dealt next."""
        return self.deck

    def new_initial_state(self) -> KwartetState:
        """The state before the deal."""
        return KwartetState(self)

    def parse_action(self, text: str) -> Ask | Card:
        """Read an ask (`ask West 8.4`) or a dealt card (`⟨8,4⟩`, a chance outcome)."""
        if text.strip().lower().startswith("ask"):
            return Ask.parse(text, self.seat_names)
        return Card.parse(text)
