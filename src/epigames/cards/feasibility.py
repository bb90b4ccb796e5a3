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

Both conditions are bitsets over the same vectors: ``r(T) >= need(T)`` says the blocks'
use summed over ``T`` is at most a slack, and tight says it equals the slack. So the end
vectors where the classes fit, and those where no set blocking ``j`` is tight, come from a
few ANDs with cached "digits over ``T`` sum to ``s``" masks, not from a loop over vectors.
"""

from __future__ import annotations

from epigames.cards.blocks import Decomposition
from epigames.cards.public import popcount


def _spread(caps: tuple[int, ...], strides: tuple[int, ...], skip: int) -> int:
    """The vectors with every digit within its capacity and digit ``skip`` (if any) 0."""
    got = 1
    for i in range(len(caps)):
        if i != skip:
            layer = got
            for t in range(1, caps[i] + 1):
                got |= layer << (t * strides[i])
    return got


class _Grid:
    """The packed vectors of one pair of capacities and strides, with their masks.

    Looked up once per solve, so the masks below are keyed by small ints rather than by
    the capacities and strides again (hashing those tuples was most of a lookup).
    """

    __slots__ = ("caps", "digits", "strides", "sums", "valid")

    def __init__(self, caps: tuple[int, ...], strides: tuple[int, ...]) -> None:
        self.caps = caps
        self.strides = strides
        self.valid = _spread(caps, strides, -1)
        # Per holder ``j`` and value ``v`` up to its capacity: the vectors with digit j = v.
        self.digits: list[list[int]] | None = None
        # (members << 16 | value << 1 | at_most) -> mask; see `_sum_mask`.
        self.sums: dict[int, int] = {}


#: Per (capacities, strides), its grid; the bench clears it to measure cold solves.
_VALID: dict[tuple[tuple[int, ...], tuple[int, ...]], _Grid] = {}
# Bounded, so memory stays flat over any number of games: a mask is a few hundred bytes,
# and the grids together keep at most `_SUMS_LIMIT` of them.
_GRIDS_LIMIT = 1024
_SUMS_LIMIT = 16384
_sums_kept = 0


def _grid(caps: tuple[int, ...], strides: tuple[int, ...]) -> _Grid:
    global _sums_kept
    key = (caps, strides)
    got = _VALID.get(key)
    if got is None:
        if len(_VALID) >= _GRIDS_LIMIT or _sums_kept >= _SUMS_LIMIT:
            _VALID.clear()
            _sums_kept = 0
        got = _VALID[key] = _Grid(caps, strides)
    return got


def _digit_masks(grid: _Grid) -> list[list[int]]:
    """Per holder ``j`` and value ``v`` up to its capacity: the vectors with digit ``j`` = ``v``."""
    got = grid.digits
    if got is None:
        caps, strides = grid.caps, grid.strides
        got = []
        for j in range(len(caps)):
            others = _spread(caps, strides, j)
            got.append([others << (v * strides[j]) for v in range(caps[j] + 1)])
        grid.digits = got
    return got


def _sum_mask(grid: _Grid, members: int, value: int, at_most: bool) -> int:
    """The valid vectors whose digits over ``members`` (a bitmask) sum to ``value``, or to
    at most ``value`` when ``at_most``."""
    global _sums_kept
    if value < 0:
        return 0
    key = members << 16 | value << 1 | at_most
    got = grid.sums.get(key)
    if got is None:
        column = _digit_masks(grid)[(members & -members).bit_length() - 1]
        rest = members & (members - 1)
        got = 0
        if rest:
            for a in range(min(value, len(column) - 1) + 1):
                got |= column[a] & _sum_mask(grid, rest, value - a, at_most)
        elif at_most:
            for a in range(min(value, len(column) - 1) + 1):
                got |= column[a]
        elif value < len(column):
            got = column[value]
        grid.sums[key] = got
        _sums_kept += 1
    return got


def _at_least(grid: _Grid, members: int, value: int) -> int:
    """The valid vectors whose digits over ``members`` (a bitmask, 0 for none) sum to at
    least ``value``."""
    if value <= 0:
        return grid.valid
    if not members:
        return 0
    key = -(members << 16 | value << 1) - 1  # negative: apart from `_sum_mask`'s keys
    got = grid.sums.get(key)
    if got is None:
        global _sums_kept
        got = grid.valid & ~_sum_mask(grid, members, value - 1, True)
        grid.sums[key] = got
        _sums_kept += 1
    return got


def possible_holders(dec: Decomposition, n_holders: int) -> list[int] | None:
    """Per holder, the bitmask of free cards that some consistent deal puts there.

    Returns None if no consistent deal exists.
    """
    active, caps, strides = dec.active, dec.caps, dec.strides
    k = len(active)
    if not k:
        return [0] * n_holders
    # The vectors have a digit for every active holder but the last (its stride is 0):
    # the blocks so far hold `used` cards, so the last holder's use is `used` less the
    # other digits' sum, which must be within its capacity.
    last = k - 1
    first = (1 << last) - 1
    cap_last = caps[last]
    grid = _grid(caps[:last], strides[:last])

    forward = [1]
    used = 0
    for block in dec.blocks:
        prev, nxt = forward[-1], 0
        for s in block.shifts:
            nxt |= prev << s
        used += len(block.cards)
        forward.append(nxt & _at_least(grid, first, used - cap_last))

    need = [0] * (1 << k)
    for cls in dec.classes:
        need[cls.compact] += popcount(cls.cards)
    for i in range(k):
        bit = 1 << i
        for t in range(1 << k):
            if t & bit:
                need[t] += need[t ^ bit]
    # Only sets some class lies inside can be violated; singletons also matter as tight
    # sets (a full holder takes no class card). Other tight sets add nothing: a tight T
    # with need[T] == 0 has only full holders, each tight on its own.
    goal = forward[-1]
    tight: list[tuple[int, int]] = []
    for t in range(1, (1 << k) - 1):
        if need[t] or not t & (t - 1):
            room = 0
            for i in range(k):
                if t >> i & 1:
                    room += caps[i]
            slack = room - need[t]
            if t >> last & 1:
                # The blocks' use over T is `used` less their use over the other holders,
                # all of them digits: at most `slack` over T is at least the rest over those.
                rest = first & ~t
                goal &= _at_least(grid, rest, used - slack)
                at_slack = _sum_mask(grid, rest, used - slack, False)
            else:
                goal &= _sum_mask(grid, t, slack, True)
                at_slack = _sum_mask(grid, t, slack, False)
            if not goal:
                return None
            tight.append((t, at_slack))
    if not goal:
        return None

    result = [0] * n_holders
    back = goal
    for i in range(len(dec.blocks) - 1, -1, -1):
        block, here = dec.blocks[i], forward[i]
        alive = 0
        shifts, placed_by = block.shifts, block.placed
        for g in range(len(shifts)):  # not a zip: see `blocks._block`
            # ``(here << s) & back`` tests the same bits as ``here & (back >> s)``, whose
            # shifted operand is also what ``alive`` takes: one shift a group, not two.
            earlier = back >> shifts[g]
            if here & earlier:
                alive |= earlier
                placed = placed_by[g]
                for h in range(n_holders):
                    result[h] |= placed[h]
        back = alive & here

    for cls in dec.classes:
        for i, h in enumerate(active):
            if cls.compact >> i & 1:
                blocked = 0
                for t, vectors in tight:
                    if t >> i & 1 and cls.compact & ~t:
                        blocked |= vectors
                if goal & ~blocked:
                    result[h] |= cls.cards
    return result


def transport_possible(caps: tuple[int, ...], may: tuple[int, ...], free: int) -> list[int] | None:
    """`possible_holders` for a problem without blocks (no at-least-one or not-all facts).

    The same answer by the same rule, Hall's condition, without building a
    `Decomposition` (see `possible_by_hall`).

    Args:
        caps: per holder, how many free cards it takes.
        may: per holder, the free cards that may be with it.
        free: the free cards.

    Returns:
        Per holder, the free cards some consistent deal puts there; None if none exists.
    """
    active = [h for h in range(len(caps)) if caps[h] > 0]
    return possible_by_hall(
        active, [caps[h] for h in active], [may[h] for h in active], free, len(caps)
    )


#: Each of three holders with the other two: the proper subsets of three are one holder
#: and the pair of the other two.
_THREE = ((0, 1, 2), (1, 0, 2), (2, 0, 1))


def possible_by_hall(
    active: list[int], caps: list[int], may: list[int], free: int, n_holders: int
) -> list[int] | None:
    """`transport_possible` given the holders with room (`active`), their capacities and
    the free cards each may take.

    For a proper set ``T`` of them, ``need(T)`` is the number of free cards only holders
    of ``T`` may take: ``free`` minus what the others may take. The cards fit iff no
    ``need(T)`` exceeds ``T``'s room (Hall's condition; the totals are equal). A card may
    then go to holder ``h`` unless some *tight* ``T`` (need equals room) holds ``h`` and
    not every holder the card may go to: such a card is one a holder outside ``T`` may
    take, and ``T`` needs all its room for its own cards. That is the rule of
    `possible_holders` over the classes, written over the holders' masks.
    """
    result = [0] * n_holders
    k = len(active)
    if may.count(free) == k:
        # Every holder may take every card (the usual start of a deal): nothing is tight.
        for h in active:
            result[h] = free
        return result
    once = 0
    for mask in may:
        once |= mask
    free &= once  # a card nobody may take is in no class (reduction refuses it anyway)
    if k == 3:  # Klaverjas: the three other seats; the loop below, one seat at a time
        shut = [0, 0, 0]
        for i, j, m in _THREE:
            # T = {i}: the others may take may[j] | may[m]; T = {j, m}: the other, may[i].
            outside = may[j] | may[m]
            need = popcount(free & ~outside)
            if need >= caps[i]:
                if need > caps[i]:
                    return None
                shut[i] |= outside
            need = popcount(free & ~may[i])
            room = caps[j] + caps[m]
            if need >= room:
                if need > room:
                    return None
                shut[j] |= may[i]
                shut[m] |= may[i]
    else:
        shut = [0] * k
        for t in range(1, (1 << k) - 1):
            outside = room = 0
            for i in range(k):
                if t >> i & 1:
                    room += caps[i]
                else:
                    outside |= may[i]
            need = popcount(free & ~outside)
            if need >= room:
                if need > room:
                    return None
                for i in range(k):
                    if t >> i & 1:
                        shut[i] |= outside
    for i, h in enumerate(active):
        result[h] = may[i] & ~shut[i]
    return result
