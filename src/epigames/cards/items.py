"""The unknown cards of a structure cut into items and components for the cards a formula names.

Each named card is an item alone; the other unknown cards are grouped by profile (the
same allowed holders, and in the same live at-least-one and not-all sets), so that
permuting the cards of an item maps consistent deals to consistent deals and keeps every
seat's "same hand" relation. The facts tie items into *components*; the components that
hold a named card are *touched*, the others *untouched*.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import cast

from epigames.cards.symbolic import CardStructure

__all__ = ["Counts", "Fact", "Item", "Placement", "Split", "laminar"]

Counts = tuple[int, ...]  # per hidden holder (in `Split.hidden` order)
Placement = tuple[Counts, ...]  # per item of a component


@dataclass(frozen=True, slots=True)
class Item:
    """Alike unknown cards: a named card alone, or cards no live fact tells apart.

    Attributes:
        cards: the cards, as a bitmask.
        size: how many.
        allowed: per hidden holder (in `Split.hidden` order), whether it may hold them.
    """

    cards: int
    size: int
    allowed: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Fact:
    """A live fact at one hidden holder (its position) over whole items.

    ``some``: the holder has at least one of the items' cards; otherwise the holder does
    not have all of them.
    """

    at: int
    items: frozenset[int]
    some: bool

    def holds(
        self, placement: Sequence[Counts], sizes: Sequence[int], index: Mapping[int, int]
    ) -> bool:
        """Whether the fact holds for a placement of a component (`index`: item → row)."""
        counts = [placement[index[i]][self.at] for i in self.items]
        if self.some:
            return any(counts)
        return not all(n == sizes[i] for n, i in zip(counts, self.items, strict=True))

    def given(self, at: Mapping[int, int]) -> Fact | bool:
        """The fact once some of its items (single cards: item → position) are placed:
        True when that satisfies it, False when it breaks it, else the fact on the rest."""
        placed = [p for i, p in at.items() if i in self.items]
        if not placed:
            return self
        if self.some and self.at in placed:
            return True
        if not self.some and any(p != self.at for p in placed):
            return True
        rest = self.items.difference(at)
        return Fact(self.at, rest, self.some) if rest else False


def _components(items: Iterable[int], facts: Iterable[Fact]) -> list[tuple[int, ...]]:
    """The items tied together by facts (union-find), in item order."""
    parent = {i: i for i in items}

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
    for i in sorted(parent):
        groups.setdefault(root(i), []).append(i)
    return [tuple(g) for g in groups.values()]


@dataclass(frozen=True, slots=True)
class Split:
    """The unknown cards of a structure cut into items and components for named cards.

    Attributes:
        hidden: the holders whose cards are not public (holder indices).
        room: per hidden holder, how many of its cards are unknown.
        items: the items.
        facts: the live facts.
        components: item indices tied by facts, touched ones first.
        touched: how many components hold a named card.
        named: the items that are a named card.
    """

    hidden: tuple[int, ...]
    room: tuple[int, ...]
    items: tuple[Item, ...]
    facts: tuple[Fact, ...]
    components: tuple[tuple[int, ...], ...]
    touched: int
    named: frozenset[int]

    @classmethod
    def of(cls, cards: CardStructure, named: frozenset[int]) -> Split:
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
            Item(mask, mask.bit_count(), tuple(not public.lacking[h] & mask for h in hidden))
            for mask in profiles.values()
        )
        facts = tuple(
            sorted(
                {
                    Fact(at, frozenset(i for i, it in enumerate(items) if it.cards & mask), some)
                    for at, mask, some in live
                },
                key=lambda f: (f.at, sorted(f.items), f.some),
            )
        )
        named_items = frozenset(
            i for i, it in enumerate(items) if any(it.cards >> c & 1 for c in named)
        )
        groups = _components(range(len(items)), facts)
        touched = [g for g in groups if named_items & set(g)]
        apart = [g for g in groups if not named_items & set(g)]
        return cls(hidden, room, items, facts, (*touched, *apart), len(touched), named_items)

    def touching(self, component: int) -> Split:
        """The same split with one more component (an untouched one's index) touched."""
        order = list(self.components)
        moved = order.pop(component)
        order.insert(self.touched, moved)
        return replace(self, components=tuple(order), touched=self.touched + 1)

    def given(self, at: Mapping[int, int]) -> Split | None:
        """The touched components' other items once the named items are placed (item →
        position): the facts that still bind them, cut into components (all untouched);
        None when the placement breaks a fact."""
        inside = {i for component in self.components[: self.touched] for i in component}
        facts: set[Fact] = set()
        for fact in self.facts:
            if not fact.items & inside:
                continue
            left = fact.given(at)
            if left is False:
                return None
            if isinstance(left, Fact):
                facts.add(left)
        ordered = tuple(sorted(facts, key=lambda f: (f.at, sorted(f.items), f.some)))
        rest = _components(inside - at.keys(), ordered)
        return replace(self, facts=ordered, components=tuple(rest), touched=0)

    def component_facts(self, component: Sequence[int]) -> list[Fact]:
        """The facts over a component's items."""
        inside = set(component)
        return [f for f in self.facts if f.items <= inside]

    def placements(self, component: Sequence[int], limit: int) -> tuple[Placement, ...] | None:
        """Every placement of a component's items that keeps its facts and the rooms;
        None past `limit` candidates."""
        items = tuple(self.items[i] for i in component)
        key = (tuple(component), items, self.room, tuple(self.component_facts(component)), limit)
        found = _PLACED.get(key, _PLACED)
        if found is _PLACED:
            found = _placements(*key)
            if found is None or len(found) <= _KEEP_AT_MOST:
                with _PLACED_LOCK:  # the web app's threads share it
                    if len(_PLACED) >= _KEPT:
                        del _PLACED[next(iter(_PLACED))]  # the oldest
                    _PLACED[key] = found
        return cast("tuple[Placement, ...] | None", found)


# A seat's pictures and counts list the same few components over and over (a six-player
# Kwartet picture asks ~16 times, mostly for components listed before; 6,024 calls, 81
# distinct, over 48 pictures): the result depends on nothing but the arguments, so the
# small ones are kept.
_PLACED: dict[object, object] = {}
_PLACED_LOCK = threading.Lock()
#: How many results are kept, and the most placements a kept result has.
_KEPT, _KEEP_AT_MOST = 4096, 2000


def _placements(
    component: tuple[int, ...],
    items: tuple[Item, ...],
    room: Counts,
    facts: tuple[Fact, ...],
    limit: int,
) -> tuple[Placement, ...] | None:
    spreads = [list(_spread(it.size, it.allowed, room)) for it in items]
    size = 1
    for s in spreads:
        size *= len(s)
    if size > limit:
        return None
    index = {i: k for k, i in enumerate(component)}
    sizes = [0] * (max(component) + 1)
    for i, it in zip(component, items, strict=True):
        sizes[i] = it.size
    # Items are placed in order, as `itertools.product` would list them; a branch is cut
    # as soon as a room overflows or a fact whose items are all placed fails.
    due: list[list[Fact]] = [[] for _ in component]
    for fact in facts:
        due[max(index[i] for i in fact.items)].append(fact)
    found: list[Placement] = []
    chosen: list[Counts] = []

    def extend(k: int, left: Counts) -> None:
        if k == len(spreads):
            found.append(tuple(chosen))
            return
        for counts in spreads[k]:
            rest = tuple(r - n for r, n in zip(left, counts, strict=True))
            if min(rest) < 0:
                continue
            chosen.append(counts)
            if all(f.holds(chosen, sizes, index) for f in due[k]):
                extend(k + 1, rest)
            chosen.pop()

    extend(0, room)
    return tuple(found)


def _spread(size: int, allowed: Sequence[bool], room: Sequence[int]) -> Iterator[Counts]:
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


def laminar(facts: Sequence[Fact]) -> bool:
    """Whether, per holder, the facts' item sets are nested or apart (so a component's
    placements are a network flow's, an M-convex set)."""
    for a, b in itertools.combinations(facts, 2):
        if a.at == b.at and a.items & b.items and not (a.items <= b.items or b.items <= a.items):
            return False
    return True
