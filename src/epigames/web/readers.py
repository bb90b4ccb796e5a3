"""Who may read an agent's thought: the seats for which it names no other seat's secrets.

A thought (`games.strategy.Thought`) lists the hidden items it names (`Thought.names`):
cards, the roll under the cup. Each seat's secrets are its view's `private_items()`. A
seat may read a thought when none of the items it names is a secret of another seat,
leaving out items the move's own public events place (a card played, a cup lifted). Items
a public fact names without placing them (a card some seat lacks, a bid's roll, which may
be a bluff) stay secret: otherwise whether a thought is shown would tell a truthful bid
from a bluff.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from epigames.games import Event, State
from epigames.games.strategy import Thought


def seat_items(state: State) -> list[frozenset[Hashable]]:
    """Each seat's private items now (from its own view)."""
    return [state.observation(s).private_items() for s in range(state.game.num_players)]


def public_items(events: Iterable[Event]) -> frozenset[Hashable]:
    """The items (cards, rolls, seats) that the public events among `events` place."""
    return frozenset(
        item
        for event in events
        if event.public
        for fact in event.facts
        if fact.places
        for item in fact.as_tuple()[1:]
    )


def thought_readers(
    seat: int,
    thought: Thought,
    private: Sequence[frozenset[Hashable]],
    public: frozenset[Hashable],
) -> frozenset[int]:
    """The seats that may read `seat`'s thought.

    `private`: every seat's private items before the move; `public`: the items the move's
    public events name. The decider may always read its own thought.
    """
    named = thought.names - public
    everyone = frozenset(range(len(private)))
    if not named:
        return everyone
    return frozenset(
        viewer
        for viewer in everyone
        if viewer == seat or not any(named & private[s] for s in everyone if s != viewer)
    )
