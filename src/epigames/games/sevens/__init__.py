"""Sevens, the template card game: one location table, events with facts, two players."""

from epigames.games.sevens import strategies
from epigames.games.sevens.rules import KNOCK, SevensGame, SevensState, legal_moves, playable

__all__ = ["KNOCK", "SevensGame", "SevensState", "legal_moves", "playable", "strategies"]
