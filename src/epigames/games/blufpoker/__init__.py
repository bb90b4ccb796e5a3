"""Blufpoker: bluff about three dice under a cup (rules, rolls, knowledge, strategies)."""

from epigames.games.blufpoker import strategies
from epigames.games.blufpoker.actions import (
    BELIEVE,
    BIDS,
    CALL,
    STOP,
    Action,
    ActionSyntaxError,
    Believe,
    Bid,
    Call,
    Keep,
    RollDice,
    Stop,
    Throw,
    parse_action,
)
from epigames.games.blufpoker.dice import RANKS, ROLLS, Roll, RollError
from epigames.games.blufpoker.knowledge import CupKnowledge, UndefinedBeliefError
from epigames.games.blufpoker.rules import PHASES, SEAT_NAMES, BlufpokerGame, BlufpokerState
from epigames.games.blufpoker.views import BlufpokerView

__all__ = [
    "BELIEVE",
    "BIDS",
    "CALL",
    "PHASES",
    "RANKS",
    "ROLLS",
    "SEAT_NAMES",
    "STOP",
    "Action",
    "ActionSyntaxError",
    "Believe",
    "Bid",
    "BlufpokerGame",
    "BlufpokerState",
    "BlufpokerView",
    "Call",
    "CupKnowledge",
    "Keep",
    "Roll",
    "RollDice",
    "RollError",
    "Stop",
    "Throw",
    "UndefinedBeliefError",
    "parse_action",
    "strategies",
]
