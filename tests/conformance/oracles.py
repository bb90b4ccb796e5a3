"""Per-game knowledge the generic suite needs: parameter settings and no-peeking oracles.

A new game adds its settings to `SETTINGS` (else only its defaults run) and a function to
`HIDDEN` (else `test_every_game_has_a_no_peeking_oracle` fails).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from epigames.games import State
from epigames.games.kwartet import KwartetState

SETTINGS: dict[str, list[str]] = {
    "kwartet": [
        "kwartet",
        "kwartet(players=3,kinds=5)",
        "kwartet(players=6,kinds=13,ask_own=false)",
        "kwartet(players=5,kinds=2,ask_own=false)",
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


#: game name -> (state, seat) -> strings that would reveal hidden information to the seat.
HIDDEN: dict[str, Callable[[State, int], set[str]]] = {"kwartet": kwartet_hidden}
