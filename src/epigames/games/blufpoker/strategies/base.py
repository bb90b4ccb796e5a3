"""The shared frame of Blufpoker strategies: one method per decision, the fixed poker phase.

Compiled with mypyc (`epigames.native`) with the `knowledge` and naive strategies: a
strategy is then a native class whose fields are C slots and whose decisions are native
method calls. Interpreted subclasses (`bayes`, and any outside the package) stay allowed.
"""

from __future__ import annotations

import abc
import random
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from epigames.cards.slots import slot_maker
from epigames.games.blufpoker.actions import (
    BID,
    BIDS,
    DECIDE,
    KEEPS,
    ROLL,
    ROLL_DICE,
    STOP,
    Action,
)
from epigames.games.blufpoker.dice import RANKS, ROLLS, Dice, Roll, dice_text
from epigames.games.blufpoker.tables import poker_keep
from epigames.games.blufpoker.views import BlufpokerView
from epigames.games.core import View
from epigames.games.strategy import Decision, Strategy, Thought

_CHASE = "Poker phase: I keep {} (to chase {})."
_SHORT = "Poker phase: I keep {} (nothing reaches {})."


# The phases `choose` tells apart, as final globals: compiled, each is one C static read
# instead of a lookup in the module's dictionary.
_ROLL: Final = ROLL
_DECIDE: Final = DECIDE
_BID: Final = BID


@mypyc_attr(allow_interpreted_subclasses=True)
class BlufpokerStrategy(Strategy):
    """A Blufpoker player: `decide` (call or believe), `roll`, `bid`; the poker phase is fixed.

    Every player follows the same poker-phase procedure (`tables.poker_keep`), as in the
    report; subclasses implement the three decisions of a normal turn. Compiled, it is a
    native class: a strategy registered by name is registered after its class statement
    (a class decorator would make mypyc leave the class to plain Python).
    """

    # Declared here as well as in `Strategy`: compiled, it is then a slot of this class.
    rng: random.Random

    def choose(self, view: View) -> Decision:
        """Dispatch on the phase of the game."""
        if TYPE_CHECKING:  # only ever given a Blufpoker view: not checked per decision
            assert isinstance(view, BlufpokerView)
        phase = view._phase
        if phase == _ROLL:
            return self.roll(view)
        if phase == _DECIDE:
            return self.decide(view)
        if phase == _BID:
            return self.bid(view)
        return self.poker_keep(view)

    @abc.abstractmethod
    def decide(self, view: BlufpokerView) -> Decision:
        """Call or believe the bid on the table."""

    @abc.abstractmethod
    def roll(self, view: BlufpokerView) -> Decision:
        """Roll some of the unrolled dice, or stop (after at least one roll)."""

    @abc.abstractmethod
    def bid(self, view: BlufpokerView) -> Decision:
        """Bid higher than the bid on the table."""

    def poker_keep(self, view: BlufpokerView) -> Decision:
        """The report's fixed procedure: keep a useful pair, else a useful high die."""
        dice = view._poker_dice
        key = (dice, view._target)
        decision = _KEEPS.get(key)
        if decision is None:
            target = ROLLS[view._target]
            kept = poker_keep(dice, target.high)
            why = _CHASE if kept else _SHORT
            decision = _KEEPS[key] = decided(KEEPS[kept], why, dice_text(kept), target)
        return decision


def above(rank: int, steps: int) -> Roll:
    """The roll `steps` ranks above `rank`, or 666 if that is past the top."""
    return ROLLS[min(rank + steps, RANKS - 1)]


def decided(action: Action, why: str, *args: object) -> Decision:
    """A decision with its reason (a template over `args`: see `Thought`)."""
    return _new_decision(Decision, (action, thought(why, (), args)))


def roll(dice: Dice, why: str, *args: object) -> Decision:
    """A `RollDice` decision with its reason (a template over `args`: see `Thought`)."""
    return _new_decision(Decision, (ROLL_DICE[dice], thought(why, (), args)))


def stop(why: str, *args: object) -> Decision:
    """A `Stop` decision with its reason (a template over `args`: see `Thought`)."""
    return _new_decision(Decision, (STOP, thought(why, (), args)))


def bid(roll: Roll, why: str, *args: object) -> Decision:
    """A `Bid` decision with its reason (a template over `args`: see `Thought`)."""
    return _new_decision(Decision, (BIDS[roll.rank], thought(why, (), args)))


# Decisions are immutable values, and most repeat (the same dice, bids and reasons):
# strategies keep them in tables keyed by ints and dice, made on first use. Those made
# every time skip the frozen dataclass's and the named tuple's Python-level constructors.
_new_decision: Final = tuple.__new__
#: `Thought(template, concluded, args)`, made through its slots.
thought: Final = slot_maker(Thought)
#: The poker phase's decisions, by (open dice, rank of the poker chased).
_KEEPS: Final[dict[tuple[Dice, int], Decision]] = {}
