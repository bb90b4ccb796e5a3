"""Per-game knowledge the generic suite needs: parameter settings and no-peeking oracles.

A new game adds its settings to `SETTINGS` (else only its defaults run) and a function to
`HIDDEN` (else `test_every_game_has_a_no_peeking_oracle` fails).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from epigames.games import State
from epigames.games.blufpoker import BlufpokerState
from epigames.games.blufpoker.events import CupSeen, DiceRolled, Opened
from epigames.games.kwartet import KwartetState

SETTINGS: dict[str, list[str]] = {
    "kwartet": [
        "kwartet",
        "kwartet(players=3,kinds=5)",
        "kwartet(players=6,kinds=13,ask_own=false)",
        "kwartet(players=5,kinds=2,ask_own=false)",
    ],
    "blufpoker": [
        "blufpoker",
        "blufpoker(players=2,penalties=2)",
        "blufpoker(players=6,penalties=3)",
    ],
}


def kwartet_hidden(state: State, seat: int) -> set[str]:
    """Card tokens `seat` must not see: others' cards never named in a public event so far."""
    assert isinstance(state, KwartetState)
    public = " ".join(json.dumps(e.to_dict(), ensure_ascii=False) for e in state.events if e.public)
    hidden: set[str] = set()
    for other, hand in enumerate(state.hands()):
        if other != seat:
            hidden.update(str(c) for c in hand if str(c) not in public)
    return hidden


def blufpoker_hidden(state: State, seat: int) -> set[str]:
    """The cup's roll, for a seat that has not seen this cup and while it is not public.

    The cup changes only when its holder rolls, so a seat's own look under the cup counts
    only if no one rolled after it; public events that name the roll (a true opening bid,
    a truthful bid, a lifted cup) make it known to everyone.
    """
    assert isinstance(state, BlufpokerState)
    cup = state.cup
    if cup is None:
        return set()
    token = str(cup)
    last_change = max(
        (i for i, e in enumerate(state.events) if isinstance(e, DiceRolled | Opened)), default=0
    )
    for i, event in enumerate(state.events):
        if event.public and token in json.dumps(event.to_dict(), ensure_ascii=False):
            return set()
        if isinstance(event, CupSeen) and event.seat == seat and i >= last_change - 1:
            return set()
    return {token}


#: game name -> (state, seat) -> strings that would reveal hidden information to the seat.
HIDDEN: dict[str, Callable[[State, int], set[str]]] = {
    "kwartet": kwartet_hidden,
    "blufpoker": blufpoker_hidden,
}
