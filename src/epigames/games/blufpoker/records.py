"""The public record of a Blufpoker game as one value: `Board`.

A seat's view takes the public record's fields from the state at `observation` and makes
them a board when asked (a snapshot: a board is never changed in place). `Board.absorb`
folds public announcements one at a time: the cup's model uses it to find the record
at the start of a turn from a seat's log.
"""

from __future__ import annotations

from typing import NamedTuple

from epigames.games.blufpoker.dice import Dice, Roll
from epigames.games.blufpoker.events import (
    Believed,
    BidMade,
    Called,
    DiceRolled,
    Opened,
    PokerDone,
    PokerThrow,
    Stopped,
)
from epigames.games.events import Event


class Board(NamedTuple):
    """The public record of a game, as every seat knows it.

    Attributes:
        round: the round number (0 before the first roll).
        bid: the rank of the bid to beat, -1 before the first.
        bidder: who made it, -1 before the first.
        over: the rank of the bid it beat, -1 for an opening bid.
        opening: whether the bid is the round's opening bid (true by rule).
        visible: the dice outside the cup, high to low.
        rolling: whether the cup holder has rolled since the last bid (then which dice
            stay outside is not known yet, and `visible` is empty).
        known: the cup's roll when it is public (an opening bid, a lifted cup, the open
            poker dice), else None.
        penalties: every seat's penalties.
        poker_target: the rank of the poker being chased in the poker phase, else -1.
        poker_dice: the open dice of the poker phase.
        poker_rolls: open rolls made so far in the poker phase.
    """

    round: int
    bid: int
    bidder: int
    over: int
    opening: bool
    visible: Dice
    rolling: bool
    known: Roll | None
    penalties: tuple[int, ...]
    poker_target: int = -1
    poker_dice: Dice = ()
    poker_rolls: int = 0

    @classmethod
    def start(cls, players: int) -> Board:
        """The board before the first roll."""
        return cls(0, -1, -1, -1, False, (), False, None, (0,) * players)

    def absorb(self, event: Event) -> Board:
        """The board after a public event (a new board; this one is unchanged)."""
        # Positional construction, not `_replace`: this runs on every public event.
        kind = type(event)
        r, bid, bidder, over, opening, visible, rolling, known, pen, pt, _, _ = self
        if kind is BidMade:
            assert isinstance(event, BidMade)
            return Board(r, event.roll.rank, event.seat, bid, False, visible, False, None, pen)
        if kind is DiceRolled:
            return Board(r, bid, bidder, over, False, (), True, None, pen)
        if kind is Stopped:
            assert isinstance(event, Stopped)
            return Board(r, bid, bidder, over, False, event.visible, False, None, pen)
        if kind is Opened:
            assert isinstance(event, Opened)
            return Board(
                event.round, event.roll.rank, event.seat, -1, True, (), False, event.roll, pen
            )
        if kind is Believed:
            assert isinstance(event, Believed)
            if event.bid.is_poker:
                return Board(
                    r, bid, bidder, over, opening, visible, rolling, known, pen, bid, (), 0
                )
            return self
        if kind is Called:
            assert isinstance(event, Called)
            pen = self._penalised(event.loser)
            return Board(r, bid, bidder, over, opening, visible, rolling, event.roll, pen)
        if kind is PokerThrow:
            assert isinstance(event, PokerThrow)
            dice = event.dice
            return Board(
                r, bid, bidder, over, False, (), False, Roll.of(dice), pen, pt, dice, event.number
            )
        if kind is PokerDone:
            assert isinstance(event, PokerDone)
            return self._replace(penalties=self._penalised(event.loser))
        return self

    def _penalised(self, loser: int) -> tuple[int, ...]:
        if loser < 0:
            return self.penalties
        return tuple(n + (s == loser) for s, n in enumerate(self.penalties))
