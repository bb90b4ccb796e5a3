"""Replay typed card facts (`epigames.cards.fact_types`) onto `PublicInfo`."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from epigames.cards import fact_types
from epigames.cards.draws import draw_unseen
from epigames.cards.errors import InconsistentCardsError
from epigames.cards.layout import CardLayout
from epigames.cards.public import PublicInfo

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
