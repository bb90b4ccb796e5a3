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

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
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
from epigames.logic import Formula, KripkeModel
from epigames.logic.picture import KripkePicture

if TYPE_CHECKING:
    from epigames.games.blufpoker.records import Board
    from epigames.games.blufpoker.rules import BlufpokerState
    from epigames.games.blufpoker.views import BlufpokerView

_ALL_RANKS = tuple(range(RANKS))


class UndefinedBeliefError(EpigamesError):
    """A probability asked for while the cup is being rolled (none is defined yet)."""


@dataclass(frozen=True, slots=True)
class CupKnowledge:
    """What one seat knows (possible worlds) and believes (probabilities) about the cup.

    The `Knowledge` of Blufpoker: its one subject is `"cup"`, whose value is the roll.

    Attributes:
        seat: whose knowledge, or -1 for a spectator's public knowledge.
        visible: the dice outside the cup (public).
        known: the roll, when this seat knows it (it saw the cup, or the roll is public).
        rolling: whether the holder is mid-turn (then unknown dice may have changed).
        claim: the bid on the table: a claim, not knowledge.
        view: the seat's view it was derived from (for its picture); None for public
            knowledge built from a board.
    """

    seat: int
    visible: Dice
    known: Roll | None
    rolling: bool
    claim: Roll | None
    view: BlufpokerView | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_view(cls, view: BlufpokerView) -> CupKnowledge:
        """The knowledge of a view's seat, derived from its observations only."""
        board = view.board
        # What the board shows (a lifted cup, open poker dice) is newer than a private look.
        known = board.known if board.known is not None else view.cup
        bid = ROLLS[board.bid] if board.bid >= 0 else None
        return cls(view.seat, board.visible, known, board.rolling, bid, view)

    # --- knowledge -------------------------------------------------------------------

    def world_ranks(self) -> tuple[int, ...]:
        """The ranks of the worlds this seat considers possible, lowest first."""
        if self.known is not None:
            return (self.known.rank,)
        return _ALL_RANKS if self.rolling else CONSISTENT[self.visible]

    def worlds(self) -> tuple[Roll, ...]:
        """The worlds (rolls) this seat considers possible, lowest first."""
        return tuple(ROLLS[r] for r in self.world_ranks())

    def worlds_count(self) -> int:
        """How many rolls this seat considers possible."""
        return len(self.world_ranks())

    def considers_possible(self, roll: Roll) -> bool:
        """Whether the cup may hold exactly `roll`, for all this seat knows."""
        return roll.rank in self.world_ranks()

    def knows_at_least(self, roll: Roll) -> bool:
        """Whether this seat knows the cup holds `roll` or higher (a bid of it is true)."""
        return min(self.world_ranks()) >= roll.rank

    def knows_below(self, roll: Roll) -> bool:
        """Whether this seat knows the cup holds less than `roll` (a bid of it is a bluff)."""
        return max(self.world_ranks()) < roll.rank

    def holder(self, subject: str) -> Roll | None:
        """The roll under the cup if this seat knows it (the subject must be `cup`)."""
        _check_subject(subject)
        return self.known

    def possible_holders(self, subject: str) -> frozenset[Roll]:
        """The rolls the cup may hold, for all this seat knows."""
        _check_subject(subject)
        return frozenset(self.worlds())

    def known_values(self) -> dict[str, str]:
        """`{"cup": roll}` when this seat knows the roll, else nothing."""
        return {} if self.known is None else {"cup": str(self.known)}

    def knows(self, formula: Formula) -> bool:
        """Whether the formula holds at every roll this seat considers possible.

        Atoms are those of the cup's picture (`cup_653`, `atleast_653`); formulas about
        the other seats' knowledge are read in the seat's picture.
        """
        model = self.picture("cup").model
        truth = model.truth_set(formula)
        index = {w: i for i, w in enumerate(model.worlds)}
        return all(truth[index[str(ROLLS[r])]] for r in self.world_ranks())

    # --- belief ----------------------------------------------------------------------

    def _check_defined(self) -> None:
        if self.rolling and self.known is None:
            raise UndefinedBeliefError(
                "the cup is being rolled: probabilities are defined once the holder stops"
            )

    def p_world(self, roll: Roll) -> float:
        """P(cup = roll), exact up to float rounding (`probability` gives the fraction).

        Raises:
            UndefinedBeliefError: the holder is still rolling.
        """
        self._check_defined()
        if self.known is not None:
            return 1.0 if roll == self.known else 0.0
        return P_WORLD[self.visible][roll.rank]

    def probability(self, subject: str, roll: Roll) -> Fraction:
        """P(cup = roll) as a fraction.

        Raises:
            UndefinedBeliefError: the holder is still rolling.
        """
        _check_subject(subject)
        self._check_defined()
        if self.known is not None:
            return Fraction(int(roll == self.known))
        return exact_world(self.visible, roll.rank)

    def sample_world(self, rng: random.Random) -> Roll:
        """A roll drawn from this seat's belief (`p_world`).

        Raises:
            UndefinedBeliefError: the holder is still rolling.
        """
        ranks = self.world_ranks()
        weights = [self.p_world(ROLLS[r]) for r in ranks]
        return ROLLS[rng.choices(ranks, weights)[0]]

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

    # --- the picture -----------------------------------------------------------------

    def picture(self, subject: str) -> KripkePicture:
        """The cup's S5 model from this seat's view alone (see `cup_picture`).

        Raises:
            InputError: the subject is not `cup`, no die has been rolled yet, or this is
                public knowledge without a view.
        """
        view = self.view
        if view is None:
            raise InputError("public cup knowledge has no seat to draw the picture for")
        board = view.board
        if subject != "cup" or not board.round:
            choices = "cup" if board.round else "none yet"
            raise InputError(f"no picture {subject!r} in blufpoker; subjects: {choices}")
        knowers = cup_knowers([e for e in view.log if e.public])
        names = view.game.seat_names

        # Another knower saw the same cup: shown to a knower, hidden from anyone else.
        hidden = frozenset() if self.known is not None or board.known is not None else knowers
        knowns = [
            self.known if s == self.seat or s in knowers else board.known for s in range(len(names))
        ]
        return _picture(board, names, knowers, self.known, knowns, hidden - {self.seat}, self.seat)


def _check_subject(subject: str) -> None:
    if subject != "cup":
        raise InputError(f"no subject {subject!r} in blufpoker; the one subject is 'cup'")


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
    """The cup's S5 model from a seat's view (`seat`: `CupKnowledge.picture`) or a spectator's.

    Worlds are the rolls consistent with the public record (visible dice, or the public
    roll). The seats that know the roll (`cup_knowers`, a public fact) tell every world
    apart, every other seat none. A seat's picture is built from its own view alone: the
    true world is marked only when the seat knows it, and the probabilities of seats that
    know the roll are shown only to a seat that knows it too (they put 1 on the true
    world); a spectator sees everything.

    Raises:
        InputError: the subject is not `cup`, or no die has been rolled yet.
    """
    if seat is not None:
        return state.observation(seat).knowledge.picture(subject)
    if subject != "cup" or not state.picture_subjects():
        choices = ", ".join(state.picture_subjects()) or "none yet"
        raise InputError(f"no picture {subject!r} in blufpoker; subjects: {choices}")
    names = state.game.seat_names
    views = [state.observation(s) for s in range(len(names))]
    board = views[0].board
    knowers = cup_knowers([e for e in views[0].log if e.public])
    truth = board.known if board.known is not None else state.cup
    knowns = [view.knowledge.known for view in views]
    return _picture(board, names, knowers, truth, knowns, frozenset(), None)


def _picture(
    board: Board,
    names: Sequence[str],
    knowers: frozenset[int],
    truth: Roll | None,
    knowns: Sequence[Roll | None],
    hidden: frozenset[int],
    seat: int | None,
) -> KripkePicture:
    """The cup's model; `knowns[s]`: seat s's roll if it knows it; `hidden`: beliefs not shown."""
    public = CupKnowledge(-1, board.visible, board.known, board.rolling, None)
    ranks = public.world_ranks()
    worlds = [str(ROLLS[r]) for r in ranks]
    partitions: dict[str, list[list[str]]] = {}
    for s, name in enumerate(names):
        if board.known is not None or s in knowers:
            partitions[name] = [[w] for w in worlds]
        else:
            partitions[name] = [list(worlds)]
    true_world = str(truth) if truth is not None and truth.rank in ranks else None
    model = KripkeModel.build(
        worlds,
        {str(ROLLS[r]): world_atoms(ROLLS[r]) for r in ranks},
        partitions=partitions,
        designated=[true_world] if true_world is not None else [],
    )
    probabilities: dict[str, dict[str, float]] = {}
    for s, name in enumerate(names):
        if s in hidden or (knowns[s] is None and board.rolling):
            continue  # hidden from this perspective, or no belief while the cup is rolled
        knowledge = CupKnowledge(s, board.visible, knowns[s], board.rolling, None)
        probabilities[name] = {str(ROLLS[r]): knowledge.p_world(ROLLS[r]) for r in ranks}
    return KripkePicture("cup", model, true_world, probabilities, seat)
