"""Klaverjas: the Dutch trick-taking game for two teams of two (rules, views, strategies)."""

from epigames.games.klaverjas import strategies
from epigames.games.klaverjas.actions import BIDS, PASS, ActionSyntaxError, Bid
from epigames.games.klaverjas.events import (
    CardPlayed,
    DealDone,
    DealScored,
    Dealt,
    MatchOver,
    Passed,
    TrickWon,
    TrumpChosen,
)
from epigames.games.klaverjas.play import (
    SEAT_NAMES,
    TEAM_NAMES,
    Inference,
    inference,
    legal_cards,
    roem,
    score_deal,
)
from epigames.games.klaverjas.rules import KlaverjasGame, KlaverjasState
from epigames.games.klaverjas.views import KlaverjasView

__all__ = [
    "BIDS",
    "PASS",
    "SEAT_NAMES",
    "TEAM_NAMES",
    "ActionSyntaxError",
    "Bid",
    "CardPlayed",
    "DealDone",
    "DealScored",
    "Dealt",
    "Inference",
    "KlaverjasGame",
    "KlaverjasState",
    "KlaverjasView",
    "MatchOver",
    "Passed",
    "TrickWon",
    "TrumpChosen",
    "inference",
    "legal_cards",
    "roem",
    "score_deal",
    "strategies",
]
