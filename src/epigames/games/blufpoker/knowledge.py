"""Knowledge and belief about the cup: the report's 56-world Kripke model, done exactly.

The worlds are the 56 rolls. What a seat *knows* is which worlds are possible: the cup
holder knows the world; every other seat considers possible exactly the worlds that
contain the visible dice (a public announcement), or the one world made public (an
opening bid, which the rules make true; a lifted cup; open poker dice). What a seat
*believes* is a probability per world: under fair dice, the hidden dice were all rolled
this turn, so `P(world | visible) = throws of (world - visible) / 6^hidden`. A bid is
neither: it is a claim that may be a bluff, so it changes no world and no probability
here (strategies may weigh it, as `bayes` does, but that is their belief, not knowledge).

While the holder is still rolling, the others know how many dice it rolls, not which:
a seat considers possible what rerolling can make of the cup it could tell before the
turn (every roll, if it could tell none), and no probability is defined until the holder
stops. Knowledge, the picture and `games.ask` all read one exact model, `cup_model`.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from epigames.errors import EpigamesError, InputError
from epigames.games.blufpoker.dice import (
    RANK_OF,
    RANKS,
    ROLLS,
    Dice,
    Roll,
    dice_text,
    minus,
    multisets,
    sort_dice,
)
from epigames.games.blufpoker.events import Believed, CupSeen, DiceRolled, Opened
from epigames.games.blufpoker.records import Board
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
from epigames.logic.relations import AnyRelation, Partition

if TYPE_CHECKING:
    from epigames.games.blufpoker.rules import BlufpokerState
    from epigames.games.blufpoker.views import BlufpokerView

_ALL_RANKS = tuple(range(RANKS))
#: Between the roll now and the roll before the turn in a world's name while rolling.
_FROM = "←"


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
        # What the board shows (a lifted cup, open poker dice) is newer than a private look.
        known = view._known if view._known is not None else view.cup
        return cls(view.seat, view._visible, known, view._rolling, view.bid, view)

    # --- knowledge -------------------------------------------------------------------

    def world_ranks(self) -> tuple[int, ...]:
        """The ranks of the worlds this seat considers possible, lowest first.

        While the holder rolls, they are the rolls of the worlds the cup's exact model
        (`cup_model`) leaves this seat: what rerolling can make of the cup the seat could
        tell before the turn. Public knowledge, without a log, allows every roll then.
        """
        if self.known is not None:
            return (self.known.rank,)
        if not self.rolling:
            return CONSISTENT[self.visible]
        view = self.view
        if view is None:
            return _ALL_RANKS
        cup = cup_model(view.board, view.log, view.game.seat_names)
        return tuple(sorted({cup.ranks[w] for w in cup.considered(view.seat, view.log, None)}))

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
        """Whether the formula holds at every world this seat considers possible.

        Atoms are those of the cup's picture (`cup_653`, `atleast_653`), seats are named
        as in the game; formulas about the other seats' knowledge (``K_Bob cup_653``) are
        read in the exact model of the public record (`cup_model`), at the worlds this
        seat's own observations leave open.
        """
        view = self.view
        if view is None:
            raise InputError("public cup knowledge has no seat whose knowledge to ask")
        cup = cup_model(view.board, view.log, view.game.seat_names)
        truth = cup.model.truth_set(formula)
        return bool(truth[list(cup.considered(view.seat, view.log, self.known))].all())

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

    def matrices(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Shape (1, 56) twice, the cup over the rolls lowest first: 1 for each roll this
        seat considers possible, then `p_world` (all zero while the holder rolls unseen)."""
        possible = np.zeros((1, RANKS))
        possible[0, list(self.world_ranks())] = 1.0
        probability = np.zeros((1, RANKS))
        if not (self.rolling and self.known is None):
            if self.known is not None:
                probability[0, self.known.rank] = 1.0
            else:
                probability[0] = P_WORLD[self.visible]
        return possible, probability

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
        """The cup's exact model (`cup_model`) from this seat's view alone (see `cup_picture`).

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
        cup = cup_model(board, view.log, names)
        considered = cup.considered(self.seat, view.log, self.known)
        # Another knower saw the same cup: shown to a knower, hidden from anyone else.
        hidden = frozenset() if self.known is not None or board.known is not None else knowers
        knowns = [
            self.known if s == self.seat or s in knowers else board.known for s in range(len(names))
        ]
        return _picture(cup, board, names, considered, knowns, hidden - {self.seat}, self.seat)


def _check_subject(subject: str) -> None:
    if subject != "cup":
        raise InputError(f"no subject {subject!r} in blufpoker; the one subject is 'cup'")


# --- the Kripke picture ------------------------------------------------------------


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


@dataclass(frozen=True, eq=False)
class CupModel:
    """The cup's exact S5 model of the public record: every seat's knowledge of the roll.

    Once the holder stops rolling, a world is a roll (the picture's worlds: the rolls
    consistent with the dice outside, or the public roll), and the seats that looked at
    the cup (`cup_knowers`) tell every world apart. While the holder rolls, the others
    know how many dice it rolled but not which, so what a seat knows depends on the cup
    before the turn: a world is then ``now←before`` (e.g. ``532←655``), a roll the turn
    started from (the rolls the public record allowed then) and a roll that rerolling
    that many of its dice can give; the roll now comes first, since the atoms are about
    it. The holder tells every world apart; the seats that saw the cup before the turn
    (the last roller and the holder) tell the rolls before apart.

    Attributes:
        model: the model; atoms `cup_653` and `atleast_653` are about the roll now.
        ranks: the rank of the roll now in each world.
        turn: the position in the public log of the `Believed` that started the turn
            being rolled, or -1 when nobody is rolling.
    """

    model: KripkeModel
    ranks: tuple[int, ...]
    turn: int = -1

    def world(self, before: Roll | None, now: Roll) -> str:
        """The name of the world whose cup holds `now` (after `before`, while rolling)."""
        return str(now) if self.turn < 0 else f"{now}{_FROM}{before}"

    def world_of(self, seat: int, log: Sequence[Event], known: Roll | None) -> str:
        """A world the seat's own observations (its `log`, the roll it `known`s) allow.

        Every world the seat cannot tell from it is one it considers possible, so the
        seat knows a formula exactly when ``K_seat formula`` holds there.
        """
        if self.turn < 0:
            return str(known) if known is not None else self.model.worlds[0]
        before = seen_before_turn(log)
        if known is not None:
            return self.world(before, known)
        if before is not None:
            suffix = f"{_FROM}{before}"
            for w in self.model.worlds:
                if w.endswith(suffix):
                    return w
        return self.model.worlds[0]

    def considered(self, seat: int, log: Sequence[Event], known: Roll | None) -> tuple[int, ...]:
        """The worlds (indices) the seat considers possible: its block around `world_of`.

        Read from the seat's own `log` and the roll it `known`s only. The seat knows a
        formula exactly when the formula holds in every one of them.
        """
        relation = self.model.relations[self.model.agents[seat]]
        assert isinstance(relation, Partition), "the cup's model is S5"
        here = self.model.worlds.index(self.world_of(seat, log, known))
        return tuple(np.flatnonzero(relation.block == relation.block[here]).tolist())


def seen_before_turn(log: Sequence[Event]) -> Roll | None:
    """The last roll a seat saw (or that was announced) before the rolls of the turn under way."""
    start = max(i for i, e in enumerate(log) if type(e) is Believed)
    seen: Roll | None = None
    for i, event in enumerate(log):
        if isinstance(event, DiceRolled) and i > start:
            break
        if isinstance(event, Opened | CupSeen):
            seen = event.roll
    return seen


def rerolled(before: Roll, count: int) -> frozenset[int]:
    """The ranks of the rolls that rerolling `count` of `before`'s dice can give."""
    kept = {
        minus(before.dice, sort_dice(out)) for out in itertools.combinations(before.dice, count)
    }
    return frozenset(RANK_OF[sort_dice(k + new)] for k in kept for new in multisets(count))


def cup_model(board: Board, log: Sequence[Event], names: Sequence[str]) -> CupModel:
    """The cup's exact model of the public record (see `CupModel`).

    Args:
        board: the public board now.
        log: the events of any seat's log (only the public ones are read).
        names: the seats' names (the model's agents).

    Raises:
        InputError: no die has been rolled yet.
    """
    if not board.round:
        raise InputError("no die has been rolled yet: the cup has no model")
    return _cup_model(board, tuple(e for e in log if e.public), tuple(names))


@functools.lru_cache(maxsize=32)
def _cup_model(board: Board, public: tuple[Event, ...], names: tuple[str, ...]) -> CupModel:
    # Cached: every seat, and every formula a seat is asked, reads the same model.
    if not board.rolling:
        knowers = cup_knowers(public)
        ranks = CupKnowledge(-1, board.visible, board.known, False, None).world_ranks()
        worlds = [str(ROLLS[r]) for r in ranks]
        model = _cup_kripke(worlds, ranks, names, lambda s, w: w if s in knowers else "")
        return CupModel(model, ranks)
    turn = max(i for i, e in enumerate(public) if type(e) is Believed)
    started = public[turn]
    assert isinstance(started, Believed)
    holder = started.seat
    count = sum(e.count for e in public[turn:] if isinstance(e, DiceRolled))
    start = Board.start(len(names))
    for event in public[:turn]:
        start = start.absorb(event)
    looked = cup_knowers(public[: turn + 1])
    pairs = sorted(
        (r, b)
        for b in CupKnowledge(-1, start.visible, start.known, False, None).world_ranks()
        for r in rerolled(ROLLS[b], count)
    )
    worlds = [f"{ROLLS[r]}{_FROM}{ROLLS[b]}" for r, b in pairs]

    def block(seat: int, world: str) -> str:
        if seat == holder:
            return world
        return world.partition(_FROM)[2] if seat in looked else ""

    now = tuple(r for r, _ in pairs)
    return CupModel(_cup_kripke(worlds, now, names, block), now, turn)


def _cup_kripke(
    worlds: Sequence[str],
    ranks: Sequence[int],
    names: Sequence[str],
    block: Callable[[int, str], str],
) -> KripkeModel:
    """The S5 model whose seat s cannot tell worlds with the same `block(s, world)` apart.

    A world whose cup holds 653 makes `cup_653` true, and `atleast_XYZ` for every roll
    up to 653 in the ranking. Built from arrays: while the cup is rolled a model has up
    to 56 × 56 worlds.
    """
    rank = np.asarray(ranks)
    valuation = {f"cup_{ROLLS[r]}": rank == r for r in sorted(set(ranks))}
    valuation |= {f"atleast_{ROLLS[r]}": rank >= r for r in range(max(ranks) + 1)}
    for mask in valuation.values():
        mask.flags.writeable = False
    relations: dict[str, AnyRelation] = {}
    for s, name in enumerate(names):
        labels: dict[str, int] = {}
        ids = [labels.setdefault(block(s, w), len(labels)) for w in worlds]
        relations[name] = Partition.from_ids(ids)
    return KripkeModel(tuple(names), tuple(worlds), valuation, relations)


def cup_truth(state: BlufpokerState) -> tuple[CupModel, str]:
    """The cup's exact model (`cup_model`) of a state and the name of its true world.

    In the poker phase the open dice are what the model is about (they are public).

    Raises:
        InputError: no die has been rolled yet.
    """
    names = state.game.seat_names
    view = state.observation(0)
    cup = cup_model(view.board, view.log, names)
    now = view.board.known or state.cup
    assert now is not None, "a cup with a model holds a roll"
    before = seen_before_turn(state.observation(state.holder).log) if cup.turn >= 0 else None
    return cup, cup.world(before, now)


def cup_picture(state: BlufpokerState, subject: str, seat: int | None) -> KripkePicture:
    """The cup's exact model from a seat's view (`seat`: `CupKnowledge.picture`) or a spectator's.

    The model is `cup_model`'s, the one `ask` and `CupKnowledge.knows` answer on: its worlds
    are the rolls consistent with the public record (visible dice, or the public roll), or
    while the holder rolls the pairs ``now←before``. Its designated worlds are those the
    perspective considers possible: the true world for a spectator; for a seat, the worlds
    its own observations leave (the true world is marked only when that is one world).
    The probabilities of seats that know the roll are shown only to a seat that knows it
    too (they put 1 on the true world), and while the cup is rolled only a seat that saw
    it has a belief; a spectator sees everything.

    Raises:
        InputError: the subject is not `cup`, or no die has been rolled yet.
    """
    if seat is not None:
        return state.observation(seat).knowledge.picture(subject)
    if subject != "cup" or not state.picture_subjects():
        choices = ", ".join(state.picture_subjects()) or "none yet"
        raise InputError(f"no picture {subject!r} in blufpoker; subjects: {choices}")
    names = state.game.seat_names
    knowns = [state.observation(s).knowledge.known for s in range(len(names))]
    cup, truth = cup_truth(state)
    considered = (cup.model.worlds.index(truth),)
    return _picture(cup, state.observation(0).board, names, considered, knowns, frozenset(), None)


def _picture(
    cup: CupModel,
    board: Board,
    names: Sequence[str],
    considered: Sequence[int],
    knowns: Sequence[Roll | None],
    hidden: frozenset[int],
    seat: int | None,
) -> KripkePicture:
    """The cup's model with the `considered` worlds designated, and the beliefs shown.

    `knowns[s]` is seat s's roll if it knows it; `hidden`, the seats whose beliefs are not
    shown from this perspective.
    """
    model = cup.model.with_designated(considered)
    worlds = model.worlds
    true_world = worlds[considered[0]] if len(considered) == 1 else None
    probabilities: dict[str, dict[str, float]] = {}
    for s, name in enumerate(names):
        if s in hidden or (knowns[s] is None and board.rolling):
            continue  # hidden from this perspective, or no belief while the cup is rolled
        if board.rolling:
            # Only the holder saw the cup it rolls: it tells every world apart, so it is
            # certain of the true world (shown only where the perspective knows it too).
            if true_world is None:
                continue
            probabilities[name] = {true_world: 1.0}  # every other world: 0
            continue
        knowledge = CupKnowledge(s, board.visible, knowns[s], False, None)
        probabilities[name] = {
            w: knowledge.p_world(ROLLS[r]) for w, r in zip(worlds, cup.ranks, strict=True)
        }
    return KripkePicture("cup", model, true_world, probabilities, seat)
