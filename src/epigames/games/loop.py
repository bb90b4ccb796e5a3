"""The agents' play loop that `Match.run` runs, compiled with mypyc (`epigames.native`).

Its own module, apart from `match.py` (whose dataclasses, seeded generators and game
loading stay plain Python), so that mypyc compiles only the loop: per decision it reads
whose turn it is, draws chance outcomes, asks the seat's strategy and records the
decision, and compiled these steps cost no bytecode dispatch. As plain Python it plays
the same games.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Final

from epigames.errors import IllegalActionError
from epigames.games.core import State, View
from epigames.games.events import Event
from epigames.games.outcomes import WeightedOutcomes
from epigames.games.strategy import Decision
from epigames.games.turn import TERMINAL

_TERMINAL: Final = TERMINAL
_after: Final = bisect.bisect_right
_new_entry: Final = tuple.__new__
_WEIGHTED: Final = WeightedOutcomes  # a C static read, not a module dictionary lookup

#: A seat's strategy's `choose`, None at a person's seat.
Chooser = Callable[[View], Decision] | None


class BadChoice(Exception):
    """A strategy chose an illegal action: its seat and the rules' error."""

    def __init__(self, seat: int, error: IllegalActionError) -> None:
        super().__init__(seat, error)
        self.seat = seat
        self.error = error


def play_agents(
    state: State,
    choosers: list[Chooser],
    chance_rng: random.Random,
    sample: Callable[[Sequence[tuple[Hashable, float]], random.Random], Hashable],
    log: Sequence[Event] | None,
    transcript: list[Any],
    entry: type,
) -> int:
    """Play chance and the agents' decisions until the end or a person's turn.

    Chance outcomes of a `WeightedOutcomes` are drawn here as `sample` draws them; others
    by `sample`. Each decision is appended to `transcript` as an `entry` (a named tuple of
    seat, action, thought and the index of the action's first event in the state's
    events; `log`, when given, is that list, read directly).

    Returns:
        `TERMINAL` at the end, or the seat to move whose chooser is None.

    Raises:
        BadChoice: a strategy chose an illegal action (the state is unchanged).
    """
    observe, apply, outcomes = state.observation, state.apply, state.chance_outcomes
    draw = chance_rng.random
    while True:
        seat: int = state.current_player
        if seat < 0:
            if seat == _TERMINAL:
                return seat
            pairs = outcomes()
            if type(pairs) is _WEIGHTED:
                table = pairs.choices
                apply(table[min(_after(pairs.totals, draw()), len(table) - 1)])
            else:
                apply(sample(pairs, chance_rng))
            continue
        choose = choosers[seat]
        if choose is None:
            return seat
        # Indexed, not unpacked: a `Decision` is a tuple subclass.
        decision = choose(observe(seat))
        action = decision[0]
        first = len(state.events if log is None else log)
        try:
            apply(action)
        except IllegalActionError as exc:
            raise BadChoice(seat, exc) from None
        # `TranscriptEntry(...)` without the named tuple's Python-level `__new__`.
        transcript.append(_new_entry(entry, (seat, action, decision[1], first)))
