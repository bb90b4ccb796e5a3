"""Kemps: collect four of a kind by swapping cards with the table (rules, strategies)."""

from epigames.games.kemps import strategies
from epigames.games.kemps.actions import DONE, Done, KempsActionError, Swap, kemps_deck
from epigames.games.kemps.events import (
    Dealt,
    GameDealt,
    GameOver,
    Kemps,
    NewHand,
    NoKemps,
    Swapped,
    TableCleared,
    TableDealt,
    TurnEnded,
)
from epigames.games.kemps.rules import KempsGame, KempsState
from epigames.games.kemps.views import KempsView

__all__ = [
    "DONE",
    "Dealt",
    "Done",
    "GameDealt",
    "GameOver",
    "Kemps",
    "KempsActionError",
    "KempsGame",
    "KempsState",
    "KempsView",
    "NewHand",
    "NoKemps",
    "Swap",
    "Swapped",
    "TableCleared",
    "TableDealt",
    "TurnEnded",
    "kemps_deck",
    "strategies",
]
