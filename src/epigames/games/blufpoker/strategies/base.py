"""The shared frame of Blufpoker strategies: one method per decision, the fixed poker phase."""

from __future__ import annotations

import abc

from epigames.games.blufpoker.actions import BIDS, KEEPS, ROLL_DICE, STOP
from epigames.games.blufpoker.dice import RANKS, ROLLS, Dice, Roll, dice_text
from epigames.games.blufpoker.tables import poker_keep
from epigames.games.blufpoker.views import BlufpokerView
from epigames.games.core import View
from epigames.games.strategy import Decision, Strategy, Thought

_CHASE = "Poker phase: I keep {} (to chase {})."
_SHORT = "Poker phase: I keep {} (nothing reaches {})."


class BlufpokerStrategy(Strategy):
    """A Blufpoker player: `decide` (call or believe), `roll`, `bid`; the poker phase is fixed.

    Every player follows the same poker-phase procedure (`tables.poker_keep`), as in the
    report; subclasses implement the three decisions of a normal turn.
    """

    def choose(self, view: View) -> Decision:
        """Dispatch on the phase of the game."""
        assert isinstance(view, BlufpokerView)
        phase = view.phase
        if phase == "decide":
            return self.decide(view)
        if phase == "roll":
            return self.roll(view)
        if phase == "bid":
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
        target = view.poker_target
        assert target is not None
        kept = poker_keep(view.poker_dice, target.high)
        why = _CHASE if kept else _SHORT
        return Decision(KEEPS[kept], Thought(why, args=(dice_text(kept), target)))


def above(rank: int, steps: int) -> Roll:
    """The roll `steps` ranks above `rank`, or 666 if that is past the top."""
    return ROLLS[min(rank + steps, RANKS - 1)]


def roll(dice: Dice, why: str, *args: object) -> Decision:
    """A `RollDice` decision with its reason (a template over `args`: see `Thought`)."""
    return Decision(ROLL_DICE[dice], Thought(why, args=args))


def stop(why: str, *args: object) -> Decision:
    """A `Stop` decision with its reason (a template over `args`: see `Thought`)."""
    return Decision(STOP, Thought(why, args=args))


def bid(roll: Roll, why: str, *args: object) -> Decision:
    """A `Bid` decision with its reason (a template over `args`: see `Thought`)."""
    return Decision(BIDS[roll.rank], Thought(why, args=args))
