"""The strategy that reads no knowledge: a uniformly random legal ask."""

from __future__ import annotations

from epigames.games.core import View
from epigames.games.kwartet.cards import ASKS
from epigames.games.kwartet.views import KwartetView
from epigames.games.strategy import Decision, Strategy, Thought, register_strategy


@register_strategy("kwartet", "random")
class RandomAsker(Strategy):
    """Asks a uniformly random opponent with cards for a uniformly random askable card.

    The legal asks are exactly targets × askable cards, so two independent uniform draws
    give a uniform legal action without building the whole list.
    """

    def choose(self, view: View) -> Decision:
        """A uniformly random legal ask."""
        assert isinstance(view, KwartetView)
        rng = self.rng
        targets, cards = view.targets, view.askable_cards
        target = targets[int(rng.random() * len(targets))]
        card = cards[int(rng.random() * len(cards))]
        name = view.game.seat_names[target]
        thought = Thought("I ask {} for {} at random.", args=(name, card))
        return Decision(ASKS[target][card.index], thought)
