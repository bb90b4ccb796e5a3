"""Rolls of three dice as values: the 56 rolls, their ranking, and dice multisets.

A roll reads as a number from its dice sorted high to low (5,3,2 → `532`). Non-pokers rank
by that number (211 lowest, 665 highest); every poker (three equal dice) ranks above every
non-poker, 111 lowest and 666 highest. Inside the rules a roll is its rank `0..55`
(`ROLLS[rank]`), and dice are tuples of faces sorted high to low, so hot paths work on
ints and small tuples.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from epigames.errors import InputError

#: Faces of a die.
FACES = (1, 2, 3, 4, 5, 6)
#: Dice under the cup.
DICE = 3


class RollError(InputError):
    """Text or dice that are not a roll (so not a bid either)."""


Dice = tuple[int, ...]
"""A multiset of faces, sorted high to low (the canonical form used everywhere)."""


def sort_dice(faces: Iterable[int]) -> Dice:
    """Faces sorted high to low, the canonical multiset form."""
    return tuple(sorted(faces, reverse=True))


def dice_text(dice: Dice) -> str:
    """E.g. `6 5 3`, or `none` for no dice."""
    return " ".join(map(str, dice)) or "none"


def orderings(dice: Dice) -> int:
    """How many ordered throws give this multiset (e.g. 6 for 6 5 3, 3 for 2 1 1)."""
    out = math.factorial(len(dice))
    for count in Counter(dice).values():
        out //= math.factorial(count)
    return out


def multisets(size: int) -> list[Dice]:
    """Every multiset of `size` faces, sorted high to low, in lexicographic order."""
    return [sort_dice(c) for c in itertools.combinations_with_replacement(FACES, size)]


#: Every tuple of up to three faces → the same faces high to low (sorting by lookup).
SORTED: dict[tuple[int, ...], Dice] = {
    t: sort_dice(t) for k in range(DICE + 1) for t in itertools.product(FACES, repeat=k)
}


def _differences() -> dict[tuple[Dice, Dice], Dice]:
    out: dict[tuple[Dice, Dice], Dice] = {}
    for k in range(DICE + 1):
        for big in multisets(k):
            for j in range(k + 1):
                for small in {sort_dice(c) for c in itertools.combinations(big, j)}:
                    rest = Counter(big)
                    rest.subtract(small)
                    out[(big, small)] = sort_dice(rest.elements())
    return out


#: (big, small) → the multiset `big` without `small`, for every `small` part of `big`
#: (both high to low): the rules take dice out of the cup on every roll, by lookup.
DIFFERENCES: dict[tuple[Dice, Dice], Dice] = _differences()


def _by_whole() -> dict[Dice, dict[Dice, Dice]]:
    out: dict[Dice, dict[Dice, Dice]] = {}
    for (big, small), rest in DIFFERENCES.items():
        out.setdefault(big, {})[small] = rest
    return out


#: `DIFFERENCES` by `big`, then by `small` (`PARTS[big][small]`), for the rules' hot path:
#: two lookups of short tuples cost less than one of a pair, whose hash hashes both
#: tuples again after the pair is made. Every multiset of up to three dice is a `big`.
PARTS: dict[Dice, dict[Dice, Dice]] = _by_whole()


def contains(big: Dice, small: Dice) -> bool:
    """Whether the multiset `small` is part of `big` (both high to low)."""
    return (big, small) in DIFFERENCES


def minus(big: Dice, small: Dice) -> Dice:
    """The multiset `big` without `small` (both high to low; `small` must be part of it)."""
    return DIFFERENCES[(big, small)]


def _ranking() -> list[Dice]:
    rolls = multisets(DICE)
    plain = sorted(
        (d for d in rolls if len(set(d)) > 1), key=lambda d: d[0] * 100 + d[1] * 10 + d[2]
    )
    pokers = [(f, f, f) for f in FACES]
    return plain + pokers


_ORDER = _ranking()
#: Dice (high to low) of the roll of each rank.
RANK_DICE: tuple[Dice, ...] = tuple(_ORDER)
#: Rank of each three-dice multiset.
RANK_OF: dict[Dice, int] = {d: i for i, d in enumerate(_ORDER)}
#: Number of rolls (ranks are 0..RANKS-1).
RANKS = len(_ORDER)
#: The lowest poker's rank (every rank from here up is a poker).
FIRST_POKER = RANK_OF[(1, 1, 1)]


@dataclass(frozen=True, slots=True)
class Roll:
    """One of the 56 rolls of three dice, faces high to low: `Roll(6, 5, 3)` is 653.

    Compare rolls with `<`, `>`: the game's ranking, not the numbers (111 > 665).

    Attributes:
        high: the highest face.
        middle: the middle face.
        low: the lowest face.
        rank: position in the ranking, 0 (211) to 55 (666) (derived).
    """

    high: int
    middle: int
    low: int
    rank: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        dice = (self.high, self.middle, self.low)
        rank = RANK_OF.get(dice) if all(type(f) is int for f in dice) else None
        if rank is None:
            raise RollError(
                f"no roll Roll{dice!r}; expected three faces 1..6 from high to low, "
                "e.g. Roll(6, 5, 3)"
            )
        object.__setattr__(self, "rank", rank)

    @property
    def dice(self) -> Dice:
        """The faces, high to low."""
        return (self.high, self.middle, self.low)

    @property
    def is_poker(self) -> bool:
        """Whether all three dice are equal."""
        return self.rank >= FIRST_POKER

    @property
    def value(self) -> int:
        """The number the roll reads as, e.g. 653 (not its rank: see the class docs)."""
        return self.high * 100 + self.middle * 10 + self.low

    def __str__(self) -> str:
        return f"{self.high}{self.middle}{self.low}"

    def __repr__(self) -> str:
        return f"Roll({self.high}, {self.middle}, {self.low})"

    def __lt__(self, other: Roll) -> bool:
        return self.rank < other.rank

    def __le__(self, other: Roll) -> bool:
        return self.rank <= other.rank

    def __gt__(self, other: Roll) -> bool:
        return self.rank > other.rank

    def __ge__(self, other: Roll) -> bool:
        return self.rank >= other.rank

    @classmethod
    def of(cls, faces: Iterable[int]) -> Roll:
        """The roll of three faces given in any order (e.g. a throw `(3, 6, 5)`).

        Raises:
            RollError: not three faces 1..6.
        """
        dice = sort_dice(faces)
        rank = RANK_OF.get(dice)
        if rank is None:
            raise RollError(f"dice {dice!r} are not a roll; expected three faces 1..6")
        return ROLLS[rank]

    @classmethod
    def parse(cls, text: str) -> Roll:
        """Read a roll written as its number, e.g. `653` (spaces allowed: `6 5 3`).

        Raises:
            RollError: not three faces 1..6 from high to low (`356` is a hint for 653).
        """
        digits = "".join(text.split()).replace(",", "")
        if len(digits) == DICE and digits.isdigit():
            faces = tuple(int(d) for d in digits)
            rank = RANK_OF.get(faces)
            if rank is not None:
                return ROLLS[rank]
            if all(1 <= f <= 6 for f in faces):
                raise RollError(
                    f"{text!r} is not a roll: dice read from high to low; did you mean "
                    f"{''.join(map(str, sort_dice(faces)))}?"
                )
        raise RollError(
            f"{text!r} is not a roll; expected three faces 1..6 from high to low, e.g. 653"
        )


#: Every roll, lowest first: `ROLLS[r].rank == r`.
ROLLS: tuple[Roll, ...] = tuple(Roll(*d) for d in _ORDER)
