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

import functools
from collections.abc import Sequence
from math import factorial, isqrt
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from epigames.cards.items import Split
from epigames.cards.symbolic import CardStructure

__all__ = ["MAX_COUNT_PAIRS", "MAX_COUNT_STATES", "MAX_COUNT_WORK", "count_deals"]

#: The most room vectors the count keeps at once; past it the card engine counts.
MAX_COUNT_STATES = 20_000
#: The most (room vector, placement) pairs a component may be spread over (about a
#: microsecond each, at most a few seconds; six-player Kwartet, random players, seed 0,
#: step 9 needs 1.1 million: 0.6 s, where the card engine counted in 1.9 s).
MAX_COUNT_WORK = 4_000_000
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
    # Counted modulo primes near 2^31 (numpy's int64 holds their products), as many as
    # the count's bound needs, then put together (Chinese remainders): exact.
    primes = _primes(_multinomial(room).bit_length() // 30 + 1)
    states = _States(np.array([room], dtype=np.int64), np.ones((len(primes), 1), np.int64))
    # Placed components first, while there are few room vectors to spread them over.
    for component in placed:
        spread = _place(states, split, component, primes)
        if spread is None:
            return None
        states = spread
    if not len(states.rooms):
        return 0
    cap = tuple(int(top) for top in states.rooms.max(axis=0))
    taken: dict[_Rooms, int] = {tuple(0 for _ in room): 1}
    for size, at in excluded:
        taken = _exclude(taken, size, at, cap)
        if len(taken) > MAX_COUNT_STATES:
            return None
    if len(states.rooms) * len(taken) > MAX_COUNT_PAIRS:
        return None
    return _together(_fill(states, taken, primes), primes)


class _States(NamedTuple):
    """Room vectors left (one a row) and their ways modulo each prime (one a row)."""

    rooms: npt.NDArray[np.int64]
    ways: npt.NDArray[np.int64]


@functools.cache
def _primes(k: int) -> npt.NDArray[np.int64]:
    """The `k` largest primes below 2^31, as a column."""
    found: list[int] = []
    n = 2**31 - 1
    while len(found) < k:
        if all(n % d for d in range(3, isqrt(n) + 1, 2)):
            found.append(n)
        n -= 2
    return np.array(found, dtype=np.int64).reshape(k, 1)


def _together(residues: npt.NDArray[np.int64], primes: npt.NDArray[np.int64]) -> int:
    """The number below the primes' product with these residues (Chinese remainders)."""
    total, modulus = 0, 1
    for r, p in zip(residues.tolist(), primes[:, 0].tolist(), strict=True):
        # total + modulus * t = r (mod p)
        t = (r - total) * pow(modulus, -1, p) % p
        total += modulus * t
        modulus *= p
    return total


def _fill(
    states: _States, taken: dict[_Rooms, int], primes: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The deals of the cards left (in items allowed everywhere) into the rooms left,
    per prime: for every room vector and exclusion vector, their ways times the
    multinomial number of ways to fill the rooms the exclusion leaves.

    The multinomial of `rooms - used` is `(n - t)! * prod(falling(r, u)) / prod(r!)` (`n`
    the rooms in all, `t` the cards `used` takes, `falling(r, u) = r! / (r - u)!`), so
    per pair only the holders an exclusion takes from cost a product, and the division
    (by an inverse modulo each prime) is made once per room vector.
    """
    rooms = states.rooms
    n = int(rooms[0].sum())
    top = int(rooms.max())
    fact = [factorial(k) for k in range(max(n, top) + 1)]
    # falling[u][p, r] = r! / (r - u)! modulo the p-th prime (0 where u > r).
    falling = [
        np.array(
            [[fact[r] // fact[r - u] % p if u <= r else 0 for r in range(top + 1)] for p in
             primes[:, 0].tolist()],
            dtype=np.int64,
        )
        for u in range(top + 1)
    ]  # fmt: skip
    fill = np.zeros_like(states.ways)
    for used, signed in taken.items():
        t = sum(used)
        if t > n:
            continue
        weight = np.array([signed * fact[n - t] % p for p in primes[:, 0].tolist()], np.int64)
        term = np.repeat(weight.reshape(-1, 1), len(rooms), axis=1)
        for j, u in enumerate(used):
            if u:
                term = term * falling[u][:, rooms[:, j]] % primes
        fill = (fill + term) % primes
    below = np.ones_like(fill)
    for j in range(rooms.shape[1]):
        inverse = np.array(
            [[pow(fact[r], -1, p) for r in range(top + 1)] for p in primes[:, 0].tolist()],
            dtype=np.int64,
        )
        below = below * inverse[:, rooms[:, j]] % primes
    return np.asarray((states.ways * fill % primes * below % primes).sum(axis=1) % primes[:, 0])


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
    states: _States, split: Split, component: Sequence[int], primes: npt.NDArray[np.int64]
) -> _States | None:
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
    rooms = states.rooms
    if len(merged) * len(rooms) > MAX_COUNT_WORK:
        return None
    # Every (room vector, placement) pair at once, the vectors as numpy rows.
    radix = np.cumprod([1, *(int(top) + 1 for top in rooms.max(axis=0)[:-1])], dtype=np.int64)
    left: list[npt.NDArray[np.int64]] = []
    weighted: list[npt.NDArray[np.int64]] = []
    for used, weight in merged.items():
        vector = np.array(used, dtype=np.int64)
        fits = np.all(rooms >= vector, axis=1)
        if fits.any():
            left.append(rooms[fits] - vector)
            residues = np.array([[weight % p] for p in primes[:, 0].tolist()], np.int64)
            weighted.append(states.ways[:, fits] * residues % primes)
    if not left:
        return _States(rooms[:0], states.ways[:, :0])
    out = np.concatenate(left)
    key = out @ radix
    order = np.argsort(key, kind="stable")
    key = key[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    sums = np.add.reduceat(np.concatenate(weighted, axis=1)[:, order], starts, axis=1)
    return _States(out[order][starts], sums % primes)
