"""The strategy that reads no knowledge (a uniformly random legal action), and the team
game's signal and call policy that the report's strategies share."""

from __future__ import annotations

from collections.abc import Hashable

from epigames.games.core import View
from epigames.games.kemps.actions import DONE, OF_A_KIND, PASS, SIGNAL, Call, Swap
from epigames.games.kemps.views import KempsView
from epigames.games.strategy import Decision, Thought, UniformRandom, register_strategy


@register_strategy("kemps", "random")
class RandomPlayer(UniformRandom):
    """Ends the turn or makes a swap, uniformly at random among the legal actions."""

    def explain(self, view: View, action: Hashable) -> Thought:
        """Which swap, or the end of the turn."""
        assert isinstance(view, KempsView)
        if isinstance(action, Swap):
            taken = view.table[action.slot]
            text = "I take {} and put down {} at random."
            return Thought(text, args=(taken, action.card))
        return Thought("I end my turn at random.")


def team_move(view: KempsView) -> Decision | None:
    """The team game's decisions outside the swaps, or None for a swap-planning turn: in a
    call window, Kemps! when the partner's signal still shows four of a kind, else pass;
    at the end of a turn, the signal as soon as the hand is four of a kind."""
    game = view.kemps_game
    if not game.team_game:
        return None
    if view.window:
        partner = game.partner(view.seat)
        told = [fact for fact in view.told if fact.seat == partner]
        if any(all(m.bit_count() == OF_A_KIND for m in fact.cases) for fact in told):
            name = game.seat_names[partner]
            return Decision(Call(partner, False), Thought("{} signalled: Kemps!", args=(name,)))
        return Decision(PASS, Thought("I know of no four of a kind to call."))
    if view.four_of_a_kind:
        return Decision(SIGNAL, Thought("My four cards are of one rank: I signal to my partner."))
    return None


def end_turn(view: KempsView, thought: Thought) -> Decision:
    """`done`, or in the team game the signal when the hand is four of a kind."""
    move = team_move(view)
    return move if move is not None else Decision(DONE, thought)
