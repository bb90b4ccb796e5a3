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
what it left over) and the strongly connected components of that graph, a few dozen
nodes as bitmasks: no enumeration of a kind's placements and no capacity vectors, however
many cards a holder takes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from epigames import native
from epigames.cards.public import popcount

#: Returned by `groups_of` for facts this solver does not take (overlapping sets of one
#: holder): the caller uses the general one.
NOT_FLOW = None

# The C version of `possible_from_facts` (`_engine.c`, the same algorithm on machine
# words), where the compiled modules run: it answers problems of up to 64 cards and 64
# nodes and returns NotImplemented for the others. Most of this module's time went to
# boxing masks into Python ints, which lists of masks need even when compiled.
_C_MODULE = native.c_module("epigames.cards._engine")
_C_FLOW: Final[Callable[..., Any] | None] = (
    None if _C_MODULE is None else _C_MODULE.possible_from_facts
)


class Groups:
    """The groups of one problem (holder, cards allowed, bounds) and the holders with room."""

    __slots__ = ("caps", "cards", "high", "holder", "holders", "low")

    def __init__(self) -> None:
        self.holders: list[int] = []  # the holders with room, in order
        self.caps: list[int] = []  # their capacities
        self.holder: list[int] = []  # per group, its holder's position in `holders`
        self.cards: list[int] = []  # per group, the free cards it may take
        self.low: list[int] = []
        self.high: list[int] = []

    def add(self, slot: int, cards: int, low: int, high: int) -> None:
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
            bounds[h][cards] = [1, popcount(cards)]
        else:
            got[0] = 1
    for h, cards in exclusions:
        if cards & ~may[h]:
            continue
        got = bounds[h].get(cards)
        size = popcount(cards)
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


def possible_from_facts(
    counts: Sequence[int],
    holding: Sequence[int],
    lacking: Sequence[int],
    free: int,
    removed: int,
    constraints: Sequence[tuple[int, int]],
    groups: Sequence[int],
    not_all: Sequence[tuple[int, int]],
) -> list[int] | None:
    """`possible_by_flow` straight from the facts, without propagating them first.

    The facts are those of `epigames.cards.problem.reduce_facts` (at-least-one sets,
    groups no holder holds completely, not-all sets), with ``free`` the cards in play no
    holder is known to have. None when no deal meets them, or when they are not of the
    flow's shape: the caller then propagates and solves, which also says what is wrong.
    """
    if _C_FLOW is not None:
        found = _C_FLOW(counts, holding, lacking, free, removed, constraints, groups, not_all)
        if found is not NotImplemented:
            return found  # type: ignore[no-any-return]
    return python_possible_from_facts(
        counts, holding, lacking, free, removed, constraints, groups, not_all
    )


def python_possible_from_facts(
    counts: Sequence[int],
    holding: Sequence[int],
    lacking: Sequence[int],
    free: int,
    removed: int,
    constraints: Sequence[tuple[int, int]],
    groups: Sequence[int],
    not_all: Sequence[tuple[int, int]],
) -> list[int] | None:
    """`possible_from_facts` in Python, whatever the size (the C version's reference)."""
    n = len(counts)
    caps = [counts[h] - popcount(holding[h]) for h in range(n)]
    may = [0] * n
    for h in range(n):
        if caps[h] < 0:
            return None
        if caps[h]:
            may[h] = free & ~lacking[h]
    live: list[tuple[int, int]] = []
    for h, cards in constraints:
        if not cards & holding[h]:  # else a known card meets it
            cards &= may[h]
            if not cards:
                return None
            live.append((h, cards))
    excluded: list[tuple[int, int]] = []
    bound = [(cards, -1) for cards in groups]
    bound += [(cards, h) for h, cards in not_all]
    for cards, only in bound:
        if cards & removed:
            continue
        placed = cards & ~free
        rest = cards & free
        owner = only
        if placed:
            # The holder with every placed card, if one has them all: no other can
            # complete the set.
            for h in range(n):
                if holding[h] & placed:
                    owner = h if not placed & ~holding[h] and only in (-1, h) else -2
                    break
            if owner == -2:
                continue
            if not rest:
                return None  # it holds the whole set
        size = popcount(rest)
        for h in range(n) if owner == -1 else (owner,):
            if caps[h] >= size and not rest & ~may[h]:
                excluded.append((h, rest))
    found = groups_of(caps, may, live, excluded)
    if found is None:
        return None
    return possible_by_flow(found, free, n)


def possible_by_flow(groups: Groups, free: int, n_holders: int) -> list[int] | None:
    """Per holder, the free cards some consistent deal puts there; None if no deal exists."""
    n_groups = len(groups.cards)
    allowed = groups.cards
    # Per card, the groups that allow it: a group's arcs to others are its cards' groups.
    card_groups = _transposed(allowed, free.bit_length())
    deal = _first_deal(groups, free, card_groups)
    if deal is None:
        return None
    at, count = deal
    arcs = _arcs(groups, at, count, card_groups)
    comp, reach = _reach_by_component(arcs, at)
    result = [0] * n_holders
    holder, holders = groups.holder, groups.holders
    for b in range(n_groups):
        h = holders[holder[b]]
        result[h] = result[h] | reach[comp[b]] & allowed[b]
    return result


def _transposed(rows: list[int], width: int) -> list[int]:
    """Per column ``j < width``, the rows (a bitmask of their indices) whose mask has
    bit ``j``: the reversed arcs of a graph, or the groups that allow each card."""
    columns = [0] * width
    for i in range(len(rows)):
        rest = rows[i]
        while rest:
            bit = rest & -rest
            rest ^= bit
            j = bit.bit_length() - 1
            columns[j] = columns[j] | 1 << i
    return columns


def _arcs(groups: Groups, at: list[int], count: list[int], card_groups: list[int]) -> list[int]:
    """The residual graph of the deal ``at`` (``count`` cards a group): per node, its
    successors as a bitmask.

    Nodes are the groups, then the holders (at ``len(at) + position``).
    """
    n_groups = len(at)
    holder, low, high = groups.holder, groups.low, groups.high
    arcs = [0] * (n_groups + len(groups.holders))
    for y in range(n_groups):
        out = 0
        rest = at[y]
        while rest:
            bit = rest & -rest
            rest ^= bit
            out |= card_groups[bit.bit_length() - 1]
        if count[y] < high[y]:
            out |= 1 << (n_groups + holder[y])
        arcs[y] = out & ~(1 << y)
        if count[y] > low[y]:
            node = n_groups + holder[y]
            arcs[node] = arcs[node] | 1 << y
    return arcs


def _reach_by_component(arcs: list[int], at: list[int]) -> tuple[list[int], list[int]]:
    """Each node's strongly connected component, and per component the cards (of
    ``at``, per group node) in the nodes it reaches, itself included.

    Kosaraju's two searches on bitmasks: finishing order on the graph, then the reversed
    graph in reverse of that order, which finds the components sources first; the cards
    reached then sum up from the last component back.
    """
    n = len(arcs)
    n_groups = len(at)
    back = _transposed(arcs, n)
    order: list[int] = []
    seen = 0
    for s in range(n):
        if seen >> s & 1:
            continue
        seen |= 1 << s
        stack = [s]
        while stack:
            u = stack[-1]
            new = arcs[u] & ~seen
            if new:
                bit = new & -new
                seen |= bit
                stack.append(bit.bit_length() - 1)
            else:
                stack.pop()
                order.append(u)
    comp = [0] * n
    members: list[int] = []
    leaving: list[int] = []
    cards: list[int] = []
    seen = 0
    for i in range(n - 1, -1, -1):
        s = order[i]
        if seen >> s & 1:
            continue
        c = len(members)
        seen |= 1 << s
        todo = 1 << s
        mask = out = held = 0
        while todo:
            bit = todo & -todo
            todo ^= bit
            u = bit.bit_length() - 1
            comp[u] = c
            mask |= bit
            out |= arcs[u]
            if u < n_groups:
                held |= at[u]
            new = back[u] & ~seen
            seen |= new
            todo |= new
        members.append(mask)
        leaving.append(out & ~mask)
        cards.append(held)
    # Components come sources first, so every successor of one is found after it.
    for c in range(len(members) - 1, -1, -1):
        held = cards[c]
        rest = leaving[c]
        while rest:
            v = (rest & -rest).bit_length() - 1
            other = comp[v]
            held |= cards[other]
            rest &= ~members[other]
        cards[c] = held
    return comp, cards


def _first_deal(
    groups: Groups, free: int, card_groups: list[int]
) -> tuple[list[int], list[int]] | None:
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
        starts = card_groups[card.bit_length() - 1]
        room = 0
        for h in range(len(caps)):
            if taken[h] < caps[h]:
                room |= 1 << holder_node[h]
        path = _path(_arcs(groups, at, count, card_groups), starts, room)
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
            path = _path(_arcs(groups, at, count, card_groups), 1 << holder_node[holder[g]], 1 << g)
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
