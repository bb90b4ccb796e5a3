"""Turn planning for `bayes`: which dice to roll, and what a turn risks, by dynamic programming.

A turn's value is the chance of *not* being penalised for it: a roll that beats the bid is
safe (a bid of at most the roll is true; a poker bid still risks the poker phase), a bluff
survives when the next player believes it. Next players are modelled as half a threshold
caller like `knowledge` (it believes when P(cup ≥ bid | visible dice) beats a random
threshold) and half a coin flip, so keeping good dice visible makes bluffs more credible.
The value of every state `(untouched dice, rolled dice)` of a turn is computed once per
bid to beat, by exhaustive search over which dice to roll next or whether to stop.
"""

from __future__ import annotations

import functools
import math

from epigames.games.blufpoker.dice import (
    DICE,
    FIRST_POKER,
    RANK_OF,
    RANKS,
    SORTED,
    Dice,
    minus,
    multisets,
    orderings,
)
from epigames.games.blufpoker.tables import P_AT_LEAST, poker_odds

#: The highest non-poker (665): any bid above it is a poker.
TOP_PLAIN = FIRST_POKER - 1
THRESHOLD_MEAN, THRESHOLD_SD = 1 / 4, 1 / 12
THRESHOLD_SCALE = (0.5, 0.75, 1.0, 1.0)
CALLER_MIX = 0.5
"""Weight of the threshold caller in the model of the next player (the rest: a coin flip)."""
COIN = 0.5

#: Throws of `k` dice: `(faces, probability)` pairs.
_THROWS = {k: [(d, orderings(d) / 6**k) for d in multisets(k)] for k in range(1, DICE + 1)}
#: Chance of beating / equalling a poker in the poker phase, by its face.


# Computed on first use, not at import: the exact poker-phase odds take seconds, and
# importing epigames (e.g. for `epigames --help`) must stay fast.
@functools.cache
def poker_beat(face: int) -> float:
    """Chance that the poker phase beats a poker of `face`."""
    return float(poker_odds(face)[0])


@functools.cache
def poker_fail(face: int) -> float:
    """Chance that the poker phase fails against a poker of `face`."""
    return float(poker_odds(face)[2])


def believe_chance(rank: int, visible: Dice) -> float:
    """The modelled chance that the next player believes a bid of `rank` with `visible` out."""
    q = P_AT_LEAST[visible][rank]
    if q == 0.0:
        threshold_part = 0.0
    else:
        scale = THRESHOLD_SCALE[len(visible)]
        z = (q - THRESHOLD_MEAN * scale) / (THRESHOLD_SD * scale)
        threshold_part = 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))
    return CALLER_MIX * threshold_part + (1.0 - CALLER_MIX) * COIN


def bid_risk_free(rank: int) -> float:
    """The chance a *true* bid of `rank` costs nothing (a believed poker may be beaten)."""
    if rank < FIRST_POKER:
        return 1.0
    return 1.0 - COIN * poker_beat(rank - FIRST_POKER + 1)


@functools.cache
def best_bluff(visible: Dice, bid: int) -> tuple[int, float]:
    """The bluff above `bid` most likely to go unpunished, and that chance."""
    if bid < TOP_PLAIN:
        # Believability falls with the bid, so the lowest non-poker is the best plain bluff.
        return bid + 1, believe_chance(bid + 1, visible)
    best, value = RANKS - 1, -1.0
    for rank in range(bid + 1, RANKS):
        survive = believe_chance(rank, visible) * (1.0 - poker_beat(rank - FIRST_POKER + 1))
        if survive > value:
            best, value = rank, survive
    return best, value


def safe_bid(cup: int, bid: int) -> int:
    """The bid to make with a cup that beats `bid`: the cup, or 665 instead of a poker.

    A bid no higher than the cup is true; 665 keeps a poker roll out of the poker phase.
    """
    if cup >= FIRST_POKER and bid < TOP_PLAIN:
        return TOP_PLAIN
    return cup


def stop_value(untouched: Dice, fresh: Dice, bid: int) -> float:
    """The chance of no penalty when stopping with these dice (rolled ones hidden)."""
    cup = RANK_OF[SORTED[untouched + fresh]]
    if cup > bid:
        return bid_risk_free(safe_bid(cup, bid))
    return best_bluff(untouched, bid)[1]


class Planner:
    """The optimal rolling policy and turn values against one bid (see the module docs)."""

    def __init__(self, bid: int) -> None:
        self.bid = bid
        self._values: dict[tuple[Dice, Dice], tuple[float, Dice]] = {}

    def best(self, untouched: Dice, fresh: Dice) -> tuple[float, Dice]:
        """The value of the state and the dice to roll next (`()` means stop)."""
        key = (untouched, fresh)
        found = self._values.get(key)
        if found is not None:
            return found
        best_dice: Dice = ()
        best_value = -1.0
        if fresh:
            best_value = stop_value(untouched, fresh, self.bid)
        for dice in _subsets(untouched):
            rest = minus(untouched, dice)
            value = 0.0
            for faces, p in _THROWS[len(dice)]:
                value += p * self.best(rest, SORTED[fresh + faces])[0]
            if value > best_value + 1e-12:
                best_value, best_dice = value, dice
        self._values[key] = (best_value, best_dice)
        return best_value, best_dice

    def turn_value(self, cup: Dice) -> float:
        """The chance of no penalty after believing and taking a cup of `cup`."""
        if self.bid >= FIRST_POKER:
            return 1.0 - poker_fail(self.bid - FIRST_POKER + 1)
        return self.best(cup, ())[0]


@functools.cache
def _subsets(dice: Dice) -> tuple[Dice, ...]:
    """Non-empty sub-multisets, one die first (ties in value favour rolling fewer dice)."""
    out: set[Dice] = set()
    n = len(dice)
    for mask in range(1, 1 << n):
        out.add(SORTED[tuple(dice[i] for i in range(n) if mask >> i & 1)])
    return tuple(sorted(out, key=lambda d: (len(d), d)))


@functools.cache
def planner(bid: int) -> Planner:
    """The shared planner for a bid (its table fills as games visit it)."""
    return Planner(bid)
