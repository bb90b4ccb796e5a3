"""Split a `Problem` into constraint blocks and classes of interchangeable cards.

Free cards that appear in no at-least-one constraint are grouped by their allowed-holder
set into *classes*: cards of one class are interchangeable, so only their number matters
to the solvers. Cards of constraints that share a card are joined into *blocks*; a
block's assignments that satisfy its constraints are enumerated and grouped by how many
cards each holder takes (its *usage*). In Kwartet a block is the unknown cards of one
kind (at most 4); the enumeration is exponential in the block size, the only exponential
step of the engine. Enumerations are cached by the block's pattern (allowed holders per
card and constraints), which repeats from one knowledge state to the next.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from epigames.cards.errors import InconsistentCardsError
from epigames.cards.problem import Problem
from epigames.cards.public import iter_bits

Usage = tuple[int, ...]
Assignment = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Block:
    """Cards tied together by at-least-one constraints, with their valid assignments.

    Attributes:
        cards: the block's cards.
        groups: ``(usage, assignments)``: cards taken per active holder (in
            `Decomposition.active` order) and the assignments (one holder per card, in
            ``cards`` order) with exactly that usage.
    """

    cards: tuple[int, ...]
    groups: tuple[tuple[Usage, tuple[Assignment, ...]], ...]
    shifts: tuple[int, ...]
    placed: tuple[tuple[int, ...], ...]

    # shifts: per group, the usage as an index offset in the bitset encoding of
    # `epigames.cards.feasibility` (strides of `Decomposition.strides`).
    # placed: per group, per holder, the cards some assignment of the group puts there.


@dataclass(frozen=True, slots=True)
class CardClass:
    """Interchangeable free cards: same allowed holders, in no constraint.

    Attributes:
        allowed: the holders, as a bitmask over holder indices.
        compact: the same set over positions in `Decomposition.active`.
        cards: the cards, as a bitmask.
    """

    allowed: int
    compact: int
    cards: int


@dataclass(frozen=True, slots=True)
class Decomposition:
    """The active holders (with room), their capacities, the blocks and the classes."""

    active: tuple[int, ...]
    caps: tuple[int, ...]
    strides: tuple[int, ...]
    blocks: tuple[Block, ...]
    classes: tuple[CardClass, ...]


_PATTERNS: dict[tuple[object, ...], list[tuple[tuple[int, ...], list[Assignment]]]] = {}
_BLOCKS: dict[tuple[object, ...], Block] = {}
_CACHE_LIMIT = 20000


def decompose(problem: Problem, names: tuple[str, ...]) -> Decomposition:
    """Build the decomposition; raise `InconsistentCardsError` if a block cannot be satisfied."""
    active = tuple(h for h, cap in enumerate(problem.caps) if cap > 0)
    caps = tuple(problem.caps[h] for h in active)
    strides = []
    stride = 1
    for cap in caps:
        strides.append(stride)
        # Room for the capacity plus a block's largest use (at most the capacity).
        stride *= 2 * cap + 1
    merged: list[tuple[int, list[tuple[int, int]]]] = []
    for h, mask in problem.constraints:
        joined_mask, joined = mask, [(h, mask)]
        rest = []
        # Existing blocks are pairwise disjoint, so testing against the growing mask
        # finds exactly the blocks that meet the new constraint.
        for bmask, bcons in merged:
            if bmask & joined_mask:
                joined_mask |= bmask
                joined.extend(bcons)
            else:
                rest.append((bmask, bcons))
        rest.append((joined_mask, joined))
        merged = rest
    in_blocks = 0
    blocks = []
    for bmask, bcons in merged:
        in_blocks |= bmask
        blocks.append(_block(problem, active, tuple(strides), bmask, bcons, names))

    rest_cards = problem.free & ~in_blocks
    classes = []
    if rest_cards:
        may = [problem.may[h] for h in active]
        for compact in range(1, 1 << len(active)):
            cards = rest_cards
            allowed = 0
            for i, h in enumerate(active):
                if compact >> i & 1:
                    cards &= may[i]
                    allowed |= 1 << h
                else:
                    cards &= ~may[i]
                if not cards:
                    break
            if cards:
                classes.append(CardClass(allowed, compact, cards))
    return Decomposition(active, caps, tuple(strides), tuple(blocks), tuple(classes))


def _block(
    problem: Problem,
    active: tuple[int, ...],
    strides: tuple[int, ...],
    bmask: int,
    bcons: list[tuple[int, int]],
    names: tuple[str, ...],
) -> Block:
    cards = tuple(iter_bits(bmask))
    allowed = tuple(problem.allowed(c) for c in cards)
    pos = {c: i for i, c in enumerate(cards)}
    checks = tuple(sorted((h, sum(1 << pos[c] for c in iter_bits(m))) for h, m in bcons))
    caps = problem.caps
    key = (cards, allowed, checks, caps)
    block = _BLOCKS.get(key)
    if block is not None:
        return block
    pattern = (allowed, checks, len(caps))
    groups = _PATTERNS.get(pattern)
    if groups is None:
        groups = _enumerate(allowed, checks, len(caps))
        if len(_PATTERNS) >= _CACHE_LIMIT:
            _PATTERNS.clear()
        _PATTERNS[pattern] = groups
    kept = []
    shifts = []
    placed = []
    for usage, assigns in groups:
        if any(n > caps[h] for h, n in enumerate(usage)):
            continue
        kept.append((tuple(usage[h] for h in active), tuple(assigns)))
        shifts.append(sum(usage[h] * s for h, s in zip(active, strides, strict=True)))
        where = [0] * len(caps)
        for assign in assigns:
            for c, h in zip(cards, assign, strict=True):
                where[h] |= 1 << c
        placed.append(tuple(where))
    if not kept:
        who = ", ".join(sorted({names[h] for h, _ in bcons}))
        raise InconsistentCardsError(f"the at-least-one facts about {who} cannot all hold together")
    block = Block(cards, tuple(kept), tuple(shifts), tuple(placed))
    if len(_BLOCKS) >= _CACHE_LIMIT:
        _BLOCKS.clear()
    _BLOCKS[key] = block
    return block


def _enumerate(
    allowed: tuple[int, ...], checks: tuple[tuple[int, int], ...], n_holders: int
) -> list[tuple[tuple[int, ...], list[Assignment]]]:
    options = [tuple(iter_bits(a)) for a in allowed]
    checks_pos = [(h, tuple(iter_bits(ps))) for h, ps in checks]
    groups: dict[tuple[int, ...], list[Assignment]] = {}
    for assign in product(*options):
        if not all(any(assign[p] == h for p in ps) for h, ps in checks_pos):
            continue
        usage = [0] * n_holders
        for h in assign:
            usage[h] += 1
        groups.setdefault(tuple(usage), []).append(assign)
    return list(groups.items())
