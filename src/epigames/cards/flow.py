"""Exact possible holders by one feasible flow, when each holder's facts cover disjoint sets.

A reduced problem whose live facts about one holder are on sets that are pairwise equal
or disjoint (Kwartet and Kemps: the cards of one kind) is a flow with bounds: a free
card goes to one *group* that allows it, a group passes its cards to its holder, and a
holder takes exactly its capacity. A holder's group for a set ``S`` takes at least one
card of it (an at-least-one fact) and at most ``|S| - 1`` (a not-all fact); its *rest*
group takes the other cards it may have, without bounds. A consistent deal is such a
flow, and back.

One feasible flow answers every card at once: card ``c``, now in group ``A``, may go to
group ``B`` iff the residual graph has a path from ``B`` back to ``A`` (the flow
difference of two deals is a sum of cycles, and every step of the path keeps a
group's bounds). On the residual graph of groups and holders:

* group ``Y`` → its holder, while ``Y`` is below its upper bound;
* holder → its group ``X``, while ``X`` is above its lower bound;
* group ``Y`` → group ``Z``, while some card now in ``Y`` is allowed in ``Z``.

So the answer costs a search for a first deal (a greedy fill, then augmenting paths for
what it left over) and one reachability closure over a few dozen nodes: no enumeration of
a kind's placements and no capacity vectors, however many cards a holder takes.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Returned by `groups_of` for facts this solver does not take (overlapping sets of one
#: holder): the caller uses the general one.
NOT_FLOW = None


class Groups:
    """The groups of one problem: holder, cards allowed, bounds; and per holder its groups."""

    __slots__ = ("caps", "cards", "high", "holder", "holders", "low", "of_holder")

    def __init__(self) -> None:
        self.holders: list[int] = []  # the holders with room, in order
        self.caps: list[int] = []  # their capacities
        self.of_holder: list[list[int]] = []  # per such holder, its groups
        self.holder: list[int] = []  # per group, its holder's position in `holders`
        self.cards: list[int] = []  # per group, the free cards it may take
        self.low: list[int] = []
        self.high: list[int] = []

    def add(self, slot: int, cards: int, low: int, high: int) -> None:
        self.of_holder[slot].append(len(self.cards))
        self.holder.append(slot)
        self.cards.append(cards)
        self.low.append(low)
        self.high.append(high)


def groups_of(
    caps: Sequence[int],
    may: Sequence[int],
    constraints: Sequence[tuple[int, int]],
    exclusions: Sequence[tuple[int, int]],
) -> Groups | None:
    """The flow's groups, or `NOT_FLOW` when two sets of one holder overlap unequally.

    A not-all set with a card the holder may not take is met in every deal and left out.
    """
    # Per holder: set -> [low, high].
    bounds: list[dict[int, list[int]]] = [{} for _ in caps]
    for h, cards in constraints:
        cards &= may[h]
        got = bounds[h].get(cards)
        if got is None:
            bounds[h][cards] = [1, cards.bit_count()]
        else:
            got[0] = 1
    for h, cards in exclusions:
        if cards & ~may[h]:
            continue
        got = bounds[h].get(cards)
        size = cards.bit_count()
        if got is None:
            bounds[h][cards] = [0, size - 1]
        elif got[1] > size - 1:
            got[1] = size - 1
    groups = Groups()
    for h in range(len(caps)):
        if caps[h] <= 0:
            continue
        slot = len(groups.holders)
        groups.holders.append(h)
        groups.caps.append(caps[h])
        groups.of_holder.append([])
        covered = 0
        for cards, (low, high) in bounds[h].items():
            if cards & covered:
                return NOT_FLOW
            covered |= cards
            groups.add(slot, cards, low, high)
        rest = may[h] & ~covered
        if rest:
            groups.add(slot, rest, 0, caps[h])
    return groups


def possible_by_flow(groups: Groups, free: int, n_holders: int) -> list[int] | None:
    """Per holder, the free cards some consistent deal puts there; None if no deal exists."""
    deal = _first_deal(groups, free)
    if deal is None:
        return None
    at, count = deal
    n_groups = len(at)
    holder, allowed = groups.holder, groups.cards
    reach = _closure(_arcs(groups, at, count))
    result = [0] * n_holders
    for b in range(n_groups):
        seen = reach[b] | 1 << b
        cards = 0
        for a in range(n_groups):
            if seen >> a & 1:
                cards |= at[a]
        h = groups.holders[holder[b]]
        result[h] = result[h] | cards & allowed[b]
    return result


def _arcs(groups: Groups, at: list[int], count: list[int]) -> list[int]:
    """The residual graph of the deal ``at`` (``count`` cards a group): per node, its
    successors as a bitmask.

    Nodes are the groups, then the holders (at ``len(at) + position``).
    """
    n_groups = len(at)
    holder, allowed = groups.holder, groups.cards
    low, high = groups.low, groups.high
    arcs = [0] * (n_groups + len(groups.holders))
    for y in range(n_groups):
        here = at[y]
        out = 0
        if count[y] < high[y]:
            out = 1 << (n_groups + holder[y])
        if here:
            for z in range(n_groups):
                if here & allowed[z]:
                    out |= 1 << z
        arcs[y] = out & ~(1 << y)
        if count[y] > low[y]:
            node = n_groups + holder[y]
            arcs[node] = arcs[node] | 1 << y
    return arcs


def _closure(arcs: list[int]) -> list[int]:
    """Per node, the nodes reachable from it by one arc or more (Warshall on bitmasks)."""
    reach = list(arcs)
    n = len(reach)
    for k in range(n):
        bit = 1 << k
        via = reach[k]
        if via:
            for i in range(n):
                old = reach[i]
                if old & bit:
                    reach[i] = old | via
    return reach


def _first_deal(groups: Groups, free: int) -> tuple[list[int], list[int]] | None:
    """Per group, the cards it takes in one consistent deal and how many; None if there
    is none.

    A greedy fill (a first card for each group with a lower bound, then each group as
    many as it and its holder take), then an augmenting path for each card left over and
    a cycle through each group left below its lower bound.
    """
    n_groups = len(groups.cards)
    holder, allowed = groups.holder, groups.cards
    low, high, caps = groups.low, groups.high, groups.caps
    at = [0] * n_groups
    count = [0] * n_groups
    taken = [0] * len(caps)
    left = free
    for g in range(n_groups):
        h = holder[g]
        if low[g] and taken[h] < caps[h]:
            pick = allowed[g] & left
            if pick:
                bit = pick & -pick
                at[g] = bit
                count[g] = 1
                taken[h] = taken[h] + 1
                left ^= bit
    for g in range(n_groups):
        h = holder[g]
        pick = allowed[g] & left
        while pick and count[g] < high[g] and taken[h] < caps[h]:
            bit = pick & -pick
            pick ^= bit
            at[g] = at[g] | bit
            count[g] = count[g] + 1
            taken[h] = taken[h] + 1
            left ^= bit
    holder_node = [n_groups + h for h in range(len(caps))]
    while left:
        card = left & -left
        left ^= card
        # From the groups that allow the card to a holder with room.
        starts = 0
        for g in range(n_groups):
            if allowed[g] & card:
                starts |= 1 << g
        room = 0
        for h in range(len(caps)):
            if taken[h] < caps[h]:
                room |= 1 << holder_node[h]
        path = _path(_arcs(groups, at, count), starts, room)
        if path is None:
            return None
        first = path[0]
        at[first] = at[first] | card
        count[first] = count[first] + 1
        end = path[-1] - n_groups
        taken[end] = taken[end] + 1
        _move_along(at, count, allowed, path)
    for g in range(n_groups):
        if count[g] < low[g]:
            # One more card into g: g gives its holder one more, another group of the
            # holder one fewer, and so on round a cycle back into g.
            path = _path(_arcs(groups, at, count), 1 << holder_node[holder[g]], 1 << g)
            if path is None:
                return None
            _move_along(at, count, allowed, path)
    return at, count


def _path(arcs: list[int], starts: int, goals: int) -> list[int] | None:
    """A shortest path (its nodes) from a node of ``starts`` to one of ``goals``."""
    parent = [-1] * len(arcs)
    queue: list[int] = []
    rest = starts
    while rest:
        bit = rest & -rest
        rest ^= bit
        queue.append(bit.bit_length() - 1)
    seen = starts
    i = 0
    while i < len(queue):
        u = queue[i]
        i += 1
        if goals >> u & 1:
            path = [u]
            while parent[u] >= 0:
                u = parent[u]
                path.append(u)
            path.reverse()
            return path
        new = arcs[u] & ~seen
        seen |= new
        while new:
            bit = new & -new
            new ^= bit
            v = bit.bit_length() - 1
            parent[v] = u
            queue.append(v)
    return None


def _move_along(at: list[int], count: list[int], allowed: list[int], path: list[int]) -> None:
    """Move a card along each group-to-group step of ``path`` (holder nodes move none),
    last step first, so each card moved is one its group held before."""
    n_groups = len(at)
    for i in range(len(path) - 1, 0, -1):
        u, v = path[i - 1], path[i]
        if u < n_groups and v < n_groups:
            pick = at[u] & allowed[v]
            bit = pick & -pick
            at[u] = at[u] ^ bit
            at[v] = at[v] | bit
            count[u] = count[u] - 1
            count[v] = count[v] + 1
