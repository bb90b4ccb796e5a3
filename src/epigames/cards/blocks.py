"""Split a `Problem` into constraint blocks and classes of interchangeable cards.

Free cards that appear in no constraint (at-least-one or not-all) are grouped by their
allowed-holder set into *classes*: cards of one class are interchangeable, so only their
number matters to the solvers. Cards of constraints that share a card are joined into
*blocks*; a block's assignments that satisfy its constraints (each at-least-one holder
gets one of its cards, no not-all holder gets all of its cards) are enumerated and
grouped by how many cards each holder takes (its *usage*). In Kwartet a block is the
unknown cards of one kind (at most 4); the enumeration is exponential in the block size,
the only exponential step of the engine. Enumerations are cached by the block's pattern
(allowed holders per card and constraints), which repeats from one knowledge state to the
next.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any

from epigames.cards.errors import InconsistentCardsError
from epigames.cards.problem import Problem
from epigames.cards.public import iter_bits, popcount
from epigames.cards.slots import rebuilt, slot_maker

Usage = tuple[int, ...]
Assignment = tuple[int, ...]
Group = tuple[Usage, tuple[Assignment, ...]]
Placed = tuple[int, ...]
Tally = tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class Block:
    """Cards tied together by constraints, with their valid assignments.

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
    pattern: _Pattern
    picks: tuple[int, ...]

    # shifts: per group, the usage as an index offset in the bitset encoding of
    # `epigames.cards.feasibility` (strides of `Decomposition.strides`).
    # placed: per group, per holder, the cards some assignment of the group puts there.
    # pattern: the card-free pattern the groups come from; picks: per group, its index
    # among the pattern's groups (for `tallies`).

    def tallies(self) -> tuple[Tally, ...]:
        """Per group, ``(position in cards, holder, n)``: n of the group's assignments put
        that card with the holder (the marginals add a group's count once per entry, not
        once per card of each assignment). Made on first use, once per pattern."""
        every = self.pattern.tallies()
        return tuple([every[g] for g in self.picks])

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)


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

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Decomposition:
    """The active holders (with room), their capacities, the blocks and the classes."""

    active: tuple[int, ...]
    caps: tuple[int, ...]
    strides: tuple[int, ...]
    blocks: tuple[Block, ...]
    classes: tuple[CardClass, ...]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)


class _Pattern:
    """A block pattern's assignments grouped by usage over all holders, card-free.

    Everything here is in positions (a block's cards in order), so it serves every block
    of the pattern, across blocks and games; only `_Raw` ties it to cards.
    """

    __slots__ = ("_tallies", "active", "every", "groups", "limit")

    def __init__(self, groups: list[tuple[Usage, tuple[Assignment, ...], Placed]], n: int) -> None:
        # (usage per holder, assignments, per holder the positions some assignment fills)
        self.groups = groups
        # Per group, (position, holder, how many of its assignments put it there).
        self._tallies: tuple[Tally, ...] | None = None  # counting's, made when first asked
        self.every = tuple(range(len(groups)))
        # Per holder, the most cards any group gives it: capacities at least this large
        # keep every group, so the per-group capacity check can be skipped.
        self.limit = tuple(max((u[h] for u, _, _ in groups), default=0) for h in range(n))
        # Per tuple of active holders, for capacities that keep every group (the usual
        # case): the groups' usages over those holders, with their assignments.
        self.active: dict[tuple[int, ...], tuple[Group, ...]] = {}

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Made anew from its groups: a block that is pickled carries its pattern.
        return (_Pattern, (self.groups, len(self.limit)))

    def tallies(self) -> tuple[Tally, ...]:
        """Per group, `_tally` of its assignments (made once, when counting first asks)."""
        if self._tallies is None:
            self._tallies = tuple([_tally(assigns) for _, assigns, _ in self.groups])
        return self._tallies

    def over(self, active: tuple[int, ...]) -> tuple[Group, ...]:
        """The groups with their usages over ``active`` only."""
        got = self.active.get(active)
        if got is None:
            got = self.active[active] = tuple(
                [(tuple([usage[h] for h in active]), assigns) for usage, assigns, _ in self.groups]
            )
        return got


#: Per pattern (allowed holders per position, constraints over positions, holders).
_PATTERNS: dict[tuple[object, ...], _Pattern] = {}
# Bounds keep memory flat over any number of games. Patterns (no card names) recur
# across games; a block's cards and holders recur within one game only.
_CACHE_LIMIT = 4096
_RAW_LIMIT = 2048
# Per `_Raw`: the strides follow the capacities, which take a few values in one game.
_BLOCKS_LIMIT = 32


def decompose(problem: Problem, names: tuple[str, ...]) -> Decomposition:
    """Build the decomposition; raise `InconsistentCardsError` if a block cannot be satisfied."""
    active = tuple(h for h, cap in enumerate(problem.caps) if cap > 0)
    caps = tuple(problem.caps[h] for h in active)
    # Per block: its cards, at-least-one constraints and not-all constraints.
    merged: list[tuple[int, list[tuple[int, int]], list[tuple[int, int]]]] = []
    n_cons = len(problem.constraints)
    for i, (h, mask) in enumerate((*problem.constraints, *problem.exclusions)):
        joined_mask = mask
        joined: list[tuple[int, int]] = [(h, mask)] if i < n_cons else []
        excluded: list[tuple[int, int]] = [] if i < n_cons else [(h, mask)]
        rest = []
        # Existing blocks are pairwise disjoint, so testing against the growing mask
        # finds exactly the blocks that meet the new constraint.
        for bmask, bcons, bexcl in merged:
            if bmask & joined_mask:
                joined_mask |= bmask
                joined.extend(bcons)
                excluded.extend(bexcl)
            else:
                rest.append((bmask, bcons, bexcl))
        rest.append((joined_mask, joined, excluded))
        merged = rest
    # Each digit has room for its capacity plus a block's largest use (at most the
    # capacity and the block's size): the feasibility pass needs no carries (see there).
    largest = max([popcount(bmask) for bmask, _, _ in merged], default=0)
    # The last holder has no digit (stride 0): a block's use of it is the block's size
    # less its use of the others, so the feasibility pass does not carry it.
    strides = []
    stride = 1
    for j in range(len(caps)):
        strides.append(stride if j < len(caps) - 1 else 0)
        stride *= caps[j] + min(caps[j], largest) + 1
    in_blocks = 0
    blocks = []
    for bmask, bcons, bexcl in merged:
        in_blocks |= bmask
        blocks.append(_block(problem, active, tuple(strides), bmask, bcons, bexcl, names))

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
                classes.append(_card_class(allowed, compact, cards))
    return _decomposition(active, caps, tuple(strides), tuple(blocks), tuple(classes))


class _Raw:
    """A block's `_Pattern` with its cards: where each group puts which cards."""

    __slots__ = ("blocks", "cards", "pattern", "placed")

    def __init__(self, cards: tuple[int, ...], pattern: _Pattern) -> None:
        self.cards = cards
        self.pattern = pattern
        # Per (active holders, strides) whose capacities keep every group: the block. It
        # recurs for the seats of one state and from one state to the next.
        self.blocks: dict[tuple[tuple[int, ...], tuple[int, ...]], Block] = {}
        # Positions to cards by table, not bit by bit: the table (one entry per subset of
        # positions) costs no more than the enumeration, which tries at least as many.
        spread = [0] * (1 << len(cards))
        for i, card in enumerate(cards):
            bit = 1 << i
            for s in range(bit):
                spread[bit | s] = spread[s] | 1 << card
        # Per group, per holder, the cards some assignment of the group puts there.
        self.placed = tuple(
            [tuple([spread[spots] for spots in positions]) for _, _, positions in pattern.groups]
        )


_RAW: dict[tuple[object, ...], _Raw] = {}


def _evict_half(cache: dict[Any, Any], limit: int) -> None:
    """Drop the oldest half of ``cache`` once it holds ``limit`` entries (dicts keep
    insertion order): what recurs is recent, and clearing all would lose it too."""
    if len(cache) >= limit:
        for old in list(cache)[: limit // 2]:
            del cache[old]


def _raw(
    problem: Problem, bmask: int, bcons: list[tuple[int, int]], bexcl: list[tuple[int, int]]
) -> _Raw:
    # Keyed on the block's own cards, allowed holders and constraints (cheap to build);
    # capacities change on almost every move, so they are applied afterwards, not keyed.
    may = tuple([m & bmask for m in problem.may])
    key = (bmask, may, tuple(bcons), tuple(bexcl))
    raw = _RAW.get(key)
    if raw is not None:
        return raw
    cards = tuple(iter_bits(bmask))
    allowed = tuple(sum(1 << h for h, m in enumerate(may) if m >> c & 1) for c in cards)
    pos = {c: i for i, c in enumerate(cards)}
    checks = tuple(sorted((h, sum(1 << pos[c] for c in iter_bits(m))) for h, m in bcons))
    bans = tuple(sorted((h, sum(1 << pos[c] for c in iter_bits(m))) for h, m in bexcl))
    n = len(may)
    key_pattern = (allowed, checks, bans, n)
    pattern = _PATTERNS.get(key_pattern)
    if pattern is None:
        pattern = _Pattern(_enumerate(allowed, checks, bans, n), n)
        _evict_half(_PATTERNS, _CACHE_LIMIT)
        _PATTERNS[key_pattern] = pattern
    raw = _Raw(cards, pattern)
    _evict_half(_RAW, _RAW_LIMIT)
    _RAW[key] = raw
    return raw


def _block(
    problem: Problem,
    active: tuple[int, ...],
    strides: tuple[int, ...],
    bmask: int,
    bcons: list[tuple[int, int]],
    bexcl: list[tuple[int, int]],
    names: tuple[str, ...],
) -> Block:
    raw = _raw(problem, bmask, bcons, bexcl)
    pattern = raw.pattern
    caps = problem.caps
    limit = pattern.limit
    # Index loops, not `zip(..., strict=True)`: compiled, a zip with a keyword is a call.
    if all(caps[h] >= limit[h] for h in range(len(caps))):
        # Every group fits: only the shifts depend on the capacities, through the strides.
        key = (active, strides)
        got = raw.blocks.get(key)
        if got is None:
            every = pattern.over(active)
            every_shift = []
            for usage, _ in every:
                shift = 0
                for j in range(len(strides)):
                    shift += usage[j] * strides[j]
                every_shift.append(shift)
            if len(raw.blocks) >= _BLOCKS_LIMIT:
                raw.blocks.clear()
            got = raw.blocks[key] = _block_of(
                raw.cards, every, tuple(every_shift), raw.placed, pattern, pattern.every
            )
        return got
    kept = []
    shifts = []
    placed = []
    picks = []
    for g, (usage, assigns, _) in enumerate(pattern.groups):
        if any(usage[h] > caps[h] for h in range(len(caps))):
            continue
        kept.append((tuple(usage[h] for h in active), assigns))
        shift = 0
        for j in range(len(active)):
            shift += usage[active[j]] * strides[j]
        shifts.append(shift)
        placed.append(raw.placed[g])
        picks.append(g)
    if not kept:
        who = ", ".join(sorted({names[h] for h, _ in (*bcons, *bexcl)}))
        raise InconsistentCardsError(
            f"the at-least-one and not-all facts about {who} cannot all hold together"
        )
    return _block_of(raw.cards, tuple(kept), tuple(shifts), tuple(placed), pattern, tuple(picks))


def _enumerate(
    allowed: tuple[int, ...],
    checks: tuple[tuple[int, int], ...],
    bans: tuple[tuple[int, int], ...],
    n_holders: int,
) -> list[tuple[Usage, tuple[Assignment, ...], Placed]]:
    options = [tuple(iter_bits(a)) for a in allowed]
    checks_pos = [(h, tuple(iter_bits(ps))) for h, ps in checks]
    bans_pos = [(h, tuple(iter_bits(ps))) for h, ps in bans]
    groups: dict[tuple[int, ...], list[Assignment]] = {}
    for assign in product(*options):
        if not all(any(assign[p] == h for p in ps) for h, ps in checks_pos):
            continue
        if any(all(assign[p] == h for p in ps) for h, ps in bans_pos):
            continue
        usage = [0] * n_holders
        for h in assign:
            usage[h] += 1
        groups.setdefault(tuple(usage), []).append(assign)
    # Where each group puts cards, by position in the block: a block's cards recur with
    # other holders and facts, its pattern across blocks and games.
    found: list[tuple[Usage, tuple[Assignment, ...], Placed]] = []
    for used, assigns in groups.items():
        spots = [0] * n_holders
        for assign in assigns:
            for i, h in enumerate(assign):
                spots[h] |= 1 << i
        found.append((used, tuple(assigns), tuple(spots)))
    return found


def _tally(assigns: tuple[Assignment, ...]) -> Tally:
    """(position, holder, n): n of the assignments put the position with the holder."""
    counts: dict[tuple[int, int], int] = {}
    for assign in assigns:
        for p, h in enumerate(assign):
            counts[p, h] = counts.get((p, h), 0) + 1
    return tuple([(p, h, n) for (p, h), n in sorted(counts.items())])


# Made on every decision, so through the attributes' own setters (`slot_maker`).
_block_of = slot_maker(Block)
_card_class = slot_maker(CardClass)
_decomposition = slot_maker(Decomposition)
