"""Kwartet: collect quartets by asking opponents for cards (rules, cards, strategies)."""

from epigames.games.kwartet import strategies
from epigames.games.kwartet.cards import ASKS, CARDS, SEAT_NAMES, Ask, Card, CardSyntaxError
from epigames.games.kwartet.events import (
    Asked,
    DealDone,
    Dealt,
    GameOver,
    LaidDown,
    OutOfCards,
)
from epigames.games.kwartet.rules import KwartetGame, KwartetState
from epigames.games.kwartet.views import KwartetView

__all__ = [
    "ASKS",
    "CARDS",
    "SEAT_NAMES",
    "Ask",
    "Asked",
    "Card",
    "CardSyntaxError",
    "DealDone",
    "Dealt",
    "GameOver",
    "KwartetGame",
    "KwartetState",
    "KwartetView",
    "LaidDown",
    "OutOfCards",
    "strategies",
]
