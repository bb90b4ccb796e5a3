"""Blufpoker's observation as named arrays: its private items and knowledge axes (the
rolls, the cup) and its public state (`Game.public_parts`, `View.write_public`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from epigames.games.blufpoker.actions import PHASES
from epigames.games.blufpoker.dice import DICE, FACES, ROLLS, Dice, Roll
from epigames.games.blufpoker.tables import POKER_ROLLS
from epigames.games.core import Game, View
from epigames.games.observation import Arrays, Axis, Part

if TYPE_CHECKING:
    from epigames.games.blufpoker.rules import BlufpokerGame
    from epigames.games.blufpoker.views import BlufpokerView

#: The 56 rolls, lowest first (a roll's position is its rank).
ROLL_AXIS = Axis("roll", ROLLS)
#: The one subject of Blufpoker's knowledge.
CUP_AXIS = Axis("subject", ("cup",))
_PHASES = Axis("phase", PHASES)
_DICE = Axis.counting("die", DICE)
_FACES = Axis("face", FACES)


def public_parts(game: BlufpokerGame) -> tuple[Part, ...]:
    """The phase, the bid to beat, the dice outside and open, penalties, the poker chased."""
    seats = Axis.seats(game.seat_names)
    return (
        *Game.public_parts(game),
        Part("phase", (_PHASES,), "1 for the phase of the game"),
        Part("bid", (ROLL_AXIS,), "1 for the bid to beat (none before the first)"),
        Part("bidder", (seats,), "1 for the seat that made it"),
        Part("over", (ROLL_AXIS,), "1 for the bid it beat (none for an opening bid)"),
        Part("opening", (), "1 while the bid is the round's opening bid (true by rule)"),
        Part("visible", (_DICE, _FACES), "the dice outside the cup, high to low: 1 at each face"),
        Part("rolling", (), "1 while the holder has rolled since the last bid"),
        Part("known", (ROLL_AXIS,), "1 for the cup's roll when it is public"),
        Part("penalties", (seats,), "each seat's penalties", high=game.penalties),
        Part("poker_target", (ROLL_AXIS,), "1 for the poker chased in the poker phase"),
        Part("poker_dice", (_DICE, _FACES), "the open dice of the poker phase: 1 at each face"),
        Part("poker_rolls", (), "open rolls made in the poker phase", high=POKER_ROLLS),
    )


def write_public(view: BlufpokerView, arrays: Arrays) -> None:
    """Fill the parts of `public_parts` from the view."""
    View.write_public(view, arrays)
    board = view.board
    arrays["phase"][_PHASES.index(view.phase)] = 1.0
    _roll(view.bid, arrays["bid"])
    if view.bidder >= 0:
        arrays["bidder"][view.bidder] = 1.0
    _roll(view.over, arrays["over"])
    arrays["opening"][...] = board.opening
    _dice(view.visible, arrays["visible"])
    arrays["rolling"][...] = board.rolling
    _roll(board.known, arrays["known"])
    arrays["penalties"][:] = view.penalties
    _roll(view.poker_target, arrays["poker_target"])
    _dice(view.poker_dice, arrays["poker_dice"])
    arrays["poker_rolls"][...] = board.poker_rolls


def _roll(roll: Roll | None, array: npt.NDArray[np.float32]) -> None:
    if roll is not None:
        array[roll.rank] = 1.0


def _dice(dice: Dice, array: npt.NDArray[np.float32]) -> None:
    for position, face in enumerate(dice):
        array[position, face - 1] = 1.0
