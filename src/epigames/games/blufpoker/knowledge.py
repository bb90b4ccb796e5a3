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

import functools
import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

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
from epigames.logic import Formula, KripkeModel, formula as fm
from epigames.logic.picture import KripkePicture
from epigames.logic.relations import AnyRelation, Partition

if TYPE_CHECKING:
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
        world = cup.world_of(view.seat, view.log, self.known)
        return cup.model.holds(fm.K(view.game.seat_names[view.seat], formula), world)

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
    before the turn: a world is then ``before>now``, a roll the turn started from (the
    rolls the public record allowed then) and a roll that rerolling that many of its
    dice can give. The holder tells every world apart; the seats that saw the cup before
    the turn (the last roller and the holder) tell the rolls before apart.

    Attributes:
        model: the model; atoms `cup_653` and `atleast_653` are about the roll now.
        turn: the position in the public log of the `Believed` that started the turn
            being rolled, or -1 when nobody is rolling.
    """

    model: KripkeModel
    turn: int = -1

    def world(self, before: Roll | None, now: Roll) -> str:
        """The name of the world whose cup holds `now` (after `before`, while rolling)."""
        return str(now) if self.turn < 0 else f"{before}>{now}"

    def world_of(self, seat: int, log: Sequence[Event], known: Roll | None) -> str:
        """A world the seat's own observations (its `log`, the roll it `known`s) allow.

        Every world the seat cannot tell from it is one it considers possible, so the
        seat knows a formula exactly when ``K_seat formula`` holds there.
        """
        if self.turn < 0:
            return str(known) if known is not None else self.model.worlds[0]
        before = seen_before_turn(log)
        prefix = f"{before}>"
        if known is not None:
            return self.world(before, known)
        if before is not None:
            for w in self.model.worlds:
                if w.startswith(prefix):
                    return w
        return self.model.worlds[0]


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
        return CupModel(_cup_kripke(worlds, ranks, names, lambda s, w: w if s in knowers else ""))
    turn = max(i for i, e in enumerate(public) if type(e) is Believed)
    started = public[turn]
    assert isinstance(started, Believed)
    holder = started.seat
    count = sum(e.count for e in public[turn:] if isinstance(e, DiceRolled))
    start = Board.start(len(names))
    for event in public[:turn]:
        start = start.absorb(event)
    looked = cup_knowers(public[: turn + 1])
    pairs = [
        (b, r)
        for b in CupKnowledge(-1, start.visible, start.known, False, None).world_ranks()
        for r in sorted(rerolled(ROLLS[b], count))
    ]
    worlds = [f"{ROLLS[b]}>{ROLLS[r]}" for b, r in pairs]

    def block(seat: int, world: str) -> str:
        if seat == holder:
            return world
        return world.split(">")[0] if seat in looked else ""

    return CupModel(_cup_kripke(worlds, [r for _, r in pairs], names, block), turn)


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
    everyone = board.known is not None
    model = _cup_kripke(worlds, ranks, names, lambda s, w: w if everyone or s in knowers else "")
    true_world = str(truth) if truth is not None and truth.rank in ranks else None
    if true_world is not None:
        model = model.with_designated([true_world])
    probabilities: dict[str, dict[str, float]] = {}
    for s, name in enumerate(names):
        if s in hidden or (knowns[s] is None and board.rolling):
            continue  # hidden from this perspective, or no belief while the cup is rolled
        knowledge = CupKnowledge(s, board.visible, knowns[s], board.rolling, None)
        probabilities[name] = {str(ROLLS[r]): knowledge.p_world(ROLLS[r]) for r in ranks}
    return KripkePicture("cup", model, true_world, probabilities, seat)
