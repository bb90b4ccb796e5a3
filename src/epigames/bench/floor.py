"""What a game's own machinery allows: the benchmark's games replayed with no agent thinking.

The games of a workload are played once, then replayed twice from their records:

- through a `Match` with a person at every seat: before each recorded move the mover's view
  is built, as for an agent, and the move goes through `Match.apply` (the rules, the
  events, the seats' logs and records, the views and the play loop: all but the thinking);
- through the rules alone: `State.apply` of the recorded history on a new state.

Their rates bound what any strategy or knowledge engine could reach on the same rules: a
goal against a seed program above the replay's ratio cannot be met by faster agents.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from epigames.errors import IllegalActionError
from epigames.games import Match, MatchResult, load_game


class ReplayMismatchError(AssertionError):
    """A replay did not reproduce the recorded game (a bug: a replay is deterministic)."""


@dataclass(frozen=True, slots=True)
class Floor:
    """A workload's rates in games per second (wall clock).

    Attributes:
        label: the workload.
        ours: its games played by the agents.
        replayed: the same games replayed through a match, views built, nothing thought.
        rules: the same games replayed through the rules alone.
        seed: the seed program's rate on the workload, measured beside ours.
        goal: the ratio against the seed program that the issue asks for.
    """

    label: str
    ours: float
    replayed: float
    rules: float
    seed: float
    goal: float


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


def _rate(replay: Callable[[MatchResult], tuple[float, ...]], results: list[MatchResult]) -> float:
    start = time.perf_counter()
    for result in results:
        if replay(result) != result.returns:
            raise ReplayMismatchError(f"seed {result.seed}: the replay ended differently")
    return len(results) / (time.perf_counter() - start)


def floor(
    label: str,
    play: Callable[[int], MatchResult],
    games: int,
    ours: float,
    seed: float,
    goal: float,
) -> Floor:
    """Play `play(seed)` for seeds 0..games-1, then time both replays of those games.

    Raises:
        ReplayMismatchError: a replay ended otherwise than the game it replays.
    """
    results = [play(seed) for seed in range(games)]
    return Floor(
        label, ours, _rate(replay_through_match, results), _rate(replay_rules, results), seed, goal
    )


def print_floors(console: Console, rows: Sequence[Floor]) -> None:
    """The table of replay rates and the ratios they allow against the seed programs."""
    table = Table(
        title="What the rules allow: the same games replayed, no agent thinking (games/s)",
        title_justify="left",
    )
    columns = (
        "workload",
        "ours",
        "replayed through a match",
        "rules alone",
        "seed program",
        "ratio: ours / replayed / rules",
        "goal",
    )
    for column in columns:
        table.add_column(column, justify="left" if column == "workload" else "right")
    for row in rows:
        rates = (row.ours, row.replayed, row.rules)
        ratios = " / ".join(f"{rate / row.seed:.1f}×" for rate in rates)
        table.add_row(
            row.label,
            f"{row.ours:,.1f}",
            f"{row.replayed:,.1f}",
            f"{row.rules:,.1f}",
            f"{row.seed:,.1f}",
            ratios,
            f"≥ {row.goal:.0f}×",
        )
    console.print(table)
    console.print(
        "A goal above the replayed ratio needs the rules, events and views themselves "
        "faster, whatever the agents cost; above the rules-alone ratio, the rules."
    )
