"""`knowledge`: the report's knowledge agent, with its bugs fixed.

Calling: a bid that no world consistent with the visible dice reaches is a bluff; any
other is believed when P(cup ≥ bid | visible dice) is at least a threshold drawn from
N(1/4, 1/12), scaled by 1, 0.75 and 0.5 for 2, 1 and 0 visible dice. Like the report's
agent it weighs only the visible dice (not even the rule that makes an opening bid true).

Rolling: the lowest die first, stopping if that beats the bid; then, with two equal dice
left, a 1/6 chance to stop and bluff their poker (only if it beats the bid: the report's
program could bluff lower); then by the sixes in the bid: none, roll the lower remaining
die for a 6 (after a 6, the last die only half the time; otherwise the last die too);
one, roll the lower remaining die with chance (6 - face)/6; two, stop and bluff 666.

Bidding: the roll if it beats the bid; the planned poker bluff; else one of the three
lowest bids above the bid that the visible dice allow, at random.

Every decision but a believe-or-call by threshold is a function of a few dice and ranks,
so each is made once (in the tables below the constants) and shared by every agent after
that. Compiled with mypyc (`epigames.native`), as plain Python it plays the same games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Final

from epigames.games.blufpoker import actions as _actions, dice as _dice, tables as _tables
from epigames.games.blufpoker.dice import Dice, Roll, contains, dice_text
from epigames.games.blufpoker.strategies import base as _base
from epigames.games.blufpoker.strategies.base import BlufpokerStrategy, bid, decided, roll, stop
from epigames.games.blufpoker.views import BlufpokerView
from epigames.games.strategy import Decision, register_strategy

THRESHOLD_MEAN = 1 / 4
THRESHOLD_SD = 1 / 12
#: Threshold scale by number of visible dice (0, 1, 2).
THRESHOLD_SCALE = (0.5, 0.75, 1.0)
POKER_BLUFF_CHANCE = 1 / 6

# What a decision reads, as final globals: compiled, each is one C static read instead
# of a lookup in the module's dictionary.
BELIEVE: Final = _actions.BELIEVE
CALL: Final = _actions.CALL
RANK_DICE: Final = _dice.RANK_DICE
RANK_OF: Final = _dice.RANK_OF
RANKS: Final = _dice.RANKS
ROLLS: Final = _dice.ROLLS
SORTED: Final = _dice.SORTED
CONSISTENT: Final = _tables.CONSISTENT
P_AT_LEAST: Final = _tables.P_AT_LEAST
PATTERNS: Final = _tables.PATTERNS
_MEAN: Final = THRESHOLD_MEAN
_SD: Final = THRESHOLD_SD
_SCALE: Final = THRESHOLD_SCALE
_POKER_BLUFF: Final = POKER_BLUFF_CHANCE
_DECISION: Final = Decision
_thought: Final = _base.thought
_TWO_PI: Final = 2.0 * math.pi

#: How a thought names the visible dice, by pattern.
_SHOWN: Final = {v: f"{dice_text(v)} shown" if v else "nothing shown" for v in PATTERNS}
_BELIEVE: Final = "P(cup ≥ {} | {}) = {:.2f} ≥ threshold {:.2f}: I believe."
_CALL: Final = "P(cup ≥ {} | {}) = {:.2f} < threshold {:.2f}: I call."
#: Decisions made once, by (branch, the dice and ranks they depend on); the most
#: frequent in tables of their own, keyed by ints, looked up without a call.
_MADE: Final[dict[Hashable, Decision]] = {}
_LOWEST_FIRST: Final[dict[int, Decision]] = {}
_BEATS: Final[dict[int, Decision]] = {}
_TRUE_BIDS: Final[dict[int, Decision]] = {}
_SIX_STOPS: Final[dict[int, Decision]] = {}  # by cup * RANKS + bid to beat
_LAST_DIE: Final[dict[int, Decision]] = {}  # by bid to beat * 7 + the last die
_SHORT: Final[dict[int, Decision]] = {}  # by cup * RANKS + bid to beat
_NO_SIX: Final[dict[int, Decision]] = {}  # by bid to beat * 7 + the die to roll
_new_decision: Final = tuple.__new__


class KnowledgeAgent(BlufpokerStrategy):
    """The report's knowledge-based agent (see the module docs).

    Registered as `knowledge` below the class (see `BlufpokerStrategy`).
    """

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self._plan: Roll | None = None  # a poker bluff decided while rolling
        self._path = ""  # which branch of the rolling procedure this turn is on

    def decide(self, view: BlufpokerView) -> Decision:
        """Call an impossible bid; else compare P(cup ≥ bid | visible) with a random threshold."""
        visible, rank = view._visible, view._bid
        p = P_AT_LEAST[visible][rank]
        if p == 0.0:
            key = ("impossible", visible, rank)
            decision = _MADE.get(key)
            if decision is None:
                why = "No world with {} reaches {}: a bluff, I call."
                decision = _MADE[key] = decided(CALL, why, _SHOWN[visible], ROLLS[rank])
            return decision
        threshold = gauss(self.rng, _MEAN, _SD) * _SCALE[len(visible)]
        args = (ROLLS[rank], _SHOWN[visible], p, threshold)
        if p >= threshold:
            self._plan, self._path = None, ""
            return _new_decision(_DECISION, (BELIEVE, _thought(_BELIEVE, (), args)))
        return _new_decision(_DECISION, (CALL, _thought(_CALL, (), args)))

    def roll(self, view: BlufpokerView) -> Decision:
        """The report's rolling procedure (module docs), one die at a time."""
        note = view._note
        assert note is not None
        left, fresh = note
        if not fresh:
            self._plan, self._path = None, ""
            low = left[-1]
            decision = _LOWEST_FIRST.get(low)
            if decision is None:
                why = "I roll my lowest die first: the {}."
                decision = _LOWEST_FIRST[low] = roll((low,), why, low)
            return decision
        bid_rank = view._bid
        cup = RANK_OF[SORTED[left + fresh]]
        if cup > bid_rank:
            key = cup * RANKS + bid_rank
            decision = _BEATS.get(key)
            if decision is None:
                decision = _BEATS[key] = stop(
                    "My {} beats {}: I stop.", ROLLS[cup], ROLLS[bid_rank]
                )
            return decision
        if len(fresh) == 1:
            return self._after_first(bid_rank, left)
        # Two dice rolled: only the no-six branch may roll the last die.
        if self._path == "no-six":
            if 6 in fresh and self.rng.random() >= 0.5:
                key = cup * RANKS + bid_rank
                decision = _SIX_STOPS.get(key)
                if decision is None:
                    why = "I rolled a 6 but {} does not beat {}; I stop anyway."
                    decision = _SIX_STOPS[key] = stop(why, ROLLS[cup], ROLLS[bid_rank])
                return decision
            key = bid_rank * 7 + left[0]
            decision = _LAST_DIE.get(key)
            if decision is None:
                why = "Still short of {}: I roll the last die, the {}."
                decision = _LAST_DIE[key] = roll(left, why, ROLLS[bid_rank], left[0])
            return decision
        key = cup * RANKS + bid_rank
        decision = _SHORT.get(key)
        if decision is None:
            why = "My {} does not beat {}; I stop and bluff."
            decision = _SHORT[key] = stop(why, ROLLS[cup], ROLLS[bid_rank])
        return decision

    def _after_first(self, bid_rank: int, left: Dice) -> Decision:
        a, b = left
        if a == b:
            poker = ROLLS[-7 + a]  # pokers are the top six ranks, 111 first
            if poker.rank > bid_rank and self.rng.random() < _POKER_BLUFF:
                self._plan = poker
                made: Hashable = ("poker", a)
                decision = _MADE.get(made)
                if decision is None:
                    why = "{} {} stay outside: I stop to bluff poker {} (a 1/6 choice)."
                    decision = _MADE[made] = stop(why, a, a, poker)
                return decision
        sixes = RANK_DICE[bid_rank].count(6)
        if sixes == 0:
            self._path = "no-six"
            key = bid_rank * 7 + b
            decision = _NO_SIX.get(key)
            if decision is None:
                why = "{} has no 6: I roll the {} hoping for a 6."
                decision = _NO_SIX[key] = roll((b,), why, ROLLS[bid_rank], b)
            return decision
        if sixes == 1:
            p = (6 - b) / 6
            if self.rng.random() < p:
                self._path = "one-six"
                made = ("one-six", b)
                decision = _MADE.get(made)
                if decision is None:
                    why = "The {} rolls higher with chance {:.2f}: I roll it."
                    decision = _MADE[made] = roll((b,), why, b, p)
                return decision
            made = ("one-six stop", b)
            decision = _MADE.get(made)
            if decision is None:
                why = "The {} rolls higher only with chance {:.2f}: I stop and bluff."
                decision = _MADE[made] = stop(why, b, p)
            return decision
        self._plan = ROLLS[-1]
        made = ("two-six", bid_rank)
        decision = _MADE.get(made)
        if decision is None:
            why = "{} has two 6s: I stop and bluff poker 666."
            decision = _MADE[made] = stop(why, ROLLS[bid_rank])
        return decision

    def bid(self, view: BlufpokerView) -> Decision:
        """Truthful if possible; the planned poker bluff; else a plausible low bluff."""
        note = view._note
        assert note is not None
        bid_rank = view._bid
        cup = RANK_OF[SORTED[note[0] + note[1]]]
        if cup > bid_rank:
            key = cup * RANKS + bid_rank
            decision = _TRUE_BIDS.get(key)
            if decision is None:
                decision = _TRUE_BIDS[key] = bid(
                    ROLLS[cup], "My {} beats {}: I bid it.", ROLLS[cup], ROLLS[bid_rank]
                )
            return decision
        plan = self._plan
        if plan is not None and plan.rank > bid_rank:
            planned: Hashable = ("plan", plan.rank)
            decision = _MADE.get(planned)
            if decision is None:
                why = "I bluff poker {}: its dice lie outside the cup."
                decision = _MADE[planned] = bid(plan, why, plan)
            return decision
        visible = view._visible
        allowed = _allowed(visible, bid_rank)
        choice = allowed[int(self.rng.random() * len(allowed))]
        bluff: Hashable = ("bluff", cup, bid_rank, choice, visible)
        decision = _MADE.get(bluff)
        if decision is None:
            decision = _MADE[bluff] = _bluff(
                ROLLS[cup], ROLLS[bid_rank], ROLLS[choice], len(allowed), visible
            )
        return decision


register_strategy(
    "blufpoker",
    "knowledge",
    about="The 2020 report's agent: calls a bid the open dice make unlikely, rolls its lowest "
    "dice first and sometimes bluffs a poker.",
)(KnowledgeAgent)
_ALLOWED: Final[dict[tuple[Dice, int], tuple[int, ...]]] = {}


def gauss(rng: random.Random, mu: float, sigma: float) -> float:
    """`rng.gauss(mu, sigma)`: the same value, leaving `rng` in the same state.

    CPython's `Random.gauss` draws normals two at a time and keeps the second in the
    generator's `gauss_next` for its next call; this takes the same steps, compiled (the
    interpreted method costs as much as the rest of a decision). A test compares them.
    """
    spare: float | None = rng.gauss_next  # type: ignore[attr-defined]
    rng.gauss_next = None  # type: ignore[attr-defined]
    if spare is None:
        angle = rng.random() * _TWO_PI
        radius = math.sqrt(-2.0 * math.log(1.0 - rng.random()))
        spare = math.cos(angle) * radius
        rng.gauss_next = math.sin(angle) * radius  # type: ignore[attr-defined]
    return mu + spare * sigma


def _allowed(visible: Dice, rank: int) -> tuple[int, ...]:
    """The three lowest bids above `rank` that the visible dice allow (else the next three)."""
    key = (visible, rank)
    allowed = _ALLOWED.get(key)
    if allowed is None:
        allowed = tuple([r for r in CONSISTENT[visible] if r > rank][:3]) or tuple(
            range(rank + 1, min(rank + 4, len(ROLLS)))
        )
        _ALLOWED[key] = allowed
    return allowed


def _bluff(cup: Roll, current: Roll, choice: Roll, allowed: int, visible: Dice) -> Decision:
    assert contains(choice.dice, visible) or allowed
    why = "My {} does not beat {}: I bluff {}, one of the {} lowest bids that {} outside allow."
    return bid(choice, why, cup, current, choice, allowed, dice_text(visible))
