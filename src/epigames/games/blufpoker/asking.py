"""Formulas about the roll under the cup, answered on the cup's exact Kripke model.

Blufpoker's `Game.asking`: atoms ``cup_653`` (the cup holds 653) and ``atleast_653`` (it
holds 653 or higher), seats by name or number. `ask` and a seat's answer read the model
that the cup's picture draws (`knowledge.cup_truth`), so all three agree.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, cast

from epigames.games.ask import Answer, SeatAnswer, StepError, UnknownAtomError, seat_answer
from epigames.games.blufpoker.dice import Roll, RollError
from epigames.games.blufpoker.knowledge import cup_truth
from epigames.games.core import State
from epigames.logic import formula as fm
from epigames.logic.formula import Formula

if TYPE_CHECKING:
    from epigames.games.blufpoker.rules import BlufpokerState  # the rules import this module

__all__ = ["DICE", "dice_formula"]


def dice_formula(formula: Formula, seats: Sequence[str]) -> Formula:
    """A Blufpoker formula with seats by name (given by number or any case) and atoms checked.

    Raises:
        UnknownAtomError: an atom other than ``cup_XYZ`` or ``atleast_XYZ`` of a roll.
        UnknownAgentError: no such seat.
    """

    def atom(name: str) -> Formula:
        kind, _, roll = name.partition("_")
        if kind not in ("cup", "atleast") or not roll:
            raise UnknownAtomError(
                f"unknown atom {name!r} for blufpoker; its atoms are about the roll under "
                f"the cup: {DiceAsking.atoms}"
            )
        try:
            return fm.Atom(f"{kind}_{Roll.parse(roll)}")
        except RollError as exc:
            raise UnknownAtomError(f"unknown atom {name!r}: {exc}") from None

    return fm.rename(formula, atom, lambda name: fm.named_agent(seats, name))


def _rolled(state: State) -> BlufpokerState:
    """The state (Blufpoker's: its game's `asking` is this one), checked to have a cup."""
    rolled = cast("BlufpokerState", state)
    if not rolled.picture_subjects():
        raise StepError("no die has been rolled yet: there is no cup to ask about")
    return rolled


class DiceAsking:
    """Formulas about the cup, on its exact Kripke model."""

    atoms = "cup_653 (the cup holds 653) and atleast_653 (it holds 653 or higher)"

    def ask(self, state: State, formula: Formula, limit: int | None) -> Answer:
        seats = state.game.seat_names
        f = dice_formula(formula, seats)
        # The model and true world of the spectator's picture, so both give one answer.
        cup, world = cup_truth(_rolled(state))
        value = cup.model.holds(f, world)
        knowers = tuple(s for s, name in enumerate(seats) if cup.model.holds(fm.K(name, f), world))
        return Answer(formula, value, knowers, len(set(cup.ranks)), "rolls")

    def ask_seat(self, state: State, seat: int, formula: Formula, limit: int | None) -> SeatAnswer:
        seats = state.game.seat_names
        knowledge = state.observation(seat).knowledge
        _rolled(state)
        return seat_answer(
            formula, seat, len(seats), lambda g: knowledge.knows(dice_formula(g, seats))
        )

    def read(self, state: State, formula: Formula, own: Collection[str]) -> Formula:
        return dice_formula(formula, state.game.seat_names)


#: Blufpoker's `Asking`.
DICE = DiceAsking()
