"""Sevens players: `random`, and `blocker`, which reads its knowledge of who holds what."""

from __future__ import annotations

from epigames.cards.deck import Card
from epigames.games.core import View
from epigames.games.sevens.rules import KNOCK, SevensGame, playable
from epigames.games.strategy import Decision, Strategy, Thought, UniformRandom, register_strategy
from epigames.games.table import TableView


@register_strategy("sevens", "random", about="Plays any playable card, at random.")
class RandomSevens(UniformRandom):
    """Any legal move, uniformly."""


@register_strategy(
    "sevens",
    "blocker",
    about="Opens cards it holds itself and keeps closed those the next seat may hold.",
)
class Blocker(Strategy):
    """Plays the card whose newly playable cards help itself most and the next seat least.

    For each card it may play, the cards that play would open count +1 when the blocker
    holds them and minus the exact chance that the next seat holds them (from its
    knowledge: a seat that knocked cannot hold what was playable then).
    """

    def choose(self, view: View) -> Decision:
        """The best-scoring playable card, or a knock when there is none."""
        legal = list(view.legal_actions)
        if legal == [KNOCK]:
            return Decision(KNOCK, Thought("I hold no playable card: I knock."))
        assert isinstance(view, TableView) and isinstance(view.game, SevensGame)
        deck = view.game.deck
        table = tuple(c for c in view.piles["table"] if isinstance(c, Card))
        after = (view.seat + 1) % view.game.players
        knowledge = view.knowledge
        before = set(playable(deck, table))

        def score(card: Card) -> tuple[float, int]:
            opened = set(playable(deck, (*table, card))) - before
            gain = sum(
                1.0 if c in view.hand else -float(knowledge.probability(c, after)) for c in opened
            )
            return gain, -deck.index(card)

        best = max((c for c in legal if isinstance(c, Card)), key=score)
        why = "I play {}: what it opens scores {:+.2f} for me against {}."
        next_seat = view.game.seat_names[after]
        return Decision(best, Thought(why, args=(best, score(best)[0], next_seat)))
