"""The strategy that reads no knowledge: a uniformly random legal card or trump call."""

from __future__ import annotations

from collections.abc import Hashable

from epigames.cards import Card
from epigames.games.core import View
from epigames.games.klaverjas.actions import Bid
from epigames.games.strategy import Thought, UniformRandom, register_strategy


@register_strategy("klaverjas", "random")
class RandomPlayer(UniformRandom):
    """Plays a uniformly random legal card; calls trump or passes uniformly at random."""

    def explain(self, view: View, action: Hashable) -> Thought:
        """The card, the pass or the trump."""
        if isinstance(action, Card):
            return Thought("I play {} at random.", args=(action,))
        assert isinstance(action, Bid)
        if action.suit is None:
            return Thought("I pass at random.")
        return Thought("I choose {} as trump at random.", args=(action.suit,))
