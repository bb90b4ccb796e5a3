"""Shared helpers of the conformance suite: random rollouts and state snapshots."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator

from epigames.games import CHANCE, TERMINAL, State, load_game, registered_games
from tests.conformance.oracles import SETTINGS


def game_strings() -> list[str]:
    """Every registered game at its defaults plus its extra settings."""
    out: list[str] = []
    for name in registered_games():
        for spec in SETTINGS.get(name, [name]):
            out.append(spec)
    return out


def random_step(state: State, rng: random.Random) -> None:
    """Apply one random chance outcome (by its probabilities) or random legal action."""
    if state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        choice = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        state.apply(choice)
    else:
        state.apply(rng.choice(list(state.legal_actions())))


def rollout(spec: str, seed: int, visit: Callable[[State], None] | None = None) -> State:
    """Play random moves from the start to the end, calling `visit` on every state."""
    state = load_game(spec).new_initial_state()
    rng = random.Random(seed)
    while True:
        if visit is not None:
            visit(state)
        if state.current_player == TERMINAL:
            return state
        random_step(state, rng)


def sampled_states(spec: str, seed: int, count: int) -> Iterator[State]:
    """About `count` states spread over one random game (deal, middle, end), as clones."""
    final = rollout(spec, seed)
    length = len(final.history)
    picks = sorted(
        {0, 1, length // 3, length // 2, 2 * length // 3, length - 1, length}
        | {random.Random(seed + i).randrange(length + 1) for i in range(count)}
    )
    game = load_game(spec)
    state = game.new_initial_state()
    for i, action in enumerate([*final.history, None]):
        if i in picks:
            yield state.clone()
        if action is not None:
            state.apply(action)


def snapshot(state: State) -> str:
    """What is observable about a state, as one string (for unchanged-state checks).

    The full history and the views' contents; of the logs only lengths and the last events
    (the history determines the rest, and full logs would make the suite quadratic).
    """
    views = []
    for seat in range(state.game.num_players):
        view = state.observation(seat)
        views.append(
            {
                **view.to_dict(include_log=False),
                "log": len(view.log),
                "last": [e.to_dict() for e in view.log[-3:]],
            }
        )
    return json.dumps(
        {
            "json": state.to_json(),
            "player": state.current_player,
            "events": len(state.events),
            "last": [e.to_dict() for e in state.events[-5:]],
            "returns": list(state.returns()),
            "views": views,
        },
        ensure_ascii=False,
        sort_keys=True,
    )
