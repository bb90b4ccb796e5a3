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
so each is made once (`_said`) and shared by every agent after that.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable

from epigames.games.blufpoker.actions import BELIEVE, CALL
from epigames.games.blufpoker.dice import (
    RANK_OF,
    RANKS,
    ROLLS,
    SORTED,
    Dice,
    Roll,
    contains,
    dice_text,
)
from epigames.games.blufpoker.strategies.base import (
    BlufpokerStrategy,
    bid,
    decided,
    roll,
    stop,
    thought,
)
from epigames.games.blufpoker.tables import CONSISTENT, P_AT_LEAST, PATTERNS
from epigames.games.blufpoker.views import BlufpokerView
from epigames.games.strategy import Decision, register_strategy

THRESHOLD_MEAN = 1 / 4
THRESHOLD_SD = 1 / 12
#: Threshold scale by number of visible dice (0, 1, 2).
THRESHOLD_SCALE = (0.5, 0.75, 1.0)
POKER_BLUFF_CHANCE = 1 / 6

#: How a thought names the visible dice, by pattern.
_SHOWN = {v: f"{dice_text(v)} shown" if v else "nothing shown" for v in PATTERNS}
_BELIEVE = "P(cup ≥ {} | {}) = {:.2f} ≥ threshold {:.2f}: I believe."
_CALL = "P(cup ≥ {} | {}) = {:.2f} < threshold {:.2f}: I call."
#: Decisions made once, by (branch, the dice and ranks they depend on); the most
#: frequent in tables of their own, keyed by ints, looked up without a call.
_MADE: dict[Hashable, Decision] = {}
_LOWEST_FIRST: dict[int, Decision] = {}
_BEATS: dict[int, Decision] = {}
_TRUE_BIDS: dict[int, Decision] = {}
_SIX_STOPS: dict[int, Decision] = {}  # by cup * RANKS + bid to beat
_LAST_DIE: dict[int, Decision] = {}  # by bid to beat * 7 + the last die
_SHORT: dict[int, Decision] = {}  # by cup * RANKS + bid to beat
_NO_SIX: dict[int, Decision] = {}  # by bid to beat * 7 + the die to roll
_new_decision = tuple.__new__


def _said(key: Hashable, make: Callable[[], Decision]) -> Decision:
    decision = _MADE.get(key)
    if decision is None:
        decision = _MADE[key] = make()
    return decision


@register_strategy(
    "blufpoker",
    "knowledge",
    about="The 2020 report's agent: calls a bid the open dice make unlikely, rolls its lowest "
    "dice first and sometimes bluffs a poker.",
)
class KnowledgeAgent(BlufpokerStrategy):
    """The report's knowledge-based agent (see the module docs)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self._plan: Roll | None = None  # a poker bluff decided while rolling
        self._path = ""  # which branch of the rolling procedure this turn is on

    def decide(self, view: BlufpokerView) -> Decision:
        """Call an impossible bid; else compare P(cup ≥ bid | visible) with a random threshold."""
        board = view.board
        visible, rank = board.visible, board.bid
        p = P_AT_LEAST[visible][rank]
        if p == 0.0:
            return _said(
                ("impossible", visible, rank),
                lambda: decided(
                    CALL,
                    "No world with {} reaches {}: a bluff, I call.",
                    _SHOWN[visible],
                    ROLLS[rank],
                ),
            )
        threshold = self.rng.gauss(THRESHOLD_MEAN, THRESHOLD_SD) * THRESHOLD_SCALE[len(visible)]
        args = (ROLLS[rank], _SHOWN[visible], p, threshold)
        if p >= threshold:
            self._plan, self._path = None, ""
            return _new_decision(Decision, (BELIEVE, thought(_BELIEVE, (), args)))
        return _new_decision(Decision, (CALL, thought(_CALL, (), args)))

    def roll(self, view: BlufpokerView) -> Decision:
        """The report's rolling procedure (module docs), one die at a time."""
        note = view._note
        assert note is not None
        left, fresh = note
        if not fresh:
            self._plan, self._path = None, ""
            decision = _LOWEST_FIRST.get(left[-1])
            if decision is None:
                low = left[-1]
                decision = _LOWEST_FIRST[low] = roll(
                    (low,), "I roll my lowest die first: the {}.", low
                )
            return decision
        bid_rank = view.board.bid
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
        current = ROLLS[bid_rank]
        if a == b:
            poker = ROLLS[-7 + a]  # pokers are the top six ranks, 111 first
            if poker.rank > bid_rank and self.rng.random() < POKER_BLUFF_CHANCE:
                self._plan = poker
                return _said(
                    ("poker", a),
                    lambda: stop(
                        "{} {} stay outside: I stop to bluff poker {} (a 1/6 choice).", a, a, poker
                    ),
                )
        sixes = current.dice.count(6)
        if sixes == 0:
            self._path = "no-six"
            key = bid_rank * 7 + b
            decision = _NO_SIX.get(key)
            if decision is None:
                why = "{} has no 6: I roll the {} hoping for a 6."
                decision = _NO_SIX[key] = roll((b,), why, current, b)
            return decision
        if sixes == 1:
            p = (6 - b) / 6
            if self.rng.random() < p:
                self._path = "one-six"
                return _said(
                    ("one-six", b),
                    lambda: roll((b,), "The {} rolls higher with chance {:.2f}: I roll it.", b, p),
                )
            return _said(
                ("one-six stop", b),
                lambda: stop(
                    "The {} rolls higher only with chance {:.2f}: I stop and bluff.", b, p
                ),
            )
        self._plan = ROLLS[-1]
        return _said(
            ("two-six", bid_rank),
            lambda: stop("{} has two 6s: I stop and bluff poker 666.", current),
        )

    def bid(self, view: BlufpokerView) -> Decision:
        """Truthful if possible; the planned poker bluff; else a plausible low bluff."""
        note = view._note
        assert note is not None
        board = view.board
        bid_rank = board.bid
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
            return _said(
                ("plan", plan.rank),
                lambda: bid(plan, "I bluff poker {}: its dice lie outside the cup.", plan),
            )
        visible = board.visible
        allowed = _allowed(visible, bid_rank)
        choice = allowed[int(self.rng.random() * len(allowed))]
        return _said(
            ("bluff", cup, bid_rank, choice, visible),
            lambda: _bluff(ROLLS[cup], ROLLS[bid_rank], ROLLS[choice], len(allowed), visible),
        )


_ALLOWED: dict[tuple[Dice, int], tuple[int, ...]] = {}


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
