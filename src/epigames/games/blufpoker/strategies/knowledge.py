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
"""

from __future__ import annotations

import random

from epigames.games.blufpoker.actions import BELIEVE, CALL
from epigames.games.blufpoker.dice import ROLLS, Roll, contains, dice_text
from epigames.games.blufpoker.strategies.base import BlufpokerStrategy, bid, roll, stop
from epigames.games.blufpoker.tables import CONSISTENT, P_AT_LEAST
from epigames.games.blufpoker.views import BlufpokerView
from epigames.games.strategy import Decision, Thought, register_strategy

THRESHOLD_MEAN = 1 / 4
THRESHOLD_SD = 1 / 12
#: Threshold scale by number of visible dice (0, 1, 2).
THRESHOLD_SCALE = (0.5, 0.75, 1.0)
POKER_BLUFF_CHANCE = 1 / 6


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
        current = view.bid
        assert current is not None
        visible = view.visible
        p = P_AT_LEAST[visible][current.rank]
        shown = f"{dice_text(visible)} shown" if visible else "nothing shown"
        if p == 0.0:
            return Decision(
                CALL,
                Thought("No world with {} reaches {}: a bluff, I call.", args=(shown, current)),
            )
        threshold = self.rng.gauss(THRESHOLD_MEAN, THRESHOLD_SD) * THRESHOLD_SCALE[len(visible)]
        args = (current, shown, p, threshold)
        if p >= threshold:
            self._plan, self._path = None, ""
            why = "P(cup ≥ {} | {}) = {:.2f} ≥ threshold {:.2f}: I believe."
            return Decision(BELIEVE, Thought(why, args=args))
        why = "P(cup ≥ {} | {}) = {:.2f} < threshold {:.2f}: I call."
        return Decision(CALL, Thought(why, args=args))

    def roll(self, view: BlufpokerView) -> Decision:
        """The report's rolling procedure (module docs), one die at a time."""
        current, cup = view.bid, view.cup
        assert current is not None and cup is not None
        left, fresh = view.untouched, view.fresh
        if not fresh:
            self._plan, self._path = None, ""
            return roll(left[-1:], "I roll my lowest die first: the {}.", left[-1])
        if cup > current:
            return stop("My {} beats {}: I stop.", cup, current)
        if len(fresh) == 1:
            return self._after_first(view, current, left)
        # Two dice rolled: only the no-six branch may roll the last die.
        if self._path == "no-six":
            if 6 in fresh and self.rng.random() >= 0.5:
                return stop("I rolled a 6 but {} does not beat {}; I stop anyway.", cup, current)
            return roll(left, "Still short of {}: I roll the last die, the {}.", current, left[0])
        return stop("My {} does not beat {}; I stop and bluff.", cup, current)

    def _after_first(self, view: BlufpokerView, current: Roll, left: tuple[int, ...]) -> Decision:
        a, b = left
        if a == b:
            poker = ROLLS[-7 + a]  # pokers are the top six ranks, 111 first
            if poker > current and self.rng.random() < POKER_BLUFF_CHANCE:
                self._plan = poker
                return stop(
                    "{} {} stay outside: I stop to bluff poker {} (a 1/6 choice).", a, a, poker
                )
        sixes = current.dice.count(6)
        if sixes == 0:
            self._path = "no-six"
            return roll((b,), "{} has no 6: I roll the {} hoping for a 6.", current, b)
        if sixes == 1:
            p = (6 - b) / 6
            if self.rng.random() < p:
                self._path = "one-six"
                return roll((b,), "The {} rolls higher with chance {:.2f}: I roll it.", b, p)
            return stop("The {} rolls higher only with chance {:.2f}: I stop and bluff.", b, p)
        self._plan = ROLLS[-1]
        return stop("{} has two 6s: I stop and bluff poker 666.", current)

    def bid(self, view: BlufpokerView) -> Decision:
        """Truthful if possible; the planned poker bluff; else a plausible low bluff."""
        current, cup = view.bid, view.cup
        assert current is not None and cup is not None
        if cup > current:
            return bid(cup, "My {} beats {}: I bid it.", cup, current)
        plan = self._plan
        if plan is not None and plan > current:
            return bid(plan, "I bluff poker {}: its dice lie outside the cup.", plan)
        visible = view.visible
        allowed = [r for r in CONSISTENT[visible] if r > current.rank][:3]
        if not allowed:
            allowed = list(range(current.rank + 1, min(current.rank + 4, len(ROLLS))))
        choice = ROLLS[allowed[int(self.rng.random() * len(allowed))]]
        assert contains(choice.dice, visible) or choice.rank in allowed
        why = "My {} does not beat {}: I bluff {}, one of the {} lowest bids that {} outside allow."
        return bid(choice, why, cup, current, choice, len(allowed), dice_text(visible))
