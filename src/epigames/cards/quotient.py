"""Formulas on a quotient of the deals: a model of the cards a formula names, at any size.

A formula names a few cards. The unknown cards fall into *items*: each named card alone,
and the others grouped by profile (the same allowed holders, and in the same live
at-least-one and not-all sets), so that permuting the cards of an item maps consistent
deals to consistent deals and keeps every seat's "same hand" relation. The facts tie items
into *components*; the components that hold a named card are *touched*, the others
*untouched*. A world of the quotient is a placement of the touched items: how many of
each item's cards each holder has (a named card's holder).

Identifying the deals with the same touched placement is exact (a bounded morphism, so
every formula over the named cards keeps its truth: K, C, announcements) when, for every
seat, every way the seat may hold untouched cards completes to a deal whatever the
placement of the touched ones (`_Untouched`). Then two worlds are alike to a seat when it
holds the same touched cards in both. That condition is checked, not assumed: the
placements of one component to the other holders form an M-convex set, whose sum over the
components contains the holders' remaining room if and only if every set of holders can
take its room (`_Untouched.check`); the worst way the seat may hold its untouched cards is
found by a small dynamic program. Where it does not hold, `quotient` returns None.

So Kwartet for six players is answered from the deal, Kemps for eight players after a
failed "Stop Kemps", with models of a few hundred to a few hundred thousand worlds.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import factorial

import numpy as np
import numpy.typing as npt

from epigames.cards.symbolic import NODES_PER_COMBINATION, CardStructure
from epigames.logic import KripkeModel, formula as fm
from epigames.logic.formula import Formula

__all__ = ["MAX_QUOTIENT_WORLDS", "alike_deals", "evaluator", "quotient"]

#: The most placements of the touched items that are listed (the quotient's worlds).
MAX_QUOTIENT_WORLDS = 200_000
#: The most cards of an untouched component of several items whose placements are listed.
MAX_LISTED_CARDS = 10

_Counts = tuple[int, ...]  # per hidden holder (in `_Split.hidden` order)
_Placement = tuple[_Counts, ...]  # per item of a component
_INF = np.iinfo(np.int64).max // 4


@dataclass(frozen=True, slots=True)
class _Item:
    """Alike unknown cards: a named card alone, or cards no live fact tells apart.

    Attributes:
        cards: the cards, as a bitmask.
        size: how many.
        allowed: per hidden holder (in `_Split.hidden` order), whether it may hold them.
    """

    cards: int
    size: int
    allowed: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class _Fact:
    """A live fact at one hidden holder (its position) over whole items.

    ``some``: the holder has at least one of the items' cards; otherwise the holder does
    not have all of them.
    """

    at: int
    items: frozenset[int]
    some: bool

    def holds(
        self, placement: Sequence[_Counts], sizes: Sequence[int], index: dict[int, int]
    ) -> bool:
        """Whether the fact holds for a placement of a component (`index`: item → row)."""
        counts = [placement[index[i]][self.at] for i in self.items]
        if self.some:
            return any(counts)
        return not all(n == sizes[i] for n, i in zip(counts, self.items, strict=True))


@dataclass(frozen=True, slots=True)
class _Split:
    """The unknown cards of a structure cut into items and components for named cards.

    Attributes:
        hidden: the holders whose cards are not public (holder indices).
        room: per hidden holder, how many of its cards are unknown.
        items: the items.
        facts: the live facts.
        components: item indices tied by facts, touched ones first.
        touched: how many components hold a named card.
    """

    hidden: tuple[int, ...]
    room: tuple[int, ...]
    items: tuple[_Item, ...]
    facts: tuple[_Fact, ...]
    components: tuple[tuple[int, ...], ...]
    touched: int

    @classmethod
    def of(cls, cards: CardStructure, named: frozenset[int]) -> _Split:
        """Cut the unknown cards of `cards` for the named card indices."""
        public, layout = cards.public, cards.layout
        hidden = tuple(h for h in range(layout.n_holders) if h not in layout.public)
        unknown = public.unknown
        room = tuple(public.counts[h] - public.holding[h].bit_count() for h in hidden)
        live: list[tuple[int, int, bool]] = [
            (hidden.index(h), mask & unknown, True) for h, mask in public.constraints
        ]
        never = [(h, g) for g in public.groups for h in hidden] + list(cards.not_all)
        for h, mask in never:
            known = mask & ~unknown
            # Out of play, or a known card elsewhere: the holder cannot have all of them.
            if h not in hidden or mask & public.removed or known & ~public.holding[h]:
                continue
            if mask & unknown:
                live.append((hidden.index(h), mask & unknown, False))
        masks = sorted({mask for _, mask, _ in live})
        profiles: dict[tuple[object, ...], int] = {}
        for c in range(layout.n_cards):
            if not unknown >> c & 1:
                continue
            allowed = tuple(not public.lacking[h] >> c & 1 for h in hidden)
            key: tuple[object, ...] = (
                ("named", c) if c in named else (allowed, *(bool(m >> c & 1) for m in masks))
            )
            profiles[key] = profiles.get(key, 0) | 1 << c
        items = tuple(
            _Item(mask, mask.bit_count(), tuple(not public.lacking[h] & mask for h in hidden))
            for mask in profiles.values()
        )
        facts = tuple(
            sorted(
                {
                    _Fact(at, frozenset(i for i, it in enumerate(items) if it.cards & mask), some)
                    for at, mask, some in live
                },
                key=lambda f: (f.at, sorted(f.items), f.some),
            )
        )
        # Components: items tied by a fact (union-find).
        parent = list(range(len(items)))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for fact in facts:
            first, *others = sorted(fact.items)
            for i in others:
                parent[root(i)] = root(first)
        groups: dict[int, list[int]] = {}
        for i in range(len(items)):
            groups.setdefault(root(i), []).append(i)
        named_items = {i for i, it in enumerate(items) if any(it.cards >> c & 1 for c in named)}
        touched = [tuple(g) for g in groups.values() if named_items & set(g)]
        apart = [tuple(g) for g in groups.values() if not named_items & set(g)]
        return cls(hidden, room, items, facts, (*touched, *apart), len(touched))

    def touching(self, component: int) -> _Split:
        """The same split with one more component (an untouched one's index) touched."""
        order = list(self.components)
        moved = order.pop(component)
        order.insert(self.touched, moved)
        return _Split(
            self.hidden, self.room, self.items, self.facts, tuple(order), self.touched + 1
        )

    def component_facts(self, component: Sequence[int]) -> list[_Fact]:
        """The facts over a component's items."""
        inside = set(component)
        return [f for f in self.facts if f.items <= inside]

    def placements(self, component: Sequence[int], limit: int) -> list[_Placement] | None:
        """Every placement of a component's items that keeps its facts and the rooms;
        None past `limit` candidates."""
        items = [self.items[i] for i in component]
        spreads = [list(_spread(it.size, it.allowed, self.room)) for it in items]
        size = 1
        for s in spreads:
            size *= len(s)
        if size > limit:
            return None
        facts = self.component_facts(component)
        sizes = [it.size for it in self.items]
        index = {i: k for k, i in enumerate(component)}
        found = []
        for placement in itertools.product(*spreads):
            totals = [sum(col) for col in zip(*placement, strict=True)]
            if any(n > r for n, r in zip(totals, self.room, strict=True)):
                continue
            if all(f.holds(placement, sizes, index) for f in facts):
                found.append(placement)
        return found


def _spread(size: int, allowed: Sequence[bool], room: Sequence[int]) -> Iterator[_Counts]:
    """Every way to put `size` alike cards on the allowed holders within their rooms."""
    caps = [min(size, r) if a else 0 for a, r in zip(allowed, room, strict=True)]

    def rest(position: int, left: int) -> Iterator[list[int]]:
        if position == len(caps):
            if left == 0:
                yield []
            return
        if left > sum(caps[position:]):
            return
        for n in range(min(left, caps[position]), -1, -1):
            for tail in rest(position + 1, left - n):
                yield [n, *tail]

    for counts in rest(0, size):
        yield tuple(counts)


class _Untouched:
    """The untouched components: whether a room vector completes, for everyone and for
    every way a seat may hold its untouched cards.

    For a component, the vectors of how many of its cards each holder gets form an
    M-convex set; their sum over the components contains the rooms `r` exactly when
    ``r(B) <= sum of max x(B)`` for every set B of holders (the components' rank
    functions add up). For a seat, the worst of its ways to hold untouched cards (a row
    `u`, of the size its room leaves) minimises the right-hand side; a dynamic program
    over the components finds that minimum for every B at once.
    """

    def __init__(self, split: _Split, seats: Sequence[int]) -> None:
        self.split = split
        hidden = split.hidden
        self.positive = [j for j, r in enumerate(split.room) if r > 0]
        self.ok = True
        self.full_rank, self.full_subsets = self._ranks(None)
        self.seat_rank: dict[int, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]] = {}
        for seat in seats:
            j = hidden.index(seat)
            if split.room[j] > 0 and self.ok:
                best, subsets = self._ranks(j)
                self.seat_rank[j] = (best, subsets)

    def _ranks(self, seat: int | None) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """For the holders (bar `seat`) with room: the subset matrix, and the least total
        rank over the components per subset (per seat total, for a seat; one row for all)."""
        split = self.split
        holders = [j for j in self.positive if j != seat]
        q = len(holders)
        subsets = np.array(
            [[(b >> k) & 1 for b in range(1 << q)] for k in range(q)], dtype=np.int64
        ).reshape(q, 1 << q)
        most = split.room[seat] if seat is not None else 0
        dp = np.full((most + 1, 1 << q), _INF, dtype=np.int64)
        dp[0] = 0
        for component in split.components[split.touched :]:
            cost = self._component_cost(component, seat, holders, subsets, most)
            if cost is None:
                self.ok = False
                return dp, subsets
            new = np.full_like(dp, _INF)
            for t in range(most + 1):
                for d in range(min(t, len(cost) - 1) + 1):
                    if cost[d] is not None:
                        np.minimum(new[t], dp[t - d] + cost[d], out=new[t])
            dp = np.minimum(new, _INF)
        return dp, subsets

    def _component_cost(
        self,
        component: Sequence[int],
        seat: int | None,
        holders: Sequence[int],
        subsets: npt.NDArray[np.int64],
        most: int,
    ) -> list[npt.NDArray[np.int64] | None] | None:
        """Per number `t` of the component's cards at `seat`, the least over the seat's
        ways of holding `t` of them of the most the others in each subset can take; None
        entries where the seat cannot hold `t`. None when the component is not handled."""
        split = self.split
        if len(component) == 1:
            return self._one_item(component[0], seat, holders, subsets, most)
        if sum(split.items[i].size for i in component) > MAX_LISTED_CARDS or not _laminar(
            split.component_facts(component)
        ):
            return None
        placements = split.placements(component, _INF)
        assert placements is not None
        by_row: dict[tuple[int, ...], list[list[int]]] = {}
        for placement in placements:
            row = tuple(col[seat] for col in placement) if seat is not None else ()
            totals = [sum(col[j] for col in placement) for j in holders]
            by_row.setdefault(row, []).append(totals)
        if not by_row:
            return None  # the component cannot be placed: not a consistent state
        cost: list[npt.NDArray[np.int64] | None] = [None] * (most + 1)
        for row, vectors in by_row.items():
            t = sum(row)
            if t > most:
                continue
            rank = (np.array(vectors, dtype=np.int64) @ subsets).max(axis=0)
            before = cost[t]
            cost[t] = rank if before is None else np.minimum(before, rank)
        return cost

    def _one_item(
        self,
        i: int,
        seat: int | None,
        holders: Sequence[int],
        subsets: npt.NDArray[np.int64],
        most: int,
    ) -> list[npt.NDArray[np.int64] | None] | None:
        """`_component_cost` of one item: a box per holder (at least one, not all) and a
        total, so its rank is ``min(left - low outside B, high in B)``."""
        split = self.split
        item = split.items[i]
        n = len(split.hidden)
        low = [0] * n
        high = [
            min(item.size, r) if a else 0 for a, r in zip(item.allowed, split.room, strict=True)
        ]
        for fact in split.component_facts([i]):
            if fact.some:
                low[fact.at] = 1
            else:
                high[fact.at] = min(high[fact.at], item.size - 1)
        if any(lo > hi for lo, hi in zip(low, high, strict=True)):
            return None
        others = [j for j in range(n) if j != seat]
        low_others = sum(low[j] for j in others)
        high_others = sum(high[j] for j in others)
        low_in = np.array([low[j] for j in holders], dtype=np.int64) @ subsets
        high_in = np.array([high[j] for j in holders], dtype=np.int64) @ subsets
        cost: list[npt.NDArray[np.int64] | None] = [None] * (most + 1)
        for t in range(most + 1):
            if seat is not None and not low[seat] <= t <= high[seat]:
                continue
            if seat is None and t:
                continue
            left = item.size - t
            if not low_others <= left <= high_others:
                continue
            cost[t] = np.minimum(left - (low_others - low_in), high_in)
        return cost

    def completes(self, rooms: Sequence[int]) -> bool:
        """Whether the untouched cards fill these rooms (per hidden holder) in some deal."""
        r = np.array([rooms[j] for j in self.positive], dtype=np.int64)
        return bool(np.all(r @ self.full_subsets <= self.full_rank[0]))

    def uniform(self, rooms: Sequence[int]) -> bool:
        """Whether every seat's every way of holding untouched cards completes (given
        that the rooms complete at all)."""
        for j, (best, subsets) in self.seat_rank.items():
            left = rooms[j]
            r = np.array([rooms[k] for k in self.positive if k != j], dtype=np.int64)
            if not np.all(r @ subsets <= best[left]):
                return False
        return True


def _laminar(facts: Sequence[_Fact]) -> bool:
    """Whether, per holder, the facts' item sets are nested or apart (so a component's
    placements are a network flow's, an M-convex set)."""
    for a, b in itertools.combinations(facts, 2):
        if a.at == b.at and a.items & b.items and not (a.items <= b.items or b.items <= a.items):
            return False
    return True


def _needs_joint(formula: Formula) -> bool:
    """Whether the formula pools several seats' hands (distributed knowledge) or
    quantifies atoms: the per-seat check of `_Untouched` does not cover those."""
    return any(
        (isinstance(f, fm.D | fm.Dw) and len(f.group) > 1) or isinstance(f, fm.Quantified)
        for f in formula.walk()
    )


def quotient(
    cards: CardStructure,
    named: frozenset[int],
    deal: Sequence[int],
    formula: Formula | None = None,
) -> KripkeModel | None:
    """The quotient model for the cards `named` (indices), the true `deal` designated.

    Worlds are placements of the touched items; agents are the players' holder names;
    atoms are the structure's atom names of the named cards.

    None when it is not exact or too large: the untouched cards may decide some seat's
    view even with every component listed that fits, the touched items have more than
    `MAX_QUOTIENT_WORLDS` placements, or `formula` (when given) pools several seats'
    knowledge (D) or quantifies atoms while the untouched cards are not all alike.
    """
    split = _Split.of(cards, named)
    if formula is not None and _needs_joint(formula) and len(split.components) - split.touched > 1:
        return None
    while True:
        model = _model(cards, split, named, deal)
        if isinstance(model, KripkeModel):
            return model
        if model is None or split.touched == len(split.components):
            return None
        # A seat's view depends on how untouched cards lie: list one more component's
        # placements as worlds, the one with the fewest.
        sizes = {
            k: len(found)
            for k in range(split.touched, len(split.components))
            if (found := split.placements(split.components[k], MAX_QUOTIENT_WORLDS)) is not None
        }
        if not sizes:
            return None
        split = split.touching(min(sizes, key=lambda k: (sizes[k], k)))


def alike_deals(cards: CardStructure) -> int | None:
    """How many deals keep the public facts, in closed form when the unknown cards are all
    alike (one item); None otherwise (the card engine counts them then)."""
    split = _Split.of(cards, frozenset())
    if len(split.items) > 1:
        return None
    deals = factorial(sum(split.room))
    for room in split.room:
        deals //= factorial(room)
    if split.items:
        item = split.items[0]
        for fact in split.facts:
            # One item fills every room: a holder has some of it exactly when it has room,
            # and all of it when its room is the whole item.
            room = split.room[fact.at]
            if (fact.some and room == 0) or (not fact.some and room == item.size):
                return 0
        if any(room and not item.allowed[j] for j, room in enumerate(split.room)):
            return 0
    return deals


def evaluator(
    cards: CardStructure, formula: Formula, deal: Sequence[int], limit: int | None
) -> Callable[[Formula], bool]:
    """The truth at `deal` of formulas over the atoms of `formula` (it, `K_seat` it, …).

    The knowledge structure answers within `limit` hand-size combinations; past it the
    quotient for the formula's cards, and failing that the structure while its law stays
    within `NODES_PER_COMBINATION` nodes per combination of the limit.

    Raises:
        StructureTooLargeError: none of the three applies.
        UnknownCardError, UnknownAgentError: the formula names no such card or seat.
    """
    cards.canonical(formula)  # a bad name is reported before any work
    if not cards.within(limit):
        named = frozenset(cards.literal(a)[0] for a in formula.atoms())
        model = quotient(cards, named, deal, formula)
        if model is not None:
            return lambda g: model.holds(cards.canonical(g))
        assert limit is not None  # `within` holds for no limit
        cards.build(limit, nodes=NODES_PER_COMBINATION * limit)
    cards.build(limit)  # built already, or within the limit
    return lambda g: cards.holds(g, deal)


def _model(
    cards: CardStructure, split: _Split, named: frozenset[int], deal: Sequence[int]
) -> KripkeModel | bool | None:
    """The quotient model of a split; False when a seat's view depends on untouched cards,
    None when it is too large or the deal is not consistent."""
    public, layout = cards.public, cards.layout
    players = sorted(layout.players)
    rest = _Untouched(split, players)
    if not rest.ok:
        return None
    touched = split.components[: split.touched]
    options: list[list[_Placement]] = []
    size = 1
    for component in touched:
        found = split.placements(component, MAX_QUOTIENT_WORLDS)
        if found is None:
            return None
        options.append(found)
        size *= len(found)
    if size > MAX_QUOTIENT_WORLDS:
        return None
    rows = [i for component in touched for i in component]
    hidden = split.hidden
    where = {hidden[j]: j for j in range(len(hidden))}
    true_counts = tuple(
        tuple(
            sum(1 for c in range(layout.n_cards) if split.items[i].cards >> c & 1 and deal[c] == h)
            for h in hidden
        )
        for i in rows
    )
    fixed = [
        cards.atom[c, public.where(c)]
        for c in named
        if public.where(c) >= 0 and (c, public.where(c)) in cards.atom
    ]
    named_rows = [
        (k, c) for k, i in enumerate(rows) for c in named if split.items[i].cards >> c & 1
    ]
    checked: dict[tuple[int, ...], bool] = {}
    worlds: list[str] = []
    valuation: dict[str | int, list[str]] = {}
    blocks: dict[str, dict[tuple[int, ...], list[str]]] = {layout.holders[p]: {} for p in players}
    true = None
    for parts in itertools.product(*options):
        counts = tuple(row for part in parts for row in part)
        rooms = tuple(r - sum(row[j] for row in counts) for j, r in enumerate(split.room))
        if any(r < 0 for r in rooms):
            continue
        fits = checked.get(rooms)
        if fits is None:
            fits = rest.completes(rooms)
            if fits and not rest.uniform(rooms):
                return False  # a seat's view would depend on untouched cards
            checked[rooms] = fits
        if not fits:
            continue
        name = str(len(worlds))
        worlds.append(name)
        valuation[name] = fixed + [cards.atom[c, hidden[counts[k].index(1)]] for k, c in named_rows]
        for p in players:
            j = where[p]
            blocks[layout.holders[p]].setdefault(tuple(row[j] for row in counts), []).append(name)
        if counts == true_counts:
            true = name
    if true is None:
        return None  # the deal is not consistent with the public facts: not ours to say
    return KripkeModel.build(
        worlds,
        valuation,
        partitions={agent: list(b.values()) for agent, b in blocks.items()},
        designated=[true],
    )
