"""Exact possible holders without counting: bit-parallel reachability plus Hall's condition.

*Blocks.* A set of capacity-use vectors ``u`` (cards taken per active holder) is one big
int with a bit per vector, at index ``sum(u[j] * stride[j])``. Each digit has room above
its capacity for one block's largest use, so adding a block's usage is a left shift with
no carry, and subtracting it (backward pass) lands any "negative" digit on an index whose
digit exceeds the capacity. Masking with the valid vectors thus makes

* forward: ``F[i+1] = OR over usages d of (F[i] << d) & VALID``;
* backward: ``B[i] = OR over d of (B[i+1] >> d) & F[i]``, starting from the final states
  where the classes fit;
* a usage ``d`` of block ``i`` is possible iff ``(F[i] << d) & B[i+1]`` is not 0.

*Classes* (cards in no constraint) are never enumerated: with remaining capacities ``r``
they fit iff for every set ``T`` of holders, the cards whose allowed set lies inside ``T``
number at most ``r(T)`` (Hall's theorem for this transportation problem; totals are
equal). Where they fit, a card of class ``A`` can go to holder ``j`` unless some *tight*
``T`` (equality) contains ``j`` but not all of ``A``.
"""

from __future__ import annotations

from epigames.cards.blocks import Decomposition

_VALID: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}


def _valid(caps: tuple[int, ...], strides: tuple[int, ...]) -> int:
    key = (caps, strides)
    got = _VALID.get(key)
    if got is None:
        got = 1
        for cap, stride in zip(caps, strides, strict=True):
            layer = got
            for t in range(1, cap + 1):
                got |= layer << (t * stride)
        if len(_VALID) > 4096:
            _VALID.clear()
        _VALID[key] = got
    return got


def possible_holders(dec: Decomposition, n_holders: int) -> list[int] | None:
    """Per holder, the bitmask of free cards that some consistent deal puts there.

    Returns None if no consistent deal exists.
    """
    active, caps, strides = dec.active, dec.caps, dec.strides
    k = len(active)
    valid = _valid(caps, strides)

    forward = [1]
    for block in dec.blocks:
        prev, nxt = forward[-1], 0
        for s in block.shifts:
            nxt |= prev << s
        forward.append(nxt & valid)

    need = [0] * (1 << k)
    for cls in dec.classes:
        need[cls.compact] += cls.cards.bit_count()
    for i in range(k):
        bit = 1 << i
        for t in range(1 << k):
            if t & bit:
                need[t] += need[t ^ bit]
    # Only sets some class lies inside can be violated; singletons also matter as tight
    # sets (a full holder takes no class card). Other tight sets add nothing: a tight T
    # with need[T] == 0 has only full holders, each tight on its own.
    checks = [
        (t, need[t], [i for i in range(k) if t >> i & 1])
        for t in range(1, (1 << k) - 1)
        if need[t] or not t & (t - 1)
    ]

    ends: list[list[int]] = []
    goal = 0
    states = forward[-1]
    while states:
        low = states & -states
        states ^= low
        index = low.bit_length() - 1
        rem = [0] * k
        for j in range(k - 1, -1, -1):
            digit, index = divmod(index, strides[j])
            rem[j] = caps[j] - digit
        tight = []
        for t, needed, members in checks:
            room = 0
            for i in members:
                room += rem[i]
            if needed > room:
                break
            if needed == room:
                tight.append(t)
        else:
            goal |= low
            ends.append(tight)
    if not goal:
        return None

    result = [0] * n_holders
    back = goal
    for i in range(len(dec.blocks) - 1, -1, -1):
        block, here = dec.blocks[i], forward[i]
        alive = 0
        for s, placed in zip(block.shifts, block.placed, strict=True):
            if (here << s) & back:
                alive |= back >> s
                for h in range(n_holders):
                    result[h] |= placed[h]
        back = alive & here

    for cls in dec.classes:
        targets = [(1 << i, h) for i, h in enumerate(active) if cls.compact >> i & 1]
        got = 0
        for tight in ends:
            for jbit, h in targets:
                if not got >> h & 1 and not any(t & jbit and cls.compact & ~t for t in tight):
                    got |= 1 << h
            if got == cls.allowed:
                break
        for h in active:
            if got >> h & 1:
                result[h] |= cls.cards
    return result


# (active capacities, (compact allowed set, size) per class) -> per class the compact set
# of holders its cards may go to, or None when the classes do not fit. Patterns recur
# within and across games (e.g. every card open to the same players at the start).
_Pattern = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]
_TRANSPORT: dict[_Pattern, tuple[int, ...] | None] = {}
_TRANSPORT_LIMIT = 4096


def transport_possible(caps: tuple[int, ...], may: tuple[int, ...], free: int) -> list[int] | None:
    """`possible_holders` for a problem without blocks (no at-least-one or not-all facts).

    The same answer by the same rule (Hall's condition over the classes, the single end
    state being the full capacities), without building a `Decomposition`: only the
    classes' allowed sets, sizes and the capacities matter, and that pattern is memoised.

    Args:
        caps: per holder, how many free cards it takes.
        may: per holder, the free cards that may be with it.
        free: the free cards.

    Returns:
        Per holder, the free cards some consistent deal puts there; None if none exists.
    """
    active = [h for h in range(len(caps)) if caps[h] > 0]
    return possible_by_classes(
        active, [caps[h] for h in active], [may[h] for h in active], free, len(caps)
    )


def possible_by_classes(
    active: list[int], caps: list[int], may: list[int], free: int, n_holders: int
) -> list[int] | None:
    """`transport_possible` given only the holders with room (`active`), their capacities
    and the free cards each may take."""
    result = [0] * n_holders
    if may.count(free) == len(may):
        # One class that every holder may take (the usual start of a deal): no proper set
        # of holders has a card it must take, so none is tight and every card goes anywhere.
        for h in active:
            result[h] = free
        return result
    # Split the free cards by which active holders may take them: (compact set, cards).
    parts = [(0, free)]
    bit = 1
    for mask in may:
        split = []
        for compact, cards in parts:
            inside = cards & mask
            if inside:
                split.append((compact | bit, inside))
            if cards != inside:
                split.append((compact, cards & ~mask))
        parts = split
        bit <<= 1
    # A card no active holder may take is in no class (reduction has refused it already).
    if parts and not parts[-1][0]:
        parts.pop()
    key = (tuple(caps), tuple([(c, m.bit_count()) for c, m in parts]))
    if key in _TRANSPORT:
        reach = _TRANSPORT[key]
    else:
        reach = _TRANSPORT[key] = _transport_reach(key[0], key[1])
        if len(_TRANSPORT) > _TRANSPORT_LIMIT:
            for old in list(_TRANSPORT)[: _TRANSPORT_LIMIT // 2]:  # the oldest half
                del _TRANSPORT[old]
    if reach is None:
        return None
    for (_, cards), got in zip(parts, reach, strict=True):
        i = 0
        while got:
            if got & 1:
                result[active[i]] |= cards
            got >>= 1
            i += 1
    return result


def _transport_reach(
    caps: tuple[int, ...], classes: tuple[tuple[int, int], ...]
) -> tuple[int, ...] | None:
    """Per class (compact allowed set, size), the positions its cards may take, or None."""
    k = len(caps)
    need = [0] * (1 << k)
    for compact, size in classes:
        need[compact] += size
    for i in range(k):
        bit = 1 << i
        for t in range(1 << k):
            if t & bit:
                need[t] += need[t ^ bit]
    tight = []
    for t in range(1, (1 << k) - 1):
        if not (need[t] or not t & (t - 1)):
            continue
        room = sum(caps[i] for i in range(k) if t >> i & 1)
        if need[t] > room:
            return None
        if need[t] == room:
            tight.append(t)
    reach = []
    for compact, _ in classes:
        got = 0
        for i in range(k):
            jbit = 1 << i
            if compact & jbit and not any(t & jbit and compact & ~t for t in tight):
                got |= jbit
        reach.append(got)
    return tuple(reach)
