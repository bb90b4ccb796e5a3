"""Formulas on a quotient of the deals: a model of the cards a formula names, at any size.

The unknown cards are cut into items and components (`cards.items`): each named card an
item alone, the others grouped by what the facts say of them. A world of the quotient is
where the named cards lie, or, failing that, a placement of the touched components (how
many of each item's cards each holder has).

Identifying the deals of one world is exact (a bounded morphism, so every formula over the
named cards keeps its truth: K, C, D, announcements) when every seat, and every group whose
hands the formula pools, can hold the rest of the cards in the same ways in every world
it cannot tell apart, and each such way completes to a deal in each of them. That is
checked, not assumed (`cards.completion`); where it fails, more components are listed as
worlds, up to `MAX_QUOTIENT_WORLDS`, and then `quotient` returns None.

So Kwartet for six players is answered from the deal, Kemps for eight players after a
failed "Stop Kemps", with models of a few to a few hundred thousand worlds.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from math import prod
from typing import Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from epigames.cards.completion import Completion, Group
from epigames.cards.items import Placement, Split
from epigames.cards.symbolic import NODES_PER_COMBINATION, CardStructure
from epigames.logic import KripkeModel, formula as fm
from epigames.logic.formula import Formula
from epigames.logic.relations import AnyRelation, Partition
from epigames.logic.symbolic.bdd import Manager, Node
from epigames.logic.symbolic.structure import KnowledgeStructure

__all__ = [
    "MAX_QUOTIENT_WORLDS",
    "MAX_TOUCHED_CARDS",
    "SMALL_QUOTIENT_WORLDS",
    "evaluator",
    "quotient",
    "touched_structure",
]

#: The most worlds of a quotient (placements of the named cards or touched items).
MAX_QUOTIENT_WORLDS = 200_000
#: The most worlds of a quotient tried before a structure within the size limit.
SMALL_QUOTIENT_WORLDS = 5_000
#: The most cards of the touched components a structure of them (`touched_structure`)
#: is built for; its law tracks how many of them each holder has.
MAX_TOUCHED_CARDS = 40
#: The most vectors (touched cards per holder) that structure's law tracks.
MAX_TOUCHED_VECTORS = 200_000


class Question(NamedTuple):
    """What a quotient is built for: the cards' structure, their split for the named
    cards (indices), the true deal, the seat groups to check, and the most worlds."""

    cards: CardStructure
    split: Split
    named: frozenset[int]
    deal: Sequence[int]
    groups: Sequence[Group]
    most: int


def _groups(cards: CardStructure, split: Split, formula: Formula | None) -> list[Group]:
    """The seats one by one, and the seat sets whose hands the formula pools (D, Dw), as
    hidden positions."""
    layout = cards.layout
    position = {h: j for j, h in enumerate(split.hidden)}
    groups: list[Group] = [(position[p],) for p in sorted(layout.players)]
    for f in () if formula is None else cards.canonical(formula).walk():
        if isinstance(f, fm.D | fm.Dw) and len(f.group) > 1:
            groups.append(tuple(sorted(position[layout.holders.index(a)] for a in f.group)))
    return groups


def quotient(
    cards: CardStructure,
    named: frozenset[int],
    deal: Sequence[int],
    formula: Formula | None = None,
    most: int = MAX_QUOTIENT_WORLDS,
) -> KripkeModel | None:
    """The quotient model for the cards `named` (indices), the true `deal` designated.

    Worlds are where the named cards lie or placements of the touched items; agents are
    the players' holder names; atoms are the structure's atom names of the named cards.

    None when it is not exact or too large: the other cards may decide some seat's or
    pooled group's view even with every component listed that fits, the worlds would be
    more than `most`. Quantifiers need nothing more: they stand for their
    instances, formulas over the same cards.
    """
    split = Split.of(cards, named)
    groups = _groups(cards, split, formula)
    model = _named_model(Question(cards, split, named, deal, groups, most))
    if isinstance(model, KripkeModel):
        return model
    while True:
        model = _model(Question(cards, split, named, deal, groups, most))
        if isinstance(model, KripkeModel):
            return model
        if model is None or split.touched == len(split.components):
            return None
        # A seat's view depends on how untouched cards lie: list one more component's
        # placements as worlds, the one with the fewest.
        sizes = {
            k: len(found)
            for k in range(split.touched, len(split.components))
            if (found := split.placements(split.components[k], most)) is not None
        }
        if not sizes:
            return None
        split = split.touching(min(sizes, key=lambda k: (sizes[k], k)))


def evaluator(
    cards: CardStructure, formula: Formula, deal: Sequence[int], limit: int | None
) -> Callable[[Formula], bool]:
    """The truth at `deal` of formulas over the atoms of `formula` (it, `K_seat` it, …).

    A structure built already answers. Otherwise the quotient for the formula's cards
    does (at most `SMALL_QUOTIENT_WORLDS` worlds within `limit` hand-size combinations,
    `MAX_QUOTIENT_WORLDS` past it): it is exact where it applies, and a law within the
    limit can still take minutes (eight-player Kemps late in a game). Then a structure of
    the touched components' cards alone (`touched_structure`). Failing that, the
    structure, within the limit or while its law stays within `NODES_PER_COMBINATION`
    nodes per combination of the limit.

    Raises:
        StructureTooLargeError: none of these applies.
        UnknownCardError, UnknownAgentError: the formula names no such card or seat.
    """
    cards.canonical(formula)  # a bad name is reported before any work
    if not cards.is_built:
        within = cards.within(limit)
        named = frozenset(cards.literal(a)[0] for a in formula.atoms())
        most = SMALL_QUOTIENT_WORLDS if within else MAX_QUOTIENT_WORLDS
        model = quotient(cards, named, deal, formula, most)
        if model is not None:
            return lambda g: model.holds(cards.canonical(g))
        # The touched components as a structure: their placements may be far too many to
        # list (six-player Kwartet after 20 moves: 700 million), while their cards are few.
        touched = touched_structure(cards, named, deal, formula)
        if touched is not None:
            return touched
        if not within:
            assert limit is not None  # `within` holds for no limit
            cards.build(limit, nodes=NODES_PER_COMBINATION * limit)
    cards.build(limit)  # built already, or within the limit
    return lambda g: cards.holds(g, deal)


def _named_model(q: Question) -> KripkeModel | bool | None:
    """The quotient whose worlds are where the named cards lie (at most `most`); False
    when a seat's or group's view depends on how the other cards lie, None when too large
    or not ours."""
    cards, split, named, deal, groups, most = q
    items = sorted(split.named)
    hidden = split.hidden
    choices = [
        [j for j, r in enumerate(split.room) if r and split.items[i].allowed[j]] for i in items
    ]
    if prod(len(c) for c in choices) > most:
        return None
    base = Completion(split, groups)
    if not base.ok:
        return None
    position = {h: j for j, h in enumerate(hidden)}
    truth = tuple(position.get(deal[split.items[i].cards.bit_length() - 1], -1) for i in items)
    checks: dict[object, Completion] = {}
    shown: dict[object, object] = {}
    worlds: list[tuple[int, ...]] = []  # per named item, its holder's position
    for spots in itertools.product(*choices):
        rooms = list(split.room)
        for j in spots:
            rooms[j] -= 1
        if min(rooms, default=0) < 0:
            continue
        at = dict(zip(items, spots, strict=True))
        rest = split.given(at)
        if rest is None:
            continue
        key = (rest.facts, rest.components)
        check = checks.get(key)
        if check is None:
            check = checks[key] = base.extended(rest, rest.components)
        if not check.ok:
            return None
        fits, even = check.verdict(rooms)
        if not fits:
            continue
        if not even:
            return False
        for group in groups:
            # Worlds a group cannot tell apart must leave it the same ways to hold the rest.
            view = (group, tuple(tuple(i for i in items if at[i] == g) for g in group))
            rows = frozenset(check.shown.get(group, ()))
            if shown.setdefault(view, rows) != rows:
                return False
        worlds.append(spots)
    if truth not in worlds:
        return None  # the deal is not consistent with the public facts: not ours to say
    one = np.eye(len(hidden), dtype=np.int64)
    placed = one[np.array(worlds, np.int64).reshape(len(worlds), len(items))]
    return _build(cards, split, named, items, placed, worlds.index(truth))


def _model(q: Question) -> KripkeModel | bool | None:
    """The quotient model whose worlds are placements of the touched components (at
    most `most`); False when a seat's or group's view depends on untouched cards, None
    when it is too large or the deal is not consistent."""
    cards, split, named, deal, groups, most = q
    rest = Completion(split, groups)
    if not rest.ok:
        return None
    touched = split.components[: split.touched]
    options: list[tuple[Placement, ...]] = []
    for component in touched:
        found = split.placements(component, most)
        if found is None:
            return None
        options.append(found)
    sizes = tuple(len(o) for o in options)
    if prod(sizes) > most or 0 in sizes:
        return None
    rows = [i for component in touched for i in component]
    hidden = split.hidden
    n = len(hidden)
    true_counts = np.array(
        [
            [
                sum(1 for c, h in enumerate(deal) if split.items[i].cards >> c & 1 and h == x)
                for x in hidden
            ]
            for i in rows
        ],
        np.int64,
    ).reshape(len(rows), n)
    # Every combination of the components' placements (in `itertools.product` order): per
    # world, per item, its cards at each hidden holder.
    picks = np.indices(sizes).reshape(len(sizes), -1) if sizes else np.zeros((0, 1), np.int64)
    counts = np.zeros((picks.shape[1], len(rows), n), np.int64)
    at = 0
    for option, component, pick in zip(options, touched, picks, strict=True):
        placed = np.array(option, np.int64).reshape(len(option), len(component), n)
        counts[:, at : at + len(component)] = placed[pick]
        at += len(component)
    rooms = np.asarray(split.room, np.int64) - counts.sum(axis=1)
    kept = np.all(rooms >= 0, axis=1)
    counts, rooms = counts[kept], rooms[kept]
    _, first, which = np.unique(_row_keys(rooms), return_index=True, return_inverse=True)
    fits, even = rest.check(rooms[first])
    if bool(np.any(fits & ~even)):
        return False  # a seat's view would depend on untouched cards
    counts = counts[fits[which.reshape(-1)]]
    true = np.flatnonzero(np.all(counts == true_counts, axis=(1, 2)))
    if len(true) == 0:
        return None  # the deal is not consistent with the public facts: not ours to say
    return _build(cards, split, named, rows, counts, int(true[0]))


def _build(
    cards: CardStructure,
    split: Split,
    named: frozenset[int],
    rows: Sequence[int],
    worlds: npt.NDArray[np.int64],
    true: int,
) -> KripkeModel:
    """The model whose worlds give, for the items `rows`, how many cards each hidden
    holder has (`worlds`: per world, per item, per hidden holder); a seat tells worlds
    apart by its own counts."""
    public, layout = cards.public, cards.layout
    hidden = split.hidden
    m = len(worlds)
    valuation: dict[str, npt.NDArray[np.bool_]] = {}
    for c in named:
        h = public.where(c)
        if h >= 0 and (c, h) in cards.atom:
            valuation[str(cards.atom[c, h])] = np.ones(m, bool)
    for k, i in enumerate(rows):
        for c in named:
            if split.items[i].cards >> c & 1:
                # A named card is an item alone: its row has one 1, at its holder.
                holder = worlds[:, k, :].argmax(axis=1)
                for j, h in enumerate(hidden):
                    mask = holder == j
                    if mask.any():
                        valuation[str(cards.atom[c, h])] = mask
    relations: dict[str, AnyRelation] = {}
    for p in sorted(layout.players):
        relations[layout.holders[p]] = Partition.from_ids(_row_keys(worlds[:, :, hidden.index(p)]))
    for mask in valuation.values():
        mask.flags.writeable = False
    names = tuple(str(w) for w in range(m))
    return KripkeModel(tuple(relations), names, valuation, relations, (true,))


def _row_keys(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """One number per row of non-negative counts, equal exactly for equal rows."""
    bases = [int(b) + 1 for b in rows.max(axis=0, initial=0)] if len(rows) else []
    if prod(bases) < 2**62:
        weights = np.array([prod(bases[:k]) for k in range(len(bases))], np.int64)
        return rows @ weights
    return np.unique(rows, axis=0, return_inverse=True)[1].reshape(-1)


def touched_structure(
    cards: CardStructure, named: frozenset[int], deal: Sequence[int], formula: Formula
) -> Callable[[Formula], bool] | None:
    """The truth at `deal` of formulas over the named cards, on a knowledge structure of
    the touched components' cards alone; None where that is not exact or too large.

    The quotient's argument on cards: a deal maps to its touched cards' holders, and that
    is a bounded morphism when every group can hold the untouched cards in the same ways
    in every world it cannot tell apart (`Completion.uniform`). The law is the touched
    components' facts, each card with one holder, and, per vector of how many touched
    cards each holder has, whether the untouched cards fill the rooms left.
    """
    split = Split.of(cards, named)
    groups = _groups(cards, split, formula)
    first = True
    while True:
        # The first split is checked at the vectors its law reaches; past it, a view that
        # hangs on untouched cards anywhere touches one more component at once: the full
        # check costs the whole diagram at each of what can be a dozen splits.
        found = _touched(cards, split, named, deal, groups, reached=first)
        first = False
        if found is None or callable(found):
            return found
        if split.touched == len(split.components):
            return None
        # A seat's view depends on how untouched cards lie: touch the smallest component.
        sizes = {
            k: sum(split.items[i].size for i in split.components[k])
            for k in range(split.touched, len(split.components))
        }
        split = split.touching(min(sizes, key=lambda k: (sizes[k], k)))


def _touched(
    cards: CardStructure,
    split: Split,
    named: frozenset[int],
    deal: Sequence[int],
    groups: Sequence[Group],
    reached: bool = True,
) -> Callable[[Formula], bool] | Literal[False] | None:
    """`touched_structure` for the split's touched components: False when a group's view
    depends on untouched cards, None when too large or not exact."""
    inside = [i for component in split.components[: split.touched] for i in component]
    mine = sorted(c for i in inside for c in _bits(split.items[i].cards))
    if len(mine) > MAX_TOUCHED_CARDS:
        return None
    rest = Completion(split, groups)
    if not rest.ok:
        return None
    hidden = split.hidden
    position = {h: j for j, h in enumerate(hidden)}
    item_of = {c: i for i in inside for c in _bits(split.items[i].cards)}
    public, layout = cards.public, cards.layout
    # Named cards whose holder is public are in the structure too, at that holder.
    known = sorted(c for c in named if c not in item_of and (c, public.where(c)) in cards.atom)
    manager = Manager(small=True)  # at most MAX_TOUCHED_CARDS cards
    holders = range(layout.n_holders)
    var = {
        (c, h): manager.new_var() for c in (*mine, *known) for h in holders if (c, h) in cards.atom
    }
    law = manager.true
    for c in known:
        for h in holders:
            if (c, h) in var:
                x = manager.var(var[c, h])
                law = law & (x if h == public.where(c) else ~x)
    for c in mine:
        allowed = split.items[item_of[c]].allowed
        one = manager.false
        for h in holders:
            if (c, h) not in var:
                continue
            x = manager.var(var[c, h])
            j = position.get(h, -1)
            if j < 0 or not allowed[j]:
                law = law & ~x
            else:
                # Exactly one holder: this one and none of the others.
                others = manager.true
                for g in holders:
                    if g != h and (c, g) in var:
                        others = others & ~manager.var(var[c, g])
                one = one | (x & others)
        law = law & one
    for fact in split.facts:
        if not fact.items <= set(inside):
            continue
        h = hidden[fact.at]
        xs = [manager.var(var[c, h]) for i in fact.items for c in _bits(split.items[i].cards)]
        if fact.some:
            some = manager.false
            for x in xs:
                some = some | x
            law = law & some
        else:
            every = manager.true
            for x in xs:
                every = every & x
            law = law & ~every
    allowing = [split.items[item_of[c]].allowed for c in mine]
    found = _room_law(manager, var, mine, allowing, hidden, split, rest, reached)
    if found is None or found is False:
        return found
    counts, uneven = found
    law = law & counts
    # Only worlds the law keeps need a view independent of the untouched cards: room
    # vectors no placement of the touched cards reaches under their facts do not count.
    if uneven is not None and law & uneven != manager.false:
        return False
    atoms = {cards.atom[key]: name for key, name in var.items()}
    shown = {var[c, h] for c in (*mine, *known) for h in layout.public if (c, h) in var}
    observations = {
        layout.holders[p]: frozenset({var[c, p] for c in (*mine, *known) if (c, p) in var} | shown)
        for p in sorted(layout.players)
    }
    structure = KnowledgeStructure(manager, atoms, tuple(atoms.values()), law, observations)
    state = frozenset(cards.atom[c, deal[c]] for c in (*mine, *known) if (c, deal[c]) in var)
    if (manager.cube({v: cards.atom.get(k) in state for k, v in var.items()}) & law) == (
        manager.false
    ):
        return None  # the deal is not consistent with the public facts: not ours to say
    return lambda g: structure.holds(cards.canonical(g), state)


def _room_law(
    manager: Manager,
    var: dict[tuple[int, int], str],
    mine: Sequence[int],
    allowed: Sequence[Sequence[bool]],
    hidden: Sequence[int],
    split: Split,
    rest: Completion,
    reached: bool = True,
) -> tuple[Node, Node | None] | Literal[False] | None:
    """The touched cards' holders such that the untouched cards fill the rooms left: a
    diagram over the vectors of touched cards per hidden holder so far, card by card
    (each card at one of its allowed holders). Also, where there are any, the holders
    that leave rooms in which a group's view depends on untouched cards (else None).
    None past `MAX_TOUCHED_VECTORS` vectors; False where there is such a vector, unless
    `reached` (then only the vectors the law reaches count)."""
    room = split.room
    n = len(hidden)
    last = len(mine)
    # A vector of touched cards per hidden holder is one number, digit j (base room + 1)
    # for holder j, so a card placed at j adds `weight[j]`.
    weight = [1] * n
    for j in range(1, n):
        weight[j] = weight[j - 1] * (room[j - 1] + 1)
    # Per card, its allowed holders (last first: the diagram is built from the last up).
    choices = [
        [
            (weight[j], room[j] + 1, room[j], manager.var(var[c, h]))
            for j, h in reversed(list(enumerate(hidden)))
            if (c, h) in var and allowed[k][j]
        ]
        for k, c in enumerate(mine)
    ]
    # The vectors each card's level reaches, card by card.
    levels: list[list[int]] = [[0]]
    reached_so_far = 0
    for k in range(last):
        below: set[int] = set()
        for code in levels[k]:
            for w, base, most, _ in choices[k]:
                if code // w % base < most:
                    below.add(code + w)
        reached_so_far += len(levels[k])
        if reached_so_far > MAX_TOUCHED_VECTORS:
            return None
        levels.append(sorted(below))
    # The leaves. Where a group's view depends on untouched cards at some, two diagrams
    # are built side by side: the law (every completing leaf true) and the law without
    # those leaves; the holders that reach them are the first less the second.
    codes = np.array(levels[last], np.int64)
    rooms = np.zeros((len(codes), n), np.int64)
    for j in range(n):
        rooms[:, j] = room[j] - codes // weight[j] % (room[j] + 1)
    completes, uniform = rest.check(rooms)
    two = bool(np.any(completes & ~uniform))
    if two and not reached:
        return False
    true, false = manager.true, manager.false
    # Per live vector (one with a way to a completing leaf): its node in the law, and in
    # the law without the uneven leaves (the same node where there are none).
    live: dict[int, tuple[Node, Node]] = {
        code: (true, true if even or not two else false)
        for code, fits, even in zip(levels[last], completes.tolist(), uniform.tolist(), strict=True)
        if fits
    }
    # From the last card up: exactly one holder per card is in the law, so the first true
    # one decides, and a holder whose vector is not live is left out.
    ite = manager.ite
    for k in range(last - 1, -1, -1):
        above: dict[int, tuple[Node, Node]] = {}
        for code in levels[k]:
            law = even = false
            alive = False
            for w, base, most, x in choices[k]:
                if code // w % base < most:
                    then = live.get(code + w)
                    if then is not None:
                        alive = True
                        law = ite(x, then[0], law)
                        even = ite(x, then[1], even) if two else law
            if alive:
                above[code] = (law, even)
        live = above
    law, even = live.get(0, (false, false))
    live.clear()
    return law, (law & ~even if two else None)


def _bits(mask: int) -> list[int]:
    """The set bits of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
