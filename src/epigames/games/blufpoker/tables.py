"""Precomputed probabilities: the 56 worlds under every pattern of visible dice.

When `k` dice lie outside the cup, the other `3 - k` were rolled this turn, so under fair
dice the cup holds world `w` with probability (ordered throws of `w` minus the visible
dice) / 6^(3-k), and 0 when the visible dice are not part of `w`. There are 84 visible
patterns (0 to 3 dice), so every table below is computed once, at import, in exact
integers; floats are derived from them for the hot paths.

The poker phase's fixed procedure and its exact odds live here too.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from epigames.games.blufpoker.dice import (
    DICE,
    RANK_DICE,
    RANK_OF,
    RANKS,
    Dice,
    contains,
    minus,
    multisets,
    orderings,
    sort_dice,
)

#: Every visible-dice pattern (0 to 3 faces, high to low).
PATTERNS: tuple[Dice, ...] = tuple(d for k in range(DICE + 1) for d in multisets(k))


def _weights(visible: Dice) -> tuple[int, ...]:
    out = []
    for world in RANK_DICE:
        out.append(orderings(minus(world, visible)) if contains(world, visible) else 0)
    return tuple(out)


#: Visible pattern → per rank: the number of ordered throws of the hidden dice giving it.
WEIGHTS: dict[Dice, tuple[int, ...]] = {v: _weights(v) for v in PATTERNS}
#: Visible pattern → the denominator of `WEIGHTS` (6 ** hidden dice).
DENOMINATOR: dict[Dice, int] = {v: 6 ** (DICE - len(v)) for v in PATTERNS}
#: Visible pattern → per rank: P(cup = that roll | visible dice).
P_WORLD: dict[Dice, tuple[float, ...]] = {
    v: tuple(w / DENOMINATOR[v] for w in WEIGHTS[v]) for v in PATTERNS
}


def _tails(weights: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * (RANKS + 1)
    for r in range(RANKS - 1, -1, -1):
        out[r] = out[r + 1] + weights[r]
    return tuple(out)


_TAIL: dict[Dice, tuple[int, ...]] = {v: _tails(WEIGHTS[v]) for v in PATTERNS}
#: Visible pattern → per rank `r` (0..56): P(cup ≥ roll of rank r | visible dice).
P_AT_LEAST: dict[Dice, tuple[float, ...]] = {
    v: tuple(t / DENOMINATOR[v] for t in _TAIL[v]) for v in PATTERNS
}
#: Visible pattern → the ranks of the worlds consistent with it, lowest first.
CONSISTENT: dict[Dice, tuple[int, ...]] = {
    v: tuple(r for r, w in enumerate(WEIGHTS[v]) if w) for v in PATTERNS
}


def exact_world(visible: Dice, rank: int) -> Fraction:
    """P(cup = roll of `rank` | visible dice), exactly."""
    return Fraction(WEIGHTS[visible][rank], DENOMINATOR[visible])


def exact_at_least(visible: Dice, rank: int) -> Fraction:
    """P(cup ≥ roll of `rank` | visible dice), exactly."""
    return Fraction(_TAIL[visible][rank], DENOMINATOR[visible])


# --- the poker phase -------------------------------------------------------------

#: Open rolls in the poker phase.
POKER_ROLLS = 3


def poker_keep(dice: Dice, target: int) -> Dice:
    """The fixed poker-phase procedure: which of the open dice to keep against poker `target`.

    Keep a pair whose face is at least the target's; else the highest die if its face is;
    else nothing (roll all three).
    """
    for face in sorted(set(dice), reverse=True):
        if face >= target and dice.count(face) >= 2:
            return (face, face)
    if dice and dice[0] >= target:
        return (dice[0],)
    return ()


@functools.cache
def poker_odds(target: int) -> tuple[Fraction, Fraction, Fraction]:
    """Exact `(beat, equal, fail)` chances of the poker phase against poker `target`.

    The phase ends at the first poker at least as high as the target, or after three
    rolls; between rolls the procedure of `poker_keep` is followed.
    """

    def after(dice: Dice, used: int) -> tuple[Fraction, Fraction, Fraction]:
        if dice[0] == dice[2] and dice[0] >= target:
            return (Fraction(1), Fraction(0), Fraction(0)) if dice[0] > target else (
                Fraction(0), Fraction(1), Fraction(0))  # fmt: skip
        if used == POKER_ROLLS:
            return (Fraction(0), Fraction(0), Fraction(1))
        kept = poker_keep(dice, target)
        return throw(kept, used)

    def throw(kept: Dice, used: int) -> tuple[Fraction, Fraction, Fraction]:
        count = DICE - len(kept)
        totals = [Fraction(0)] * 3
        for outcome in multisets(count):
            p = Fraction(orderings(outcome), 6**count)
            for i, x in enumerate(after(sort_dice(kept + outcome), used + 1)):
                totals[i] += p * x
        return (totals[0], totals[1], totals[2])

    return throw((), 0)


assert len(PATTERNS) == 84 and len(RANK_OF) == RANKS
