"""`random`: a uniformly random legal action (a baseline and a fuzzer for the rules)."""

from __future__ import annotations

from epigames.games.core import View
from epigames.games.strategy import Decision, Strategy, Thought, register_strategy


@register_strategy("blufpoker", "random")
class RandomPlayer(Strategy):
    """Picks a uniformly random legal action."""

    name = "random"

    def choose(self, view: View) -> Decision:
        """Any legal action, uniformly."""
        legal = view.legal_actions
        action = legal[int(self.rng.random() * len(legal))]
        return Decision(
            action, Thought(f"I pick {action} at random among {len(legal)} legal actions.")
        )
