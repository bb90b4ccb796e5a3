"""Replays of recorded games with no agent thinking: what a game's own machinery allows.

Not a benchmark by itself: `bench.seeds.side_by_side` times a workload's games replayed
twice from their records, in the rounds it runs beside a seed program:

- through a `Match` with a person at every seat: before each recorded move the mover's view
  is built, as for an agent, and the move goes through `Match.apply` (the rules, the
  events, the seats' logs and records, the views and the play loop: all but the thinking);
- through the rules alone: `State.apply` of the recorded history on a new state.

Their rates bound what any strategy or knowledge engine could reach on the same rules: a
goal against a seed program above the replay's ratio cannot be met by faster agents.
"""

from __future__ import annotations

from collections.abc import Callable

from epigames.errors import IllegalActionError
from epigames.games import Match, MatchResult, load_game


class ReplayMismatchError(AssertionError):
    """A replay did not reproduce the recorded game (a bug: a replay is deterministic)."""


#: A replay of a finished match; returns the final returns.
Replay = Callable[[MatchResult], tuple[float, ...]]


def replay_through_match(result: MatchResult) -> tuple[float, ...]:
    """Replay a finished match with a person at every seat; returns the final returns.

    Chance draws from the match's own seeded stream, so the outcomes are the recorded ones.
    """
    match = Match(result.game, result.strategies, result.seed, humans=range(len(result.returns)))
    state = match.state
    for entry in result.transcript:
        seat = match.waiting_for()
        if seat != entry.seat:
            raise ReplayMismatchError(f"seed {result.seed}: seat {seat} to move, not {entry.seat}")
        state.observation(seat)  # the view an agent would be given
        try:
            match.apply(entry.action)
        except IllegalActionError as exc:
            raise ReplayMismatchError(f"seed {result.seed}: {exc}") from None
    match.run_chance()
    return tuple(state.returns())


def replay_rules(result: MatchResult) -> tuple[float, ...]:
    """Apply a finished match's recorded history to a new state; returns the final returns."""
    state = load_game(result.game).new_initial_state()
    try:
        for action in result.history:
            state.apply(action)
    except IllegalActionError as exc:
        raise ReplayMismatchError(f"seed {result.seed}: {exc}") from None
    return tuple(state.returns())


def checked(replay: Replay) -> Callable[[MatchResult], None]:
    """`replay`, raising `ReplayMismatchError` when a game ends otherwise than recorded."""

    def run(result: MatchResult) -> None:
        if replay(result) != result.returns:
            raise ReplayMismatchError(f"seed {result.seed}: the replay ended differently")

    return run
