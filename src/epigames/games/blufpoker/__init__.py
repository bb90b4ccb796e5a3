"""Blufpoker: bluff about three dice under a cup (rules, rolls, knowledge, strategies)."""

from epigames.games.blufpoker import strategies as strategies
from epigames.games.blufpoker.actions import (
    BELIEVE as BELIEVE,
    BIDS as BIDS,
    CALL as CALL,
    STOP as STOP,
    Action as Action,
    ActionSyntaxError as ActionSyntaxError,
    Believe as Believe,
    Bid as Bid,
    Call as Call,
    Keep as Keep,
    RollDice as RollDice,
    Stop as Stop,
    Throw as Throw,
    parse_action as parse_action,
)
from epigames.games.blufpoker.dice import (
    RANKS as RANKS,
    ROLLS as ROLLS,
    Roll as Roll,
    RollError as RollError,
)
from epigames.games.blufpoker.knowledge import (
    CupKnowledge as CupKnowledge,
    UndefinedBeliefError as UndefinedBeliefError,
)
from epigames.games.blufpoker.rules import (
    PHASES as PHASES,
    SEAT_NAMES as SEAT_NAMES,
    BlufpokerGame as BlufpokerGame,
    BlufpokerState as BlufpokerState,
)
from epigames.games.blufpoker.views import BlufpokerView as BlufpokerView
