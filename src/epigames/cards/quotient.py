"""Formulas on a quotient of the deals, when the cards a formula does not name are alike.

A formula names a few cards. If every other unknown card has the same profile (the same
allowed holders, and in the same at-least-one, group and not-all sets), any permutation
of those cards maps consistent deals to consistent deals, keeps every seat's "same hand"
relation and the truth of every atom the formula names. Identifying deals that such a
permutation maps onto each other is then a bounded morphism onto a smaller model, which
keeps the truth of every formula over the named cards, with K, C, D and announcements.

In the quotient a world is where the named cards lie: each holder's number of the other
cards follows from its count. A seat cannot tell two worlds apart when it holds the same
named cards in both (its number of the others is then the same too). So the deal of a
Kemps team game for eight, with 6.6 million hand-size combinations (far past a knowledge
structure), is a model of a few hundred worlds for a formula about two cards.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from math import factorial

from epigames.cards.symbolic import CardStructure
from epigames.logic import KripkeModel

__all__ = ["MAX_QUOTIENT_WORLDS", "Quotient", "quotient"]

#: The most placements of the named unknown cards that are listed.
MAX_QUOTIENT_WORLDS = 100_000


@dataclass(frozen=True, slots=True)
class Quotient:
    """The quotient model of a card structure for a set of named cards.

    Attributes:
        model: worlds = placements of the named cards; agents = the players' holder
            names; atoms = the structure's atom names of the named cards; the true
            placement designated.
        deals: how many deals of the whole deck the worlds stand for.
    """

    model: KripkeModel
    deals: int


def quotient(cards: CardStructure, named: frozenset[int], deal: Sequence[int]) -> Quotient | None:
    """The quotient for the cards `named` (indices), the true `deal` designated.

    None when it does not apply: the other unknown cards are not all alike, or the named
    unknown cards have more than `MAX_QUOTIENT_WORLDS` placements.
    """
    public, layout = cards.public, cards.layout
    holders = range(layout.n_holders)
    in_play = [c for c in range(layout.n_cards) if not public.removed >> c & 1]
    unknown = [c for c in in_play if public.where(c) < 0]

    def allowed(c: int) -> tuple[int, ...]:
        return tuple(
            h for h in holders if h not in layout.public and not public.lacking[h] >> c & 1
        )

    some = list(public.constraints)
    never = [(h, g) for g in public.groups for h in holders] + list(cards.not_all)
    sets = [mask for _, mask in some] + [mask for _, mask in never]

    def profile(c: int) -> tuple[object, ...]:
        return (allowed(c), *(bool(mask >> c & 1) for mask in sets))

    free = [c for c in unknown if c not in named]
    if len({profile(c) for c in free}) > 1:
        return None
    free_mask = sum(1 << c for c in free)
    free_allowed = set(allowed(free[0])) if free else set()
    open_named = sorted(c for c in named if c in unknown)
    choices = [allowed(c) for c in open_named]
    size = 1
    for options in choices:
        size *= len(options)
    if size > MAX_QUOTIENT_WORLDS:
        return None
    room = [n - public.holding[h].bit_count() for h, n in enumerate(public.counts)]
    fixed = {c: public.where(c) for c in named if c in in_play and c not in unknown}

    worlds: list[str] = []
    valuation: dict[str | int, list[str]] = {}
    blocks: dict[str, dict[int, list[str]]] = {
        layout.holders[p]: {} for p in sorted(layout.players)
    }
    deals = 0
    true = None
    players = sorted(layout.players)
    for placed in itertools.product(*choices):
        at = dict(zip(open_named, placed, strict=True))
        # Per holder, its cards in this world but the alike ones: known, then placed.
        held = list(public.holding)
        for c, h in at.items():
            held[h] |= 1 << c
        others = [
            r - (m & ~public.holding[h]).bit_count()
            for h, (r, m) in enumerate(zip(room, held, strict=True))
        ]
        if any(n < 0 or (n and h not in free_allowed) for h, n in enumerate(others)):
            continue
        if not _facts_hold(held, others, free_mask, len(free), some, never):
            continue
        name = str(len(worlds))
        worlds.append(name)
        where = {**fixed, **at}
        valuation[name] = [cards.atom[c, h] for c, h in where.items()]
        for p in players:
            blocks[layout.holders[p]].setdefault(held[p], []).append(name)
        ways = factorial(len(free))
        for n in others:
            ways //= factorial(n)
        deals += ways
        if all(deal[c] == h for c, h in at.items()):
            true = name
    if true is None:
        return None  # the deal is not consistent with the public facts: not ours to say
    model = KripkeModel.build(
        worlds,
        valuation,
        partitions={agent: list(b.values()) for agent, b in blocks.items()},
        designated=[true],
    )
    return Quotient(model, deals)


def _facts_hold(
    held: Sequence[int],
    others: Sequence[int],
    free_mask: int,
    n_free: int,
    some: Sequence[tuple[int, int]],
    never: Sequence[tuple[int, int]],
) -> bool:
    """Whether a world keeps the at-least-one facts (`some`) and the not-all ones
    (`never`): `held` has each holder's cards but the alike ones (`free_mask`), of which
    it has `others`."""
    for h, mask in some:
        if not (held[h] & mask or (free_mask & mask and others[h] > 0)):
            return False
    for h, mask in never:
        # A card out of play is in no one's `held`, so such a fact never binds.
        if not mask & ~free_mask & ~held[h] and (not mask & free_mask or others[h] == n_free):
            return False
    return True
