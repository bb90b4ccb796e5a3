"""The report's naive strategies, composed as `roll/bid/call` (e.g. `greedy/truthful/believe`).

- call: `random` (call with probability 0.2, always on 666), `believe` (never call),
  `never` (always call: never believe);
- roll: `random` (one random die), `lowest` (the lowest die), `random-lowest` (the n
  lowest dice, n from 1 to 3 at random), `greedy` (every die below 6);
- bid: `truthful` (the roll if it beats the bid, else 1–3 ranks above the bid),
  `overbid` (1–3 ranks above the bid, whatever the roll).

A naive player rolls its chosen dice at once, then stops. Compiled with mypyc
(`epigames.native`), as plain Python it plays the same games.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable
from typing import Final

from epigames.games.blufpoker import actions as _actions, dice as _dice
from epigames.games.blufpoker.dice import Dice, dice_text
from epigames.games.blufpoker.strategies.base import (
    BlufpokerStrategy,
    above,
    bid,
    decided,
    roll,
    stop,
)
from epigames.games.blufpoker.views import BlufpokerView
from epigames.games.strategy import Decision, register_strategy

CALLS = ("random", "believe", "never")
ROLLS_ = ("random", "lowest", "random-lowest", "greedy")
BIDS_ = ("truthful", "overbid")
CALL_CHANCE = 0.2
"""How often the `random` call option calls."""

# What a decision reads, as final globals: compiled, each is one C static read instead
# of a lookup in the module's dictionary.
BELIEVE: Final = _actions.BELIEVE
CALL: Final = _actions.CALL
RANK_OF: Final = _dice.RANK_OF
RANKS: Final = _dice.RANKS
ROLLS: Final = _dice.ROLLS
SORTED: Final = _dice.SORTED
_CALL_CHANCE: Final = CALL_CHANCE


class Naive(BlufpokerStrategy):
    """A naive player: one option for rolling, one for bidding, one for calling.

    Registered by its `roll/bid/call` names by `_register` (see `BlufpokerStrategy`).

    Attributes:
        rolling: one of `ROLLS_`.
        bidding: one of `BIDS_`.
        calling: one of `CALLS`.
    """

    def __init__(self, rng: random.Random, rolling: str, bidding: str, calling: str) -> None:
        super().__init__(rng)
        self.rolling, self.bidding, self.calling = rolling, bidding, calling

    def decide(self, view: BlufpokerView) -> Decision:
        """Call or believe by the call option alone."""
        rank = view._bid
        calling = self.calling
        if calling == "believe":
            decision = _BELIEVED.get(rank)
            if decision is None:
                why = "I believe every bid, so {} too."
                decision = _BELIEVED[rank] = decided(BELIEVE, why, ROLLS[rank])
            return decision
        if calling == "never":
            key: Hashable = ("never", rank)
            decision = _MADE.get(key)
            if decision is None:
                why = "I never believe a bid: I call {}."
                decision = _MADE[key] = decided(CALL, why, ROLLS[rank])
            return decision
        if rank == 55:
            decision = _MADE.get("666")
            if decision is None:
                decision = _MADE["666"] = decided(CALL, "Nobody can beat 666: I call it.")
            return decision
        draw = self.rng.random()
        if draw < _CALL_CHANCE:
            return decided(CALL, "I call {} (draw {:.2f} < {}).", ROLLS[rank], draw, _CALL_CHANCE)
        why = "I believe {} (draw {:.2f} ≥ {})."
        return decided(BELIEVE, why, ROLLS[rank], draw, _CALL_CHANCE)

    def roll(self, view: BlufpokerView) -> Decision:
        """Roll the chosen dice at once; stop after that."""
        note = view._note
        assert note is not None
        dice, fresh = note
        if fresh:
            decision = _ROLLED.get(fresh)
            if decision is None:
                decision = _ROLLED[fresh] = stop("I rolled {}; I stop.", dice_text(fresh))
            return decision
        rolling = self.rolling
        if rolling == "random":
            die = dice[int(self.rng.random() * len(dice))]
            decision = _ONE_DIE.get(die)
            if decision is None:
                why = "I roll one die at random: the {}."
                decision = _ONE_DIE[die] = roll((die,), why, die)
            return decision
        if rolling == "lowest":
            key: Hashable = ("lowest", dice)
            decision = _MADE.get(key)
            if decision is None:
                why = "I roll the lowest die: the {}."
                decision = _MADE[key] = roll(dice[-1:], why, dice[-1])
            return decision
        if rolling == "random-lowest":
            n = 1 + int(self.rng.random() * len(dice))
            key = ("lowest n", dice, n)
            decision = _MADE.get(key)
            if decision is None:
                why = "I roll the {} lowest dice: {}."
                decision = _MADE[key] = roll(dice[-n:], why, n, dice_text(dice[-n:]))
            return decision
        decision = _GREEDY.get(dice)
        if decision is None:
            decision = _GREEDY[dice] = _greedy(dice)
        return decision

    def bid(self, view: BlufpokerView) -> Decision:
        """Bid the roll if it is high enough (truthful), else 1–3 ranks above the bid."""
        note = view._note
        assert note is not None
        rank = view._bid
        cup = RANK_OF[SORTED[note[0] + note[1]]]
        key = cup * RANKS + rank
        if self.bidding == "truthful" and cup > rank:
            decision = _TRUE_BIDS.get(key)
            if decision is None:
                why = "My {} beats {}: I bid it."
                decision = _TRUE_BIDS[key] = bid(ROLLS[cup], why, ROLLS[cup], ROLLS[rank])
            return decision
        steps = 1 + int(self.rng.random() * 3)
        if self.bidding == "overbid":
            key = rank * 4 + steps
            decision = _OVERBIDS.get(key)
            if decision is None:
                decision = _OVERBIDS[key] = _overbid(rank, steps)
            return decision
        key = key * 4 + steps
        decision = _STEPS.get(key)
        if decision is None:
            decision = _STEPS[key] = _step(cup, rank, steps)
        return decision


def _greedy(dice: Dice) -> Decision:
    low = tuple(d for d in dice if d < 6) or dice[-1:]
    return roll(low, "I roll every die below 6: {}.", dice_text(low))


def _overbid(rank: int, steps: int) -> Decision:
    target = above(rank, steps)
    return bid(target, "I overbid: {} rank{} up, {}.", steps, "s" * (steps > 1), target)


def _step(cup: int, rank: int, steps: int) -> Decision:
    target = above(rank, steps)
    why = "My {} does not beat {}: {} rank{} up, {}."
    return bid(target, why, ROLLS[cup], ROLLS[rank], steps, "s" * (steps > 1), target)


#: Decisions made once, by (branch, the dice and ranks they depend on); the frequent
#: ones in tables of their own, keyed by ints or dice, looked up without a call.
_MADE: Final[dict[Hashable, Decision]] = {}
_BELIEVED: Final[dict[int, Decision]] = {}  # by the rank believed
_ROLLED: Final[dict[Dice, Decision]] = {}  # by the faces rolled
_ONE_DIE: Final[dict[int, Decision]] = {}  # by the die rolled
_GREEDY: Final[dict[Dice, Decision]] = {}  # by the dice under the cup
_TRUE_BIDS: Final[dict[int, Decision]] = {}  # by cup * RANKS + bid to beat
_OVERBIDS: Final[dict[int, Decision]] = {}  # by bid to beat * 4 + steps
_STEPS: Final[dict[int, Decision]] = {}  # by (cup * RANKS + bid to beat) * 4 + steps


#: Each option in words, for the sentence that describes a `roll/bid/call` strategy.
ROLL_WORDS = {
    "random": "Rolls one die at random",
    "lowest": "Rolls its lowest die",
    "random-lowest": "Rolls its one to three lowest dice",
    "greedy": "Rolls every die below 6",
}
BID_WORDS = {
    "truthful": "bids its roll when that beats the bid (else one to three ranks higher)",
    "overbid": "bids one to three ranks above the bid, whatever it rolled",
}
CALL_WORDS = {
    "random": "calls one bid in five (and always 666)",
    "believe": "never calls",
    "never": "calls every bid",
}


def _register() -> None:
    for rolling in ROLLS_:
        for bidding in BIDS_:
            for calling in CALLS:
                name = f"{rolling}/{bidding}/{calling}"
                factory = functools.partial(
                    Naive, rolling=rolling, bidding=bidding, calling=calling
                )
                about = f"{ROLL_WORDS[rolling]}, {BID_WORDS[bidding]}, and {CALL_WORDS[calling]}."
                register_strategy("blufpoker", name, about)(factory)


_register()
