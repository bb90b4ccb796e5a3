"""The strategy that reads no knowledge: a uniformly random legal card or trump call."""

from __future__ import annotations

from epigames.cards import Card
from epigames.games.core import View
from epigames.games.klaverjas.views import KlaverjasView
from epigames.games.strategy import Decision, Strategy, Thought, register_strategy


@register_strategy("klaverjas", "random")
class RandomPlayer(Strategy):
    """Plays a uniformly random legal card; calls trump or passes uniformly at random."""

    name = "random"

    def choose(self, view: View) -> Decision:
        """A uniformly random legal action."""
        assert isinstance(view, KlaverjasView)
        legal = view.legal_actions
        action = legal[int(self.rng.random() * len(legal))]
        if isinstance(action, Card):
            return Decision(action, Thought(f"I play {action} at random.", frozenset([action])))
        if action.suit is None:
            return Decision(action, Thought("I pass at random."))
        return Decision(action, Thought(f"I choose {action.suit} as trump at random."))
