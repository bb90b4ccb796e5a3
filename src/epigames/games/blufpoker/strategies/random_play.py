"""`random`: a uniformly random legal action (a baseline and a fuzzer for the rules)."""

from __future__ import annotations

from epigames.games.strategy import UniformRandom, register_strategy


@register_strategy("blufpoker", "random")
class RandomPlayer(UniformRandom):
    """Picks a uniformly random legal action."""
