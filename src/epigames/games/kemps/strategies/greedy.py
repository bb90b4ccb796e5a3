"""The 2023 report's strategies: greedy, KB greedy and blocking.

All three plan a whole turn at its first decision from the hand and the table (hand
first), as the report's program does, and then play the plan one swap at a time:

- *greedy* counts the ranks in view and commits to the most frequent ones (as many as fit
  in four cards, ties to the rank seen first), then takes those ranks' table cards,
  putting down hand cards of other ranks in a random order;
- *kbgreedy* first drops every rank the seat must not collect: a rank some card of which
  may be in another player's hand (the seat's exact knowledge), and a rank on its
  do-not-collect list; no rank left, no move;
- *blocking* is kbgreedy, then it takes table cards of ranks on the do-not-collect list
  (and, unless `seed_compat`, of ranks other players may be collecting) with the hand
  cards it does not need, and keeps such cards in its hand.

Without `seed_compat` the do-not-collect list is the ranks of which some card is known
to be in another player's hand, and "may be in another player's hand" is the seat's
exact knowledge. With `seed_compat` (the `2023` strategies) both come from the program's
own knowledge base, replayed from the seat's log with its known faults
(`seedkb.SeedKnowledge`), and blocking keeps the program's bug: it never blocks a rank
for being possibly held by others, only for being on the list.
"""

from __future__ import annotations

import random

from epigames.games.core import View
from epigames.games.kemps.actions import DONE
from epigames.games.kemps.strategies.planner import (
    Plan as Plan,
    SwapSheet as SwapSheet,
    TurnPlan as TurnPlan,
    _thought,
    do_not_collect as do_not_collect,
    known_elsewhere_ranks as known_elsewhere_ranks,
    maybe_elsewhere as maybe_elsewhere,
    maybe_elsewhere_ranks as maybe_elsewhere_ranks,
    plan_turn as plan_turn,
    seed_knowledge as seed_knowledge,
)
from epigames.games.kemps.strategies.seedkb import SeedKnowledge
from epigames.games.kemps.strategies.simple import end_turn, team_move
from epigames.games.kemps.views import KempsView
from epigames.games.strategy import Decision, Strategy, register_strategy

#: `Decision(action, thought)` without the named tuple's Python `__new__` (one per move).
_decision = tuple.__new__


class ReportPlayer(Strategy):
    """Plays a turn's plan (`plan`, by default `plan_turn`) swap by swap, then ends the turn."""

    kb_based = False
    blocking = False
    seed_compat = False

    def __init_subclass__(cls, **switches: bool) -> None:
        """A variant sets the switches above as class arguments (`kb_based=True`)."""
        super().__init_subclass__()
        for key, value in switches.items():
            if key not in ("kb_based", "blocking", "seed_compat"):
                raise TypeError(f"{cls.__name__}: no switch {key!r}")
            setattr(cls, key, value)

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self._plan: TurnPlan | None = None
        self._turn = -1
        # The game's swaps per turn and whether it is the team game, read at each plan.
        self._limit = 0
        self._team = False
        self._seed_kb: SeedKnowledge | None = None

    def plan(self, view: KempsView) -> TurnPlan:
        """This turn's plan, at its first decision."""
        seed_kb = None
        if self.kb_based and self.seed_compat:
            # The replay is a function of the log: kept only to fold new events.
            seed_kb = self._seed_kb = seed_knowledge(view, self._seed_kb)
        return plan_turn(view, self.rng, self.kb_based, self.blocking, self.seed_compat, seed_kb)

    def choose(self, view: View) -> Decision:
        """The next swap of this turn's plan, or `done` (the team game: the signal as soon
        as the hand allows, and Kemps! on the partner's signal)."""
        assert isinstance(view, KempsView)
        if view.window:
            move = team_move(view)
            assert move is not None
            return move
        swaps, plan = view.swaps, self._plan
        if swaps == 0 or plan is None or self._turn != view.turns:
            plan = self._plan = self.plan(view)
            self._turn = view.turns
            game = view.kemps_game
            self._limit, self._team = game.max_swaps, game.team_game
        moves = plan.swaps
        if swaps < len(moves) and swaps < self._limit:
            action = moves[swaps]
            args = (plan, view.table[action.slot], action.card)
            text = "{} I take {} and put down {}."
            if type(plan) is Plan:  # `Plan.thought`, written out
                return _decision(Decision, (action, _thought(text, (), args)))
            return _decision(Decision, (action, plan.thought(text, *args)))
        if type(plan) is Plan:
            thought = _thought("{} I end my turn.", (), (plan,))
        else:
            thought = plan.thought("{} I end my turn.", plan)
        if self._team:
            return end_turn(view, thought)
        return _decision(Decision, (DONE, thought))


@register_strategy("kemps", "greedy")
class Greedy(ReportPlayer):
    """Collects the most frequent ranks in view, reading no knowledge."""


@register_strategy(
    "kemps",
    "kbgreedy",
    about="Collects the ranks it knows nobody else may hold or collect.",
)
class KBGreedy(ReportPlayer, kb_based=True):
    """Greedy over the ranks nobody else may hold or collect."""


@register_strategy(
    "kemps",
    "blocking",
    about="Collects like kbgreedy and takes away the cards others may collect.",
)
class Blocking(ReportPlayer, kb_based=True, blocking=True):
    """KB greedy, and takes the cards others may collect with the cards it does not need."""


@register_strategy(
    "kemps",
    "kbgreedy2023",
    about="kbgreedy on the 2023 program's own knowledge base, as that program played it.",
)
class KBGreedy2023(KBGreedy, seed_compat=True):
    """KB greedy on the program's own knowledge base and do-not-collect list (`seed_compat`)."""


@register_strategy(
    "kemps",
    "blocking2023",
    about="blocking on the 2023 program's knowledge base, its blocking bug included.",
)
class Blocking2023(Blocking, seed_compat=True):
    """Blocking on the program's knowledge base, with its blocking bug (`seed_compat`)."""
