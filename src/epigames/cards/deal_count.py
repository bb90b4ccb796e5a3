"""How many deals keep the public facts, counted by items of alike cards.

The card engine counts card by card over every vector of rooms left, which is slow when
many holders have room (the eight-player Kemps deal: millions of vectors). Most unknown
cards early in a game are alike but for not-all facts (a Kwartet kind, a Kemps rank).
Here a not-all fact is counted by inclusion and exclusion (minus the deals that give the
holder all of the item: those cards are then placed), items with other facts are placed
by their spreads over the holders, and the cards left, allowed everywhere, fill the rooms
left in a multinomial number of ways.

The exclusions are folded apart from the placements: their signed ways depend only on how
many cards they take from each holder, so they are counted once over those vectors (a few
hundred for the six-player Kwartet deal) and then paired with each room vector the
placements leave, instead of being spread over every one of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import factorial

from epigames.cards.items import Split
from epigames.cards.symbolic import CardStructure

__all__ = ["MAX_COUNT_PAIRS", "MAX_COUNT_STATES", "MAX_COUNT_WORK", "count_deals"]

#: The most room vectors the count keeps at once; past it the card engine counts.
MAX_COUNT_STATES = 20_000
#: The most (room vector, placement) pairs a component may be spread over (about a
#: microsecond each).
MAX_COUNT_WORK = 1_000_000
#: The most (room vector, exclusion vector) pairs summed at the end (most are cut short
#: at the first holder without room: about 0.15 microseconds each).
MAX_COUNT_PAIRS = 10_000_000

_Rooms = tuple[int, ...]


def _multinomial(rooms: Sequence[int]) -> int:
    """The ways to fill these rooms with distinct cards, as many as the rooms take."""
    ways = factorial(sum(rooms))
    for r in rooms:
        ways //= factorial(r)
    return ways


def count_deals(cards: CardStructure) -> int | None:
    """The number of deals that keep the public facts and not-all facts of `cards`;
    None when it would take more than `MAX_COUNT_STATES` room vectors,
    `MAX_COUNT_WORK` steps for a component or `MAX_COUNT_PAIRS` at the end (the card
    engine counts then)."""
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
    cap = tuple(max(col) for col in zip(*states, strict=True))
    taken: dict[_Rooms, int] = {tuple(0 for _ in room): 1}
    for size, at in excluded:
        taken = _exclude(taken, size, at, cap)
        if len(taken) > MAX_COUNT_STATES:
            return None
    if len(states) * len(taken) > MAX_COUNT_PAIRS:
        return None
    return _fill(states, taken)


def _fill(states: dict[_Rooms, int], taken: dict[_Rooms, int]) -> int:
    """The deals of the cards left (in items allowed everywhere) into the rooms left:
    for every room vector and exclusion vector, their ways times the multinomial number
    of ways to fill the rooms the exclusion leaves.

    The multinomial of `rooms - used` is `(n - t)! * prod(falling(r, u)) / prod(r!)` (`n`
    the rooms in all, `t` the cards `used` takes, `falling(r, u) = r! / (r - u)!`), so
    per pair only the holders an exclusion takes from cost a product, and the division
    is made once per room vector.
    """
    if not states:
        return 0
    n = sum(next(iter(states)))
    top = max(max(rooms) for rooms in states)
    fact = [factorial(k) for k in range(max(n, top) + 1)]
    falling = [[fact[r] // fact[r - u] if u <= r else 0 for u in range(top + 1)]
               for r in range(top + 1)]  # fmt: skip
    terms = [
        (tuple((j, u) for j, u in enumerate(used) if u), signed * fact[n - sum(used)])
        for used, signed in taken.items()
        if sum(used) <= n
    ]
    total = 0
    for rooms, ways in states.items():
        fill = 0
        for support, weight in terms:
            for j, u in support:
                if u > rooms[j]:
                    break
                weight *= falling[rooms[j]][u]
            else:
                fill += weight
        below = 1
        for r in rooms:
            below *= fact[r]
        total += ways * (fill // below)
    return total


def _exclude(
    taken: dict[_Rooms, int], size: int, at: Sequence[int], cap: _Rooms
) -> dict[_Rooms, int]:
    """Fold in an item that may lie anywhere but wholly at the holders `at`: minus the
    deals that put all of it at one of them (two cannot both hold all of it).

    `taken` maps how many cards the exclusions so far take from each holder to their
    signed number of ways; a holder never has room for more than `cap`.
    """
    out = dict(taken)
    for used, ways in taken.items():
        for j in at:
            if used[j] + size <= cap[j]:
                more = (*used[:j], used[j] + size, *used[j + 1 :])
                out[more] = out.get(more, 0) - ways
    return {used: ways for used, ways in out.items() if ways}


def _place(
    states: dict[_Rooms, int], split: Split, component: Sequence[int]
) -> dict[_Rooms, int] | None:
    """Fold in a component by its placements, each weighted by the ways to choose which
    cards of each item go where; None when it has too many placements to list."""
    placements = split.placements(component, MAX_COUNT_STATES)
    if placements is None:
        return None
    # Placements that take as many cards from each holder are one: their ways add up.
    merged: dict[_Rooms, int] = {}
    for placement in placements:
        used = tuple(sum(col) for col in zip(*placement, strict=True))
        ways = 1
        for row in placement:
            ways *= _multinomial(row)
        merged[used] = merged.get(used, 0) + ways
    if len(merged) * len(states) > MAX_COUNT_WORK:
        return None
    # A component takes from a few holders: only those entries change.
    weighted = [(tuple((j, u) for j, u in enumerate(used) if u), w) for used, w in merged.items()]
    out: dict[_Rooms, int] = {}
    for rooms, ways in states.items():
        for support, weight in weighted:
            left = list(rooms)
            for j, u in support:
                left[j] -= u
                if left[j] < 0:
                    break
            else:
                key = tuple(left)
                out[key] = out.get(key, 0) + ways * weight
    return out
