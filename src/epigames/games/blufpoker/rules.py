"""The Blufpoker rules: the game and its parameters (states in `state.py`, views in `views.py`).

A round starts with its first player rolling all three dice under the cup and bidding
what it rolled (the rules make an opening bid true). The next player either calls (the cup
is lifted: a roll lower than the bid penalises the bidder, otherwise the caller) or
believes: it takes the cup, looks, rolls dice under it (at least one; each die at most
once a turn; it may stop after any roll), then bids strictly higher, truthfully or not.
The dice it did not roll go outside the cup for all to see. A believed poker bid starts
the poker phase instead: up to three open rolls, keeping dice between them, until a poker
at least as high appears: higher penalises the bidder, equal nobody, none the believer.
The penalised player starts the next round (after an equalled poker, the believer does);
the first to reach `penalties` penalties loses and every other seat wins.

Every round ends: bids strictly rise through 56 ranks, a turn rolls at most three dice,
and the poker phase at most three times. Only an equalled poker ends a round without a
penalty, so a game ends with probability 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from epigames.games.blufpoker import observation
from epigames.games.blufpoker.actions import (
    BELIEVE,
    BID,
    BIDS,
    CALL,
    DECIDE,
    OPEN,
    PHASES,
    POKER_KEEP,
    POKER_THROW,
    ROLL,
    STOP,
    THROW,
    Action,
    Keep,
    RollDice,
    Throw,
    parse_action,
)
from epigames.games.blufpoker.dice import DICE, FIRST_POKER, multisets
from epigames.games.blufpoker.events import EVENTS
from epigames.games.blufpoker.state import BlufpokerState
from epigames.games.blufpoker.tables import POKER_ROLLS
from epigames.games.core import Game, register_game
from epigames.games.events import Event
from epigames.games.observation import Axis, Part
from epigames.games.params import Param

if TYPE_CHECKING:
    from epigames.games.ask import Asking

#: Display names of the seats (short, distinct, no digits: `--seat Bob`).
SEAT_NAMES = ("Ann", "Bob", "Cas", "Dee", "Eli", "Fay")


@register_game
@dataclass(frozen=True)
class BlufpokerGame(Game):
    """Blufpoker: bluff about three dice under a cup; the first to collect the penalties loses."""

    name: ClassVar[str] = "blufpoker"
    event_types: ClassVar[tuple[type[Event], ...]] = EVENTS
    # Two penalties: a first game of 20 to 110 moves.
    showcase: ClassVar[str] = "blufpoker(players=3,penalties=2)"
    showcase_agents: ClassVar[tuple[str, ...]] = ("bayes",)
    params: ClassVar[tuple[Param, ...]] = (
        Param("players", int, 3, min=2, max=len(SEAT_NAMES), help="number of seats"),
        Param("penalties", int, 5, min=1, max=26, help="penalties that lose the game"),
    )
    players: int = 3
    penalties: int = 5

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Ann, Bob, Cas, … in seat order (play passes to the next seat)."""
        return SEAT_NAMES[: self.players]

    @property
    def returns_range(self) -> tuple[float, float]:
        """-1 for the loser, 0 for every winner (and for everyone before the end)."""
        return (-1.0, 0.0)

    @property
    def max_game_length(self) -> int:
        """No rule bounds a game; this bound is exceeded with probability below 1e-12.

        A round takes at most `DICE + 2` decisions (believe, roll each die, bid) for each
        of the `FIRST_POKER` bids it can rise through below a poker, then a call, or a
        belief and the keeps of the poker phase. At most `players * (penalties - 1) + 1`
        rounds give a penalty. A round ending in an equalled poker gives none, and such
        rounds may follow each other without end, but each happens with probability at
        most q = (1 - (5/6) ** POKER_ROLLS) ** DICE (each die shows the bid's face within
        the throws, whatever is kept). With p penalised rounds at most, more than e
        equalled ones means e + 1 among the first p + e rounds: probability at most
        C(p + e, e + 1) q ** (e + 1), whatever the players do. The bound allows the
        smallest e that makes that below 1e-12.
        """
        per_round = FIRST_POKER * (DICE + 2) + POKER_ROLLS
        penalised = self.players * (self.penalties - 1) + 1
        q = (1 - (5 / 6) ** POKER_ROLLS) ** DICE
        equalled, tail = 0, penalised * q
        while tail >= 1e-12:
            equalled += 1
            # C(p + e, e + 1) q^(e + 1) from its value for e - 1.
            tail *= (penalised + equalled) / (equalled + 1) * q
        return per_round * (penalised + equalled)

    @property
    def asking(self) -> Asking:
        """Formulas about the roll under the cup (`asking`: atoms ``cup_653``, ``atleast_653``)."""
        from epigames.games.blufpoker.asking import DICE  # it imports these rules

        return DICE

    @property
    def private_axis(self) -> Axis:
        """The 56 rolls, lowest first: a seat's private item is the roll it saw under the cup."""
        return observation.ROLL_AXIS

    @property
    def knowledge_axes(self) -> tuple[Axis, Axis]:
        """One subject, the cup, and its 56 rolls (lowest first)."""
        return observation.CUP_AXIS, observation.ROLL_AXIS

    def public_parts(self) -> tuple[Part, ...]:
        """The phase, the bids, the dice outside and open, the penalties (`observation`)."""
        return observation.public_parts(self)

    def new_initial_state(self) -> BlufpokerState:
        """The state before the first roll (a chance node)."""
        return BlufpokerState(self)

    def distinct_actions(self) -> list[Action]:
        """Call, believe, stop, rolling each multiset of dice, each bid, and keeping each
        multiset of fewer than three dice (poker phase)."""
        rolls = [RollDice(dice) for size in range(1, DICE + 1) for dice in multisets(size)]
        keeps = [Keep(dice) for size in range(DICE) for dice in multisets(size)]
        return [CALL, BELIEVE, STOP, *rolls, *BIDS, *keeps]

    def distinct_chance_outcomes(self) -> list[Throw]:
        """The faces of each multiset of rolled dice."""
        return [Throw(dice) for size in range(1, DICE + 1) for dice in multisets(size)]

    def parse_action(self, text: str) -> Action | Throw:
        """Read an action (`call`, `bid 654`, …) or a chance outcome (`throw 6 4`)."""
        return parse_action(text)


__all__ = [
    "BID",
    "BIDS",
    "DECIDE",
    "OPEN",
    "PHASES",
    "POKER_KEEP",
    "POKER_THROW",
    "ROLL",
    "SEAT_NAMES",
    "THROW",
    "BlufpokerGame",
    "BlufpokerState",
]
