"""How many deals keep the public facts, counted by items of alike cards.

The card engine counts card by card over every vector of rooms left, which is slow when
many holders have room (the eight-player Kemps deal: millions of vectors). Most unknown
cards early in a game are alike but for not-all facts (a Kwartet kind, a Kemps rank).
Here a not-all fact is counted by inclusion and exclusion (minus the deals that give the
holder all of the item: those cards are then placed), items with other facts are placed
by their spreads over the holders, and the cards left, allowed everywhere, fill the rooms
left in a multinomial number of ways.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import factorial

from epigames.cards.items import Split
from epigames.cards.symbolic import CardStructure

__all__ = ["MAX_COUNT_STATES", "MAX_COUNT_WORK", "count_deals"]

#: The most room vectors the count keeps at once; past it the card engine counts.
MAX_COUNT_STATES = 20_000
#: The most (room vector, placement) pairs a component may be spread over.
MAX_COUNT_WORK = 200_000

_Rooms = tuple[int, ...]


def _multinomial(rooms: Sequence[int]) -> int:
    """The ways to fill these rooms with distinct cards, as many as the rooms take."""
    ways = factorial(sum(rooms))
    for r in rooms:
        ways //= factorial(r)
    return ways


def count_deals(cards: CardStructure) -> int | None:
    """The number of deals that keep the public facts and not-all facts of `cards`;
    None when it would take more than `MAX_COUNT_STATES` room vectors or
    `MAX_COUNT_WORK` steps for a component (the card engine counts then)."""
    split = Split.of(cards, frozenset())
    room = split.room
    with_room = [j for j, r in enumerate(room) if r]
    placed: list[tuple[int, ...]] = []
    excluded: list[tuple[int, list[int]]] = []
    for component in split.components:
        facts = split.component_facts(component)
        item = split.items[component[0]]
        everywhere = all(item.allowed[j] for j in with_room)
        if len(component) == 1 and everywhere and not any(f.some for f in facts):
            excluded.append((item.size, [f.at for f in facts]))
        else:
            placed.append(component)
    states: dict[_Rooms, int] = {room: 1}
    # Placed components first, while there are few room vectors to spread them over.
    for component in placed:
        spread = _place(states, split, component)
        if spread is None:
            return None
        states = spread
    for size, at in excluded:
        states = _exclude(states, size, at)
        if len(states) > MAX_COUNT_STATES:
            return None
    # The cards left (in items allowed everywhere) fill the rooms left.
    return sum(ways * _multinomial(rooms) for rooms, ways in states.items())


def _exclude(states: dict[_Rooms, int], size: int, at: Sequence[int]) -> dict[_Rooms, int]:
    """Fold in an item that may lie anywhere but wholly at the holders `at`: minus the
    deals that put all of it at one of them (two cannot both hold all of it)."""
    out = dict(states)
    for rooms, ways in states.items():
        for j in at:
            if rooms[j] >= size:
                less = (*rooms[:j], rooms[j] - size, *rooms[j + 1 :])
                out[less] = out.get(less, 0) - ways
    return {rooms: ways for rooms, ways in out.items() if ways}


def _place(
    states: dict[_Rooms, int], split: Split, component: Sequence[int]
) -> dict[_Rooms, int] | None:
    """Fold in a component by its placements, each weighted by the ways to choose which
    cards of each item go where; None when it has too many placements to list."""
    placements = split.placements(component, MAX_COUNT_STATES)
    if placements is None or len(placements) * len(states) > MAX_COUNT_WORK:
        return None
    weighted: list[tuple[_Rooms, int]] = []
    for placement in placements:
        used = tuple(sum(col) for col in zip(*placement, strict=True))
        ways = 1
        for row in placement:
            ways *= _multinomial(row)
        weighted.append((used, ways))
    out: dict[_Rooms, int] = {}
    for rooms, ways in states.items():
        for used, weight in weighted:
            left = tuple(r - u for r, u in zip(rooms, used, strict=True))
            if min(left) >= 0:
                out[left] = out.get(left, 0) + ways * weight
    return out
