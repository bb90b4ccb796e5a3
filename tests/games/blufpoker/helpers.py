"""Helpers for the Blufpoker tests: scripted states and snapshots."""

from __future__ import annotations

import json

from epigames.games import load_game
from epigames.games.blufpoker import BlufpokerState


def scripted(moves: str, spec: str = "blufpoker") -> BlufpokerState:
    """A state after applying `;`-separated action and throw texts."""
    game = load_game(spec)
    state = game.new_initial_state()
    assert isinstance(state, BlufpokerState)
    for text in filter(None, (m.strip() for m in moves.split(";"))):
        state.apply(game.parse_action(text))
    return state


def snapshot(state: BlufpokerState) -> str:
    """Everything observable about a state, for unchanged-state checks."""
    views = [state.observation(s).to_dict() for s in range(state.game.num_players)]
    return json.dumps(
        {
            "json": state.to_json(),
            "player": state.current_player,
            "events": [e.to_dict() for e in state.events],
            "views": views,
            "legal": [str(a) for a in state.legal_actions()],
        },
        sort_keys=True,
    )


#: Ann opens 653; Bob believes, rolls the 3 (a 1 comes up), stops with 6 5 out, bluffs 654.
BLUFF = "throw 6 5 3; believe; roll 3; throw 1; stop; bid 654"
