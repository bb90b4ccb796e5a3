"""The strategy that reads no knowledge: a uniformly random legal action."""

from __future__ import annotations

from epigames.games.core import View
from epigames.games.kemps.actions import Swap
from epigames.games.kemps.views import KempsView
from epigames.games.strategy import Decision, Strategy, Thought, register_strategy


@register_strategy("kemps", "random")
class RandomPlayer(Strategy):
    """Ends the turn or makes a swap, uniformly at random among the legal actions."""

    name = "random"

    def choose(self, view: View) -> Decision:
        """A uniformly random legal action."""
        assert isinstance(view, KempsView)
        legal = view.legal_actions
        action = legal[int(self.rng.random() * len(legal))]
        if isinstance(action, Swap):
            taken = view.table[action.slot]
            text = f"I take {taken} and put down {action.card} at random."
            return Decision(action, Thought(text, frozenset([action.card])))
        return Decision(action, Thought("I end my turn at random."))
