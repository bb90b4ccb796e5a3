"""Blufpoker actions and chance outcomes as values, each with `str()`/`parse` round trips.

| action            | text          | when                                             |
|-------------------|---------------|--------------------------------------------------|
| `CALL`            | `call`        | lift the cup on the previous bid                 |
| `BELIEVE`         | `believe`     | take the cup (a poker bid: play the poker phase) |
| `RollDice(dice)`  | `roll 5 3`    | roll these dice of the cup (each die once a turn)|
| `STOP`            | `stop`        | stop rolling; the unrolled dice go outside       |
| `Bid(roll)`       | `bid 654`     | claim the cup holds at least this roll           |
| `Keep(dice)`      | `keep 5 5`    | poker phase: keep these open dice, roll the rest |
| `Throw(dice)`     | `throw 6 4`   | chance: the faces the rolled dice show           |

Dice are named by their faces (dice of equal face are interchangeable), high to low.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from epigames.errors import InputError
from epigames.games.blufpoker.dice import (
    DICE,
    ROLLS,
    Dice,
    Roll,
    RollError,
    dice_text,
    multisets,
    orderings,
    sort_dice,
)
from epigames.games.words import WordAction


class ActionSyntaxError(InputError):
    """Text that is not a Blufpoker action (unreadable, which is not the same as illegal)."""


def _parse_dice(text: str, what: str, sizes: range) -> Dice:
    words = text.replace(",", " ").split()
    if len(words) == 1 and len(words[0]) > 1:
        words = list(words[0])  # `roll 53` means the dice 5 and 3
    if not all(w.isdigit() and 1 <= int(w) <= 6 for w in words) or len(words) not in sizes:
        raise ActionSyntaxError(
            f"cannot read dice {text!r} in {what!r}; expected {sizes.start}..{sizes.stop - 1} "
            "faces 1..6, e.g. 5 3"
        )
    return sort_dice(int(w) for w in words)


def _check_dice(dice: object, sizes: range, cls: str) -> None:
    ok = (
        type(dice) is tuple
        and len(dice) in sizes
        and all(type(f) is int and 1 <= f <= 6 for f in dice)
        and list(dice) == sorted(dice, reverse=True)
    )
    if not ok:
        raise ActionSyntaxError(
            f"no action {cls}({dice!r}); expected {sizes.start}..{sizes.stop - 1} faces 1..6, "
            "high to low, as a tuple"
        )


@dataclass(frozen=True, slots=True)
class Call(WordAction, word="call"):
    """Lift the cup: the bidder is penalised if the roll is lower than the bid, else the caller."""


@dataclass(frozen=True, slots=True)
class Believe(WordAction, word="believe"):
    """Accept the bid and take the cup (after a poker bid: play the poker phase)."""


@dataclass(frozen=True, slots=True)
class Stop(WordAction, word="stop"):
    """Stop rolling: the dice not rolled this turn are placed outside the cup."""


CALL = Call()
BELIEVE = Believe()
STOP = Stop()


@dataclass(frozen=True, slots=True)
class RollDice:
    """Roll some of the cup's dice that were not rolled yet this turn, e.g. `roll 5 3`.

    Attributes:
        dice: the faces of the dice to roll, high to low (one to three).
    """

    dice: Dice

    def __post_init__(self) -> None:
        _check_dice(self.dice, range(1, DICE + 1), "RollDice")

    def __str__(self) -> str:
        return f"roll {dice_text(self.dice)}"


@dataclass(frozen=True, slots=True)
class Bid:
    """Claim that the cup holds at least `roll`: `bid 654`.

    Attributes:
        roll: the claimed roll (bids are always valid rolls).
    """

    roll: Roll

    def __post_init__(self) -> None:
        if type(self.roll) is not Roll:
            raise RollError(f"no bid Bid({self.roll!r}); a bid is a Roll, e.g. Bid(Roll(6, 5, 3))")

    def __str__(self) -> str:
        return f"bid {self.roll}"


@dataclass(frozen=True, slots=True)
class Keep:
    """Poker phase: keep these open dice and roll the others (`keep none` rolls all three).

    Attributes:
        dice: the kept faces, high to low (zero to two: at least one die is rolled).
    """

    dice: Dice

    def __post_init__(self) -> None:
        _check_dice(self.dice, range(0, DICE), "Keep")

    def __str__(self) -> str:
        return f"keep {dice_text(self.dice)}"


@dataclass(frozen=True, slots=True)
class Throw:
    """A chance outcome: the faces shown by the dice just rolled, high to low.

    Attributes:
        dice: one to three faces.
    """

    dice: Dice

    def __post_init__(self) -> None:
        _check_dice(self.dice, range(1, DICE + 1), "Throw")

    @property
    def probability(self) -> float:
        """The chance of this multiset of faces when `len(dice)` fair dice are thrown."""
        return orderings(self.dice) / float(6 ** len(self.dice))

    def __str__(self) -> str:
        return f"throw {dice_text(self.dice)}"


Action = Call | Believe | RollDice | Stop | Bid | Keep
"""A player's action."""

#: Every `Bid`, by rank of its roll.
BIDS: tuple[Bid, ...] = tuple(Bid(r) for r in ROLLS)
#: Every bid above a rank: `BIDS_ABOVE[r]` (rank -1 for "no bid yet" gives all 56).
BIDS_ABOVE: dict[int, tuple[Bid, ...]] = {r: BIDS[r + 1 :] for r in range(-1, len(ROLLS))}


_SOME = [d for k in range(1, DICE + 1) for d in multisets(k)]
#: The one `RollDice` value per multiset of dice (actions are shared immutable values).
ROLL_DICE: dict[Dice, RollDice] = {d: RollDice(d) for d in _SOME}
#: The one `Keep` value per multiset of up to two dice.
KEEPS: dict[Dice, Keep] = {d: Keep(d) for d in [(), *_SOME] if len(d) < DICE}
#: The one `Throw` value per multiset of one to three faces.
THROWS: dict[Dice, Throw] = {d: Throw(d) for d in _SOME}


@functools.cache
def throws(count: int) -> tuple[tuple[Throw, float], ...]:
    """The chance outcomes of throwing `count` dice: `(Throw, probability)` pairs.

    Most likely first, so that sampling by a cumulative scan stops early on average.
    """
    pairs = [(THROWS[d], orderings(d) / 6**count) for d in multisets(count)]
    return tuple(sorted(pairs, key=lambda pair: -pair[1]))


@functools.cache
def roll_choices(untouched: Dice) -> tuple[RollDice, ...]:
    """Every `RollDice` over the sub-multisets (non-empty) of the unrolled dice."""
    subs = {sort_dice(c) for k in range(1, len(untouched) + 1) for c in _combos(untouched, k)}
    return tuple(ROLL_DICE[d] for d in sorted(subs, key=lambda d: (len(d), d)))


@functools.cache
def keep_choices(dice: Dice) -> tuple[Keep, ...]:
    """Every `Keep` of up to two of the open dice (at least one die must be rolled)."""
    subs = {sort_dice(c) for k in range(0, len(dice)) for c in _combos(dice, k)}
    return tuple(KEEPS[d] for d in sorted(subs, key=lambda d: (len(d), d)))


def _combos(dice: Dice, k: int) -> list[Dice]:
    return [tuple(c) for c in itertools.combinations(dice, k)]


# Phases: who moves and what is legal. Public: every seat sees what phase the game is in.
# They are kept with the actions because both the state and the seat's view (`views.py`,
# which must not import `rules.py`) read the legal actions off the phase.
OPEN, DECIDE, ROLL, THROW, BID, POKER_THROW, POKER_KEEP, OVER = range(8)
PHASES = ("open", "decide", "roll", "throw", "bid", "poker-throw", "poker-keep", "over")
"""Phase names, by phase number (views report the name)."""

_DECIDE_ACTIONS = (CALL, BELIEVE)


def legal_choices(
    phase: int, bid: int, untouched: Dice, fresh: Dice, poker: Dice
) -> tuple[Action, ...]:
    """The legal actions of the player to move in `phase` (none at chance and the end).

    `bid` is the rank to beat, `untouched` and `fresh` the holder's unrolled and rolled
    dice, `poker` the open dice of the poker phase.
    """
    if phase == DECIDE:
        return _DECIDE_ACTIONS
    if phase == ROLL:
        choices: tuple[Action, ...] = roll_choices(untouched)
        return (*choices, STOP) if fresh else choices
    if phase == BID:
        return BIDS_ABOVE[bid]
    if phase == POKER_KEEP:
        return keep_choices(poker)
    return ()


def parse_action(text: str) -> Action | Throw:
    """Read any action or chance outcome from its `str()`.

    Raises:
        ActionSyntaxError: unknown words or malformed dice.
        RollError: a bid that is not a valid roll.
    """
    words = text.strip().split(None, 1)
    head = words[0].lower() if words else ""
    rest = words[1] if len(words) > 1 else ""
    simple: dict[str, Action] = {"call": CALL, "believe": BELIEVE, "stop": STOP}
    if head in simple and not rest:
        return simple[head]
    if head == "bid" and rest:
        return BIDS[Roll.parse(rest).rank]
    if head == "roll" and rest:
        return RollDice(_parse_dice(rest, text, range(1, DICE + 1)))
    if head == "throw" and rest:
        return Throw(_parse_dice(rest, text, range(1, DICE + 1)))
    if head == "keep":
        if rest.strip().lower() in ("", "none", "nothing", "-"):
            return Keep(())
        return Keep(_parse_dice(rest, text, range(1, DICE)))
    raise ActionSyntaxError(
        f"cannot read action {text!r}; expected call, believe, roll 5 3, stop, bid 654, "
        "keep 5 5, keep none or (chance) throw 6 4"
    )
