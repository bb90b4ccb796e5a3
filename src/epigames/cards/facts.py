"""Replay typed card facts (`epigames.cards.fact_types`) onto `PublicInfo`."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from epigames.cards import fact_types
from epigames.cards.draws import draw_unseen
from epigames.cards.errors import InconsistentCardsError
from epigames.cards.layout import CardLayout
from epigames.cards.public import PublicInfo, popcount, public_info

# `X | Y` in `isinstance` builds a union object on every call; a tuple of types does not.
_SEQUENCES = (tuple, list)


def apply_facts(public: PublicInfo, facts: Iterable[object]) -> PublicInfo:
    """The public information after a public event's facts, in their order.

    Holders are layout indices; cards are the layout's card values. `Count` is checked,
    not added: counts follow from the deal and the moves. When the layout has public
    locations, every card lying there must be known once the facts are applied.

    Raises:
        InconsistentCardsError: a fact contradicts what is already public.
        UnsupportedFactError: a reshuffle the engine cannot fold in exactly.
        ValueError: something that is not a card fact.
    """
    listed = facts if isinstance(facts, _SEQUENCES) else tuple(facts)
    # Most events' facts are folded as one step; the rest, and any that would raise, one
    # fact after another below.
    folded = _folded(public, listed)
    if folded is not None:
        if folded.layout.public:
            folded.check_public_locations()
        return folded
    i, end = 0, len(listed)  # not `n`: the `Count` case below binds that name
    layout = public.layout
    # The common facts go to `PublicInfo`'s index methods, with cards and holders looked
    # up here: calling the layout's Python methods per card costs more than the update.
    ids = layout.ids
    n_holders = len(layout.holders)
    while i < end:
        fact = listed[i]
        i += 1
        kind = type(fact)
        # The facts of every card played in a trick game, first, without `match`.
        if kind is fact_types.Lacks:
            assert isinstance(fact, fact_types.Lacks)
            holder, lacked = fact.holder, [fact.card]
            while i < end:
                other = listed[i]
                if type(other) is not fact_types.Lacks or other.holder != holder:
                    break
                lacked.append(other.card)
                i += 1
            if len(lacked) > 1:
                public = public.lacks_all(holder, lacked)
                continue
            c = ids.get(id(lacked[0]), -1)
            h = _index(holder, n_holders)
            if c >= 0 and h >= 0:
                public = public.lacks_index(c, h)
            else:
                public = public.lacks(lacked[0], holder)
            continue
        if kind is fact_types.HoldsAtLeastOne:
            assert isinstance(fact, fact_types.HoldsAtLeastOne)
            holder = fact.holder
            h = _index(holder, n_holders)
            mask = 0
            for card in fact.cards:
                c = ids.get(id(card), -1)
                if c < 0 or h < 0:
                    mask = -1
                    break
                mask |= 1 << c
            if mask < 0:
                public = public.at_least_one(holder, fact.cards)
            else:
                public = public.at_least_one_mask(h, mask)
            continue
        if kind is fact_types.Holds:
            assert isinstance(fact, fact_types.Holds)
            holder, card = fact.holder, fact.card
            if i < end:
                # A holder shown to have a card that then moves from it (a card handed
                # over): the move alone gives the same value, without one in between.
                other = listed[i]
                if type(other) is fact_types.Moved and other.card is card and other.src == holder:
                    continue
            c = ids.get(id(card), -1)
            h = _index(holder, n_holders)
            public = public.holds_index(c, h) if c >= 0 and h >= 0 else public.holds(card, holder)
            continue
        if kind is fact_types.Moved:
            assert isinstance(fact, fact_types.Moved)
            # A run of moves (a table dealt or cleared) is made as one value.
            moves = [(fact.card, fact.src, fact.dst)]
            while i < end:
                other = listed[i]
                if type(other) is not fact_types.Moved:
                    break
                assert isinstance(other, fact_types.Moved)
                moves.append((other.card, other.src, other.dst))
                i += 1
            indices: list[tuple[int, int, int]] = []
            for card, src, dst in moves:
                c, s, d = ids.get(id(card), -1), _index(src, n_holders), _index(dst, n_holders)
                if c < 0 or s < 0 or d < 0:
                    break
                indices.append((c, s, d))
            if len(indices) == len(moves):
                public = public.move_indices(indices)
            else:
                public = public.move_all(moves)
            continue
        # Ordered by how often Kwartet's events emit them.
        match fact:
            case fact_types.HoldsAtLeastOne(holder=h, cards=cards):
                public = public.at_least_one(h, cards)
            case fact_types.Lacks(holder=h, card=card):
                public = public.lacks(card, h)
            case fact_types.Holds(holder=h, card=card):
                public = public.holds(card, h)
            case fact_types.Moved(card=card, src=src, dst=dst):
                public = public.move(card, src, dst)
            case fact_types.Count(holder=h, n=n):
                if public.counts[h] != n:
                    raise InconsistentCardsError(
                        f"count: {public.layout.holders[h]} is said to hold {n} cards, "
                        f"but the public count is {public.counts[h]}"
                    )
            case fact_types.Removed(cards=cards):
                for card in cards:
                    public = public.remove(card, public.where(public.layout.card_index(card)))
            case fact_types.Reshuffled(src=src, dst=dst):
                public = public.reshuffle(src, dst)
            case fact_types.Drew(holder=h, n=n, src=src):
                public = draw_unseen(public, src, h, n)
            case _:
                raise ValueError(f"not a card fact: {fact!r}")
    if public.layout.public:
        public.check_public_locations()
    return public


def _folded(public: PublicInfo, listed: Sequence[object]) -> PublicInfo | None:
    """`apply_facts`'s value made as one step, or None where the loop must make it.

    The facts' effects are made on lists of masks, and one `PublicInfo` at the end: an ask
    of Kwartet gives three or four facts, a laydown five. Each step does what the
    `PublicInfo` method the loop calls does (or skips, as the loop skips a `Holds` that a
    move from the holder follows). None for a fact of another kind, one with a holder or
    card not given as the layout's, and one that would raise: the loop then applies the
    facts from the start and raises the method's error.
    """
    layout = public.layout
    ids = layout.ids
    n_holders = len(layout.holders)
    counts = list(public.counts)
    holding = list(public.holding)
    lacking = list(public.lacking)
    removed = public.removed
    constraints = public.constraints
    groups = public.groups
    known = removed  # the cards of known place: removed, or with a known holder
    for mask in holding:
        known |= mask
    lacked = 0
    for mask in lacking:
        lacked |= mask
    changed = False
    i, end = 0, len(listed)
    try:
        while i < end:
            # Read as the kind just told apart (`Any`): a fact's fields are read as objects,
            # whatever their annotations say (a holder may be given by name).
            fact: Any = listed[i]
            i += 1
            kind = type(fact)
            if kind is fact_types.Lacks:  # `PublicInfo.lacks_index` (or `lacks_all`)
                h = _index(fact.holder, n_holders)
                c = ids.get(id(fact.card), -1)
                if h < 0 or c < 0:
                    return None
                bit = 1 << c
                if known & bit:
                    if holding[h] & bit:
                        return None  # the holder is known to have it
                    continue
                if lacking[h] & bit:
                    continue
                if not _others_may_hold(lacking, h, bit):
                    return None
                lacking[h] = lacking[h] | bit
                lacked |= bit
                if _names(constraints, bit):
                    constraints = public._strike(constraints, c, h)
            elif kind is fact_types.HoldsAtLeastOne:  # `at_least_one_mask`
                h = _index(fact.holder, n_holders)
                if h < 0:
                    return None
                mask = 0
                for card in fact.cards:
                    c = ids.get(id(card), -1)
                    if c < 0:
                        return None
                    mask |= 1 << c
                if mask & holding[h]:
                    continue
                live = mask & ~known & ~lacking[h]
                if not live:
                    return None
                if _has_constraint(constraints, h, live):
                    continue
                constraints = (*constraints, (h, live))
            elif kind is fact_types.Holds:  # `holds_index`
                holder, card = fact.holder, fact.card
                if i < end:
                    other = listed[i]
                    if type(other) is fact_types.Moved:
                        moved: Any = other
                        if moved.card is card and moved.src == holder:
                            continue  # as the loop skips it
                h = _index(holder, n_holders)
                c = ids.get(id(card), -1)
                if h < 0 or c < 0:
                    return None
                bit = 1 << c
                held = holding[h]
                if held & bit:
                    continue
                # `_check_can_hold(c, h, "holds")`: in play, with no other holder, not
                # lacked, and room for it.
                if known & bit or lacking[h] & bit or popcount(held) >= counts[h]:
                    return None
                holding[h] = held | bit
                known |= bit
                if lacked & bit:
                    lacked = _unlacked(lacking, bit)
                if _names(constraints, bit):
                    constraints = public._place(constraints, c, h)
            elif kind is fact_types.Moved:  # `move_indices`
                c = ids.get(id(fact.card), -1)
                s = _index(fact.src, n_holders)
                d = _index(fact.dst, n_holders)
                if c < 0 or s < 0 or d < 0 or s == d:
                    return None
                bit = 1 << c
                held = holding[s]
                if (removed | lacking[s]) & bit:
                    return None
                if not held & bit:
                    if known & bit or popcount(held) >= counts[s]:
                        return None
                    known |= bit
                holding[s] = held & ~bit
                holding[d] = holding[d] | bit
                counts[s] = counts[s] - 1
                counts[d] = counts[d] + 1
                if lacked & bit:
                    lacked = _unlacked(lacking, bit)
                if _names(constraints, bit):
                    constraints = public._place(constraints, c, s)
            elif kind is fact_types.Removed:  # `remove` of each card from its known holder
                for card in fact.cards:
                    c = ids.get(id(card), -1)
                    if c < 0:
                        return None
                    bit = 1 << c
                    s = -1 if removed & bit else _holder_of(holding, bit)
                    if s < 0 or lacking[s] & bit:
                        return None
                    holding[s] = holding[s] & ~bit
                    counts[s] = counts[s] - 1
                    removed |= bit
                    if lacked & bit:
                        lacked = _unlacked(lacking, bit)
                    if _names(constraints, bit):
                        constraints = public._place(constraints, c, s)
                    if groups:
                        groups = tuple([g for g in groups if not g & bit])
                    changed = True
                continue
            elif kind is fact_types.Count:  # checked, not added
                h = _index(fact.holder, n_holders)
                if h < 0 or counts[h] != fact.n:
                    return None
                continue
            else:
                return None
            changed = True
    except InconsistentCardsError:
        return None  # from `_strike` or `_place`: the loop raises it again
    if not changed:
        return public
    return public_info(
        layout, tuple(counts), tuple(holding), tuple(lacking), removed, constraints, groups
    )


def _names(constraints: tuple[tuple[int, int], ...], bit: int) -> bool:
    """Whether a constraint has the card `bit` (`_place` and `_strike` keep the others)."""
    return any(mask & bit for _, mask in constraints)


def _has_constraint(constraints: tuple[tuple[int, int], ...], h: int, cards: int) -> bool:
    """`(h, cards) in constraints`, compared as ints (compiled: no tuple made and compared)."""
    return any(g == h and mask == cards for g, mask in constraints)


def _others_may_hold(lacking: list[int], h: int, bit: int) -> bool:
    """Whether a holder other than `h` is not known to lack the card `bit`."""
    return any(g != h and not lacking[g] & bit for g in range(len(lacking)))


def _unlacked(lacking: list[int], bit: int) -> int:
    """Strike the card `bit` from every holder's lacks (it is known where it is now); the
    union of the lacks left."""
    lacked = 0
    for g in range(len(lacking)):
        mask = lacking[g]
        if mask & bit:
            mask &= ~bit
            lacking[g] = mask
        lacked |= mask
    return lacked


def _holder_of(holding: list[int], bit: int) -> int:
    """The holder whose known cards have `bit`, or -1."""
    for h in range(len(holding)):
        if holding[h] & bit:
            return h
    return -1


def _index(holder: object, n_holders: int) -> int:
    """``holder`` if it is a holder index, else -1 (the layout's own methods then read it)."""
    if type(holder) is int and 0 <= holder < n_holders:
        return holder
    return -1


def start_from_counts(
    layout: CardLayout,
    facts: Iterable[object],
    groups: Iterable[Iterable[Hashable]] = (),
) -> PublicInfo:
    """The public information right after a deal announced by `Count` facts.

    The counts come first, one per holder that gets cards (holders not named get none);
    any other facts after them are then applied, e.g. `Holds` for the cards dealt face up
    to a table. ``groups`` are the game's card sets that no holder holds completely while
    in play (see `PublicInfo.start`).
    """
    counts = [0] * layout.n_holders
    rest: list[fact_types.CardFact] = []
    for fact in facts:
        if isinstance(fact, fact_types.Count) and not rest:
            counts[layout.holder_index(fact.holder)] = fact.n
        elif isinstance(fact, fact_types.CardFact):
            rest.append(fact)
        else:
            raise ValueError(f"a deal is announced by card facts, not {fact!r}")
    return apply_facts(PublicInfo.start(layout, counts, groups), rest)
