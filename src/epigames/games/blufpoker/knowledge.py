"""Knowledge and belief about the cup: the report's 56-world Kripke model, done exactly.

The worlds are the 56 rolls. What a seat *knows* is which worlds are possible: the cup
holder knows the world; every other seat considers possible exactly the worlds that
contain the visible dice (a public announcement), or the one world made public (an
opening bid, which the rules make true; a lifted cup; open poker dice). What a seat
*believes* is a probability per world: under fair dice, the hidden dice were all rolled
this turn, so `P(world | visible) = throws of (world - visible) / 6^hidden`. A bid is
neither: it is a claim that may be a bluff, so it changes no world and no probability
here (strategies may weigh it, as `bayes` does, but that is their belief, not knowledge).

While the holder is still rolling, the others know only that the cup is being rolled:
every world is possible and no probability is defined until the holder stops.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from epigames.errors import EpigamesError, InputError
from epigames.games.blufpoker.dice import RANKS, ROLLS, Dice, Roll, dice_text
from epigames.games.blufpoker.events import Believed, DiceRolled, Opened
from epigames.games.blufpoker.tables import (
    CONSISTENT,
    P_AT_LEAST,
    P_WORLD,
    exact_at_least,
    exact_world,
)
from epigames.games.events import Event
from epigames.games.picture import KripkePicture
from epigames.logic import KripkeModel

if TYPE_CHECKING:
    from epigames.games.blufpoker.rules import BlufpokerState, BlufpokerView

_ALL_RANKS = tuple(range(RANKS))


class UndefinedBeliefError(EpigamesError):
    """A probability asked for while the cup is being rolled (none is defined yet)."""


@dataclass(frozen=True, slots=True)
class CupKnowledge:
    """What one seat knows (possible worlds) and believes (probabilities) about the cup.

    Attributes:
        seat: whose knowledge, or -1 for a spectator's public knowledge.
        visible: the dice outside the cup (public).
        known: the roll, when this seat knows it (it saw the cup, or the roll is public).
        rolling: whether the holder is mid-turn (then unknown dice may have changed).
        claim: the bid on the table: a claim, not knowledge.
    """

    seat: int
    visible: Dice
    known: Roll | None
    rolling: bool
    claim: Roll | None

    @classmethod
    def from_view(cls, view: BlufpokerView) -> CupKnowledge:
        """The knowledge of a view's seat, derived from its observations only."""
        board = view.board
        # What the board shows (a lifted cup, open poker dice) is newer than a private look.
        known = board.known if board.known is not None else view.cup
        bid = ROLLS[board.bid] if board.bid >= 0 else None
        return cls(view.seat, board.visible, known, board.rolling, bid)

    # --- knowledge -------------------------------------------------------------------

    def world_ranks(self) -> tuple[int, ...]:
        """The ranks of the worlds this seat considers possible, lowest first."""
        if self.known is not None:
            return (self.known.rank,)
        return _ALL_RANKS if self.rolling else CONSISTENT[self.visible]

    def worlds(self) -> tuple[Roll, ...]:
        """The worlds (rolls) this seat considers possible, lowest first."""
        return tuple(ROLLS[r] for r in self.world_ranks())

    def considers_possible(self, roll: Roll) -> bool:
        """Whether the cup may hold exactly `roll`, for all this seat knows."""
        return roll.rank in self.world_ranks()

    def knows_at_least(self, roll: Roll) -> bool:
        """Whether this seat knows the cup holds `roll` or higher (a bid of it is true)."""
        return min(self.world_ranks()) >= roll.rank

    def knows_below(self, roll: Roll) -> bool:
        """Whether this seat knows the cup holds less than `roll` (a bid of it is a bluff)."""
        return max(self.world_ranks()) < roll.rank

    # --- belief ----------------------------------------------------------------------

    def _check_defined(self) -> None:
        if self.rolling and self.known is None:
            raise UndefinedBeliefError(
                "the cup is being rolled: probabilities are defined once the holder stops"
            )

    def probability(self, roll: Roll) -> float:
        """P(cup = roll), exact up to float rounding (`exact_probability` for fractions).

        Raises:
            UndefinedBeliefError: the holder is still rolling.
        """
        self._check_defined()
        if self.known is not None:
            return 1.0 if roll == self.known else 0.0
        return P_WORLD[self.visible][roll.rank]

    def exact_probability(self, roll: Roll) -> Fraction:
        """P(cup = roll) as a fraction."""
        self._check_defined()
        if self.known is not None:
            return Fraction(int(roll == self.known))
        return exact_world(self.visible, roll.rank)

    def p_at_least(self, roll: Roll) -> float:
        """P(cup ≥ roll): the chance that a bid of `roll` is true."""
        self._check_defined()
        if self.known is not None:
            return 1.0 if self.known >= roll else 0.0
        return P_AT_LEAST[self.visible][roll.rank]

    def exact_at_least(self, roll: Roll) -> Fraction:
        """P(cup ≥ roll) as a fraction."""
        self._check_defined()
        if self.known is not None:
            return Fraction(int(self.known >= roll))
        return exact_at_least(self.visible, roll.rank)

    def describe(self) -> str:
        """One line: what is known and what the claim is worth, e.g. for thoughts."""
        if self.known is not None:
            return f"I know the cup holds {self.known}"
        if self.rolling:
            return "the cup is being rolled"
        worlds = len(self.world_ranks())
        text = f"{dice_text(self.visible)} outside: {worlds} possible worlds"
        if self.claim is not None:
            text += f"; P(cup ≥ {self.claim}) = {self.p_at_least(self.claim):.2f}"
        return text


# --- the Kripke picture ------------------------------------------------------------


def world_atoms(roll: Roll) -> list[str]:
    """Atoms true in a world: `cup_653` (the roll) and `atleast_XYZ` for every roll ≤ it."""
    return [f"cup_{roll}", *(f"atleast_{ROLLS[r]}" for r in range(roll.rank + 1))]


def cup_knowers(log: Sequence[Event]) -> frozenset[int]:
    """The seats that know the cup's current roll, read from public events only.

    Who looks under the cup is public: the opener and every believer of a non-poker bid
    look, and the holder sees what it rolls. Once the holder rolls, the others' looks are
    out of date. So, walking back from the newest public event: every believer since the
    last roll (or opening) knows, and so does the seat that rolled (or opened).
    """
    knowers: set[int] = set()
    for event in reversed(log):
        kind = type(event)
        if kind is Believed:
            assert isinstance(event, Believed)
            if not event.bid.is_poker:
                knowers.add(event.seat)
        elif kind is DiceRolled or kind is Opened:
            assert isinstance(event, DiceRolled | Opened)
            knowers.add(event.seat)
            break
    return frozenset(knowers)


def cup_picture(state: BlufpokerState, subject: str, seat: int | None) -> KripkePicture:
    """The cup's S5 model from a seat's view (`seat`) or a spectator's (`None`).

    Worlds are the rolls consistent with the public record (visible dice, or the public
    roll). The seats that know the roll (`cup_knowers`, a public fact) tell every world
    apart, every other seat none. A seat's picture is built from its own view alone: the
    true world is marked only when the seat knows it, and the probabilities of seats that
    know the roll are shown only to a seat that knows it too (they put 1 on the true
    world); a spectator sees everything.

    Raises:
        InputError: the subject is not `cup`, or no die has been rolled yet.
    """
    if subject != "cup" or not state.picture_subjects():
        choices = ", ".join(state.picture_subjects()) or "none yet"
        raise InputError(f"no picture {subject!r} in blufpoker; subjects: {choices}")
    names = state.game.seat_names
    # Each seat's knowledge comes from its own view: the board is public, a note is the
    # seat's own look. A seat's picture reads another seat's note only through
    # probabilities, and those of a knower only when the picture's seat knows the roll too.
    views = [state.observation(s) for s in range(len(names))]
    knowledges = [view.knowledge for view in views]
    viewer = views[0 if seat is None else seat]
    board = viewer.board
    public = CupKnowledge(-1, board.visible, board.known, board.rolling, None)
    ranks = public.world_ranks()
    worlds = [str(ROLLS[r]) for r in ranks]
    knowers = cup_knowers([e for e in viewer.log if e.public])
    partitions: dict[str, list[list[str]]] = {}
    for s, name in enumerate(names):
        if board.known is not None or s in knowers:
            partitions[name] = [[w] for w in worlds]
        else:
            partitions[name] = [list(worlds)]
    if seat is None:
        truth = board.known if board.known is not None else state.cup
    else:
        truth = knowledges[seat].known
    true_world = str(truth) if truth is not None and truth.rank in ranks else None
    model = KripkeModel.build(
        worlds,
        {str(ROLLS[r]): world_atoms(ROLLS[r]) for r in ranks},
        partitions=partitions,
        designated=[true_world] if true_world is not None else [],
    )
    probabilities: dict[str, dict[str, float]] = {}
    for s, name in enumerate(names):
        knowledge = knowledges[s]
        if board.known is None and s in knowers and true_world is None:
            continue  # what a knower believes would show the roll this perspective lacks
        if knowledge.rolling and knowledge.known is None:
            continue
        probabilities[name] = {str(ROLLS[r]): knowledge.probability(ROLLS[r]) for r in ranks}
    return KripkePicture("cup", model, true_world, probabilities, seat)
