"""`bayes` (ours): weighs what a bid reveals, learns how truthful each bidder is, plans turns.

Calling. The cup's prior is exact under fair dice given the visible dice (an opening
bid is true by rule, so it is believed outright). The previous bid then updates it by a
model of the bidder: with a roll that beats the bid it had to beat, it bids exactly that
roll with probability 1 - β, else it bluffs; a bluff lands 1–3 ranks above the old bid,
or on one of the three lowest bids the visible dice allow, or (rarely) anywhere above. β
is learned per bidder from every lifted cup (prior mean 1/3). So a big jump is most
likely a true roll, a small step after a hard bid most likely a bluff. With the posterior
it compares the chance that calling costs a penalty (the bid is true) with the chance
that believing does (by `planning`: it would fail to beat the bid and be caught, or
fail the poker phase), and takes the smaller.

Rolling and bidding follow `planning`: roll the dice that maximise the chance of no
penalty; bid a roll that beats the bid (665 instead of a poker, which the poker phase
could beat); else bluff the bid most likely to be believed.
"""

from __future__ import annotations

import random

from epigames.games.blufpoker.actions import BELIEVE, CALL
from epigames.games.blufpoker.dice import RANK_DICE, RANKS, ROLLS, dice_text
from epigames.games.blufpoker.events import BidMade, Called, Opened
from epigames.games.blufpoker.strategies.base import BlufpokerStrategy, bid, roll, stop
from epigames.games.blufpoker.strategies.planning import best_bluff, planner, safe_bid
from epigames.games.blufpoker.tables import CONSISTENT, P_WORLD
from epigames.games.blufpoker.views import BlufpokerView
from epigames.games.strategy import Decision, Thought, register_strategy

#: Beta prior of a bidder's bluff rate when it could have bid its roll: (bluffs, truths).
PRIOR = (1.0, 2.0)
#: Weights of the bluff models: 1–3 ranks up, the three lowest allowed bids, anywhere.
STEP_WEIGHT, ALLOWED_WEIGHT, ANYWHERE_WEIGHT = 0.45, 0.45, 0.10


_OPENING = "An opening bid is true by rule; believing risks {:.2f}"
_WEIGHED = "P({} true | {} outside, bid model β {:.2f}) = {:.2f}; believing risks {:.2f}"


@register_strategy(
    "blufpoker",
    "bayes",
    about="Ours: learns how often each player bluffs, weighs what a bid reveals, and calls "
    "or believes whichever risks a penalty less.",
)
class BayesAgent(BlufpokerStrategy):
    """Posterior over the cup from dice and bids; risk-minimising calls, rolls and bids."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self._read = 0  # events of the log already learned from
        self._last_bid: BidMade | None = None
        self._bluffs: dict[int, float] = {}
        self._truths: dict[int, float] = {}

    # --- learning ---------------------------------------------------------------------

    def _learn(self, view: BlufpokerView) -> None:
        """Update each bidder's truthfulness from the cups lifted since the last look."""
        for event in view.events_since(self._read):
            kind = type(event)
            if kind is BidMade:
                assert isinstance(event, BidMade)
                self._last_bid = event
            elif kind is Opened:
                self._last_bid = None
            elif kind is Called:
                assert isinstance(event, Called)
                last = self._last_bid
                if last is not None and last.seat == event.bidder and event.roll > last.over:
                    table = self._truths if event.roll == event.bid else self._bluffs
                    table[event.bidder] = table.get(event.bidder, 0.0) + 1.0
        self._read = view.log_length

    def bluff_rate(self, seat: int) -> float:
        """The learned chance that `seat` bluffs although its roll beats the bid (β)."""
        bluffs = self._bluffs.get(seat, 0.0) + PRIOR[0]
        return bluffs / (bluffs + self._truths.get(seat, 0.0) + PRIOR[1])

    def posterior(self, view: BlufpokerView) -> dict[int, float]:
        """P(cup = rank | visible dice, the bid, the bidder's model), normalised."""
        current = view.bid
        assert current is not None
        known = view.knowledge.known
        if known is not None:
            return {known.rank: 1.0}
        visible, b, b0 = view.visible, current.rank, view._over
        beta = self.bluff_rate(view.bidder)
        above = RANKS - 1 - b0
        steps = min(3, above)
        jump = ANYWHERE_WEIGHT / above
        if b - b0 <= 3:
            jump += STEP_WEIGHT / steps
        allowed = [r for r in CONSISTENT[visible] if r > b0][:3]
        if b in allowed:
            jump += ALLOWED_WEIGHT / len(allowed)
        prior = P_WORLD[visible]
        post: dict[int, float] = {}
        total = 0.0
        for w in CONSISTENT[visible]:
            # A roll above the old bid is bid as it is, or bluffed anyway with chance β.
            likelihood = (1.0 - beta) * (w == b) + beta * jump if w > b0 else jump
            mass = prior[w] * likelihood
            if mass > 0.0:
                post[w] = mass
                total += mass
        if total == 0.0:  # the model cannot explain the bid: fall back on the dice alone
            return {w: prior[w] for w in CONSISTENT[visible]}
        return {w: m / total for w, m in post.items()}

    # --- decisions ----------------------------------------------------------------------

    def decide(self, view: BlufpokerView) -> Decision:
        """Call when the bid is less likely true than believing is likely to cost."""
        self._learn(view)
        current = view.bid
        assert current is not None
        post = self.posterior(view)
        b = current.rank
        p_true = sum(p for w, p in post.items() if w >= b)
        plan = planner(b)
        risk = sum(p * (1.0 - plan.turn_value(RANK_DICE[w])) for w, p in post.items())
        args: tuple[object, ...]
        if view._opening:
            why, args = _OPENING, (risk,)
        else:
            bluffs = self.bluff_rate(view.bidder)
            why, args = _WEIGHED, (current, dice_text(view.visible), bluffs, p_true, risk)
        if p_true < risk:
            return Decision(CALL, Thought(why + ": I call.", args=args))
        return Decision(BELIEVE, Thought(why + ": I believe.", args=args))

    def roll(self, view: BlufpokerView) -> Decision:
        """Roll what the planner says gives the best chance of no penalty, or stop."""
        current = view.bid
        assert current is not None
        value, dice = planner(current.rank).best(view.untouched, view.fresh)
        if not dice:
            return stop("Stopping keeps my chance of no penalty highest ({:.2f}).", value)
        why = "Rolling {} gives the best chance of no penalty: {:.2f}."
        return roll(dice, why, dice_text(dice), value)

    def bid(self, view: BlufpokerView) -> Decision:
        """A true bid if the cup beats the bid (665 for a poker); else the likeliest bluff."""
        current, cup = view.bid, view.cup
        assert current is not None and cup is not None
        if cup > current:
            choice = ROLLS[safe_bid(cup.rank, current.rank)]
            if choice == cup:
                return bid(cup, "My {} beats {}: I bid it.", cup, current)
            why = "My poker {} beats {}: I bid {}, true and out of reach of the poker phase."
            return bid(choice, why, cup, current, choice)
        rank, chance = best_bluff(view.untouched, current.rank)
        choice = ROLLS[rank]
        why = (
            "My {} does not beat {}: I bluff {}, believed with chance {:.2f} "
            "(by my model of the next player)."
        )
        return bid(choice, why, cup, current, choice, chance)
