"""Build Kwartet states with chosen hands (the deal is round-robin from South)."""

from __future__ import annotations

from epigames.games import load_game
from epigames.games.kwartet import Card, KwartetState


def cards(text: str) -> list[Card]:
    """`"1.1 1.2"` -> `[Card(1, 1), Card(1, 2)]`."""
    return [Card.parse(t) for t in text.split()]


def dealt(spec: str, *hands: str) -> KwartetState:
    """A state right after dealing `hands` (one string per seat) in `spec`."""
    game = load_game(spec)
    state = game.new_initial_state()
    assert isinstance(state, KwartetState)
    queues = [cards(h) for h in hands]
    total = sum(len(q) for q in queues)
    for position in range(total):
        state.apply(queues[position % len(queues)].pop(0))
    return state
