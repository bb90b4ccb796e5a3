"""Kemps: collect four of a kind by swapping cards with the table (rules, strategies);
with `teams=true` the team game of signals, Kemps! and Stop Kemps."""

from epigames.games.kemps import strategies
from epigames.games.kemps.actions import (
    DONE,
    PASS,
    SIGNAL,
    Call,
    Done,
    KempsActionError,
    Pass,
    Signal,
    Swap,
    kemps_deck,
)
from epigames.games.kemps.events import (
    Called,
    Dealt,
    GameDealt,
    GameOver,
    Kemps,
    NewHand,
    NoKemps,
    OneRank,
    Passed,
    Signalled,
    Swapped,
    TableCleared,
    TableDealt,
    TeamTurnEnded,
    TurnEnded,
)
from epigames.games.kemps.rules import KempsGame, KempsState
from epigames.games.kemps.views import KempsView

__all__ = [
    "DONE",
    "PASS",
    "SIGNAL",
    "Call",
    "Called",
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
    "OneRank",
    "Pass",
    "Passed",
    "Signal",
    "Signalled",
    "Swap",
    "Swapped",
    "TableCleared",
    "TableDealt",
    "TeamTurnEnded",
    "TurnEnded",
    "kemps_deck",
    "strategies",
]
