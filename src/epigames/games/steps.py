"""Seeded matches replayed to a step: the states `epigames ask` answers formulas on."""

from __future__ import annotations

from collections.abc import Sequence

from epigames.games.ask import StepError
from epigames.games.core import Game
from epigames.games.match import Match

__all__ = ["StepError", "match_at"]


def match_at(game: Game | str, strategies: Sequence[str], seed: int, step: int) -> Match:
    """A seeded match played to the state after `step` decisions (and the chance after them).

    Step 0 is the first decision point (the deal done); the last step is the end.

    Raises:
        StepError: the match ends before `step`.
    """
    match = Match(game, strategies, seed)
    if step < 0:
        raise StepError(f"step {step} is negative; steps count decisions from 0")
    for done in range(step):
        match.run_chance()
        if match.over:
            raise StepError(
                f"step {step} is past the end: this match has {done} decisions (steps 0..{done})"
            )
        match.step()
    match.run_chance()
    return match
