"""Each seat's card knowledge in Klaverjas, derived from the public log and its own hand.

The card engine's layout has the four seats and the table, where every played card goes
in public view. A deal starts from its `DealDone` (hand sizes only); every `CardPlayed`
adds what the rules show the player cannot hold, then moves the card to the table. The
fold is lazy, incremental and shared by all views of one state, and starts again at each
deal: earlier deals say nothing about this one.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence

from epigames.cards import TABLE, Card, CardLayout, PublicInfo
from epigames.cards.facts import apply_facts, start_from_counts
from epigames.cards.feasibility import possible_by_hall
from epigames.cards.public import public_info
from epigames.games.events import Event
from epigames.games.klaverjas.events import TABLE_HOLDER, CardPlayed
from epigames.games.klaverjas.play import SEAT_NAMES, klaverjas_deck


def card_played(public: PublicInfo, event: CardPlayed) -> PublicInfo:
    """`apply_facts(public, event.facts)`, without making the facts (one per card lacked).

    The facts are the cards the player lacks, then the card's move to the table; the
    tests check that both ways give the same `PublicInfo` on every card of many deals.
    """
    if event.lacks:
        public = public.lacks_all(event.seat, event.lacks)
    # `apply_facts` ends by checking that every card on the table is known; a move onto
    # it keeps that true, and it was true before (the fold starts from a checked deal).
    return public.move(event.card, event.seat, TABLE_HOLDER)


@functools.cache
def layout_for(ranks: int) -> CardLayout:
    """The card layout of a deck of `ranks` ranks: its cards, the four seats, the table."""
    return CardLayout.with_locations(klaverjas_deck(ranks), SEAT_NAMES, (TABLE,))


@functools.cache
def suit_pieces(ranks: int) -> tuple[tuple[int, ...], ...]:
    """Per suit, per subset of its cards' layout bits, the same cards as a `Card.index` mask.

    The layout (`layout_for`) lists the deck suit by suit, `ranks` cards each, so a mask
    over its cards turns into one over `Card.index` a suit at a time, by lookups.
    """
    deck = klaverjas_deck(ranks)
    pieces = []
    for suit in range(len(deck) // ranks):
        cards = deck[suit * ranks : (suit + 1) * ranks]
        table = [0] * (1 << ranks)
        for piece in range(1 << ranks):
            for i, card in enumerate(cards):
                if piece >> i & 1:
                    table[piece] |= 1 << card.index
        pieces.append(tuple(table))
    return tuple(pieces)


@functools.cache
def _card_bits(layout: CardLayout) -> dict[Hashable, int]:
    """Card → its bit in `layout` (the layout's `card_index`, as a dict read in C)."""
    return {card: 1 << i for i, card in enumerate(layout.cards)}


class PublicTracker:
    """Folds a deal's public events into `PublicInfo`, on demand and incrementally.

    A deal's plays are folded as masks and counts, and a `PublicInfo` is made only when
    asked for: what `card_played` makes card by card, in one step (the tests compare
    them at random points of many deals). Before the first card of a deal nobody is
    known to hold anything, and every play keeps it so: the played cards are on the table,
    each seat lacks what its plays showed, less the cards played since.
    """

    __slots__ = (
        "_bits",
        "_counts",
        "_done",
        "_full",
        "_lacking",
        "_layout",
        "_public",
        "_start",
        "_table",
    )

    def __init__(self, layout: CardLayout) -> None:
        self._layout = layout
        self._bits = _card_bits(layout)
        self._full = (1 << layout.n_cards) - 1
        self._start = -1
        self._done = 0
        self._public: PublicInfo | None = None
        # The deal so far as `_public` plus the plays folded since: counts, lacks, table.
        self._counts: list[int] = []
        self._lacking: list[int] = []
        self._table = 0

    def __reduce__(self) -> tuple[type[PublicTracker], tuple[CardLayout]]:
        # A cache of what the events say: a fresh tracker folds them again when asked.
        # (The default would call the compiled class's `__init__` without its layout.)
        return PublicTracker, (self._layout,)

    def copy(self) -> PublicTracker:
        """An independent tracker at the same point (the `PublicInfo` is immutable)."""
        other = PublicTracker(self._layout)
        other._start, other._done, other._public = self._start, self._done, self._public
        other._counts, other._lacking = list(self._counts), list(self._lacking)
        other._table = self._table
        return other

    def at(self, public_events: Sequence[Event], start: int, n: int) -> PublicInfo:
        """The public information after public announcements `start .. n-1`.

        `start` is the index of the deal's `DealDone`; every seat observes the same public
        announcements in the same order, so one tracker serves all seats of a state.

        Raises:
            ValueError: no deal has been dealt yet.
        """
        public = self._fold(public_events, start, n)
        if self._counts:
            self._public = public = self._made(public)
        return public

    def possible(
        self, public_events: Sequence[Event], start: int, n: int, seat: int, cards: Sequence[Card]
    ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """Per holder its possible cards (layout bits) and its card count, for `seat`
        holding `cards` after public announcements `start .. n-1`.

        The masks are `CardKnowledge.create(self.at(...), seat, hand).possible_masks()`,
        found from the folded masks without making either: a deal's plays say only what
        a seat lacks, so Hall's condition over the three other seats decides every card
        (`possible_by_hall`, as the card engine decides it). None when the deal was not
        folded by masks or the hand does not fit; the knowledge then answers (or raises).

        Raises:
            ValueError: no deal has been dealt yet.
        """
        self._fold(public_events, start, n)
        counts = self._counts
        if not counts:
            return None
        # Loops rather than `reduce` over `map`: compiled, each is a few C operations.
        bits = self._bits
        hand = 0
        for card in cards:
            hand |= bits[card]
        lacking, table = self._lacking, self._table
        if hand.bit_count() != counts[seat] or hand & (table | lacking[seat]):
            return None
        free = self._full & ~table & ~hand
        active: list[int] = []
        caps: list[int] = []
        may: list[int] = []
        union = 0
        for h in range(TABLE_HOLDER):
            if h != seat and counts[h]:
                active.append(h)
                caps.append(counts[h])
                mask = free & ~lacking[h]
                may.append(mask)
                union |= mask
        if free & ~union:
            return None
        found = possible_by_hall(active, caps, may, free, len(counts))
        if found is None:
            return None
        found[seat] = hand
        found[TABLE_HOLDER] = table
        return tuple(found), tuple(counts)

    def _fold(self, public_events: Sequence[Event], start: int, n: int) -> PublicInfo:
        """Fold announcements up to `n`: the `PublicInfo` of the last fact other than a
        play, with the plays since kept as masks and counts (`_made` adds them)."""
        if start < 0:
            raise ValueError("there is no card knowledge before the first deal is dealt")
        if start != self._start or n < self._done or self._public is None:
            self._start, self._done, self._public = start, start, None
        done = self._done
        if done == n:
            assert self._public is not None
            return self._public
        public = self._public
        bits = self._bits
        for event in public_events[done:n]:
            if public is None:
                public = self._restart(start_from_counts(self._layout, event.facts))
            elif type(event) is CardPlayed:
                counts = self._counts
                if not counts:
                    public = card_played(public, event)
                    continue
                seat = event.seat
                lacks = event.lacks
                if lacks:
                    lacked = 0
                    for card in lacks:
                        lacked |= bits[card]
                    self._lacking[seat] |= lacked
                self._table |= bits[event.card]
                counts[seat] -= 1
                counts[TABLE_HOLDER] += 1
            else:
                facts = event.facts
                if facts:
                    public = self._restart(apply_facts(self._made(public), facts))
        assert public is not None
        self._done = n
        self._public = public
        return public

    def _restart(self, public: PublicInfo) -> PublicInfo:
        """Fold plays on from `public` by masks, if it is as a deal leaves it: nobody is
        known to hold a card but the table; else card by card (`card_played`)."""
        holding = public.holding
        fresh = not (
            public.removed or public.constraints or public.groups or any(holding[:TABLE_HOLDER])
        )
        self._counts = list(public.counts) if fresh else []
        self._lacking = list(public.lacking)
        self._table = holding[TABLE_HOLDER]
        return public

    def _made(self, public: PublicInfo) -> PublicInfo:
        """`public` with the plays folded since (the same value `card_played` makes)."""
        counts = self._counts
        if not counts:
            return public
        table = self._table
        if table == public.holding[TABLE_HOLDER] and tuple(counts) == public.counts:
            return public
        lacking = tuple([mask & ~table for mask in self._lacking])
        holding = (*public.holding[:TABLE_HOLDER], table)
        made = public_info(self._layout, tuple(counts), holding, lacking, 0, (), ())
        self._lacking = list(lacking)
        return made
