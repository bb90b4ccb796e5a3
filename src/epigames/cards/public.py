"""Public information about card locations: counts, known holders, lacks, at-least-one sets.

It may also carry an invariant: card *groups* that no holder ever holds completely while
they are in play (Kwartet's kinds: a completed kind is laid down at once). A group leaves
the invariant when one of its cards leaves play. The invariant is a claim about the
states in which knowledge is queried; facts are not checked against it as they are
applied, because a public step may pass through a state that breaks it (a move that
completes a kind is followed by the kind's removal in the same step). Only its instance
at the present moment is used: that it also held at earlier moments is not recorded, so
a game must make those instances follow from its facts. In Kwartet they do: a card
leaves a hand only when asked for by a seat announced to hold another card of its kind.

A `PublicInfo` is an immutable value; every update returns a new one and costs a few
bitmask operations per holder. All moves are public, so every fact refers to the present:
a card that was not seen moving is where it was when a fact about it was announced. That
makes the bookkeeping on `PublicInfo.move` exact (see its docstring).

Holders are seats and locations (`epigames.cards.layout.Location`): a face-up table, a
face-down deck or discard pile. Every count is public. A card moved to any location in
public view is known to be there; `reshuffle` turns one pile into (part of) another,
e.g. the discard pile into the deck, as a public step whose cards are those of the pile.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from epigames.cards.errors import (
    InconsistentCardsError,
    UnknownCardError,
    UnsupportedFactError,
)
from epigames.cards.layout import CardLayout, HolderRef
from epigames.cards.slots import rebuilt, slot_maker

#: Location of a card whose holder is not known.
UNKNOWN = -1
#: Location of a card that has left play.
REMOVED = -2


def iter_bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    """The number of bits set (`int.bit_count`, which compiled code calls generically)."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def holder_in(masks: Sequence[int], card: int, otherwise: int) -> int:
    """The first holder whose mask in ``masks`` has card index ``card``, else ``otherwise``."""
    bit = 1 << card
    for h, mask in enumerate(masks):
        if mask & bit:
            return h
    return otherwise


def _replace(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


@dataclass(frozen=True, slots=True)
class PublicInfo:
    """What everyone knows about where the cards are.

    Sets of cards are bitmasks over card indices.

    Attributes:
        layout: the cards and holders.
        counts: the number of cards each holder has now.
        holding: per holder, the cards known to be with it.
        lacking: per holder, cards of unknown location known not to be with it.
        removed: the cards that have left play.
        constraints: ``(holder, cards)`` pairs: the holder has at least one of those
            cards. Kept reduced: only cards of unknown location that the holder is not
            known to lack; satisfied constraints are dropped.
    """

    layout: CardLayout
    counts: tuple[int, ...]
    holding: tuple[int, ...]
    lacking: tuple[int, ...]
    removed: int
    constraints: tuple[tuple[int, int], ...]
    groups: tuple[int, ...] = ()

    @classmethod
    def start(
        cls,
        layout: CardLayout,
        counts: Sequence[int],
        groups: Iterable[Iterable[Hashable]] = (),
    ) -> PublicInfo:
        """The public information right after a deal: only the hand sizes are known.

        Args:
            layout: the cards and holders.
            counts: the number of cards each holder has.
            groups: card sets of which, at every queried moment, no holder holds all while
                they are in play (the invariant of the module docstring).
        """
        counts_t = tuple(int(n) for n in counts)
        if len(counts_t) != layout.n_holders:
            raise InconsistentCardsError(
                f"counts {list(counts_t)} do not match the {layout.n_holders} holders"
            )
        if any(n < 0 for n in counts_t) or sum(counts_t) != layout.n_cards:
            raise InconsistentCardsError(
                f"counts {list(counts_t)} must be non-negative and sum to the "
                f"{layout.n_cards} cards of the layout"
            )
        masks: list[int] = []
        for group in groups:
            mask = layout.card_mask(group)
            if popcount(mask) < 2:
                raise InconsistentCardsError(
                    "a group of the no-complete-group invariant needs at least two cards"
                )
            if mask not in masks:
                masks.append(mask)
        zeros = (0,) * layout.n_holders
        return cls(layout, counts_t, zeros, zeros, 0, (), tuple(masks))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)

    # -- derived -----------------------------------------------------------------------

    @property
    def unknown(self) -> int:
        """The cards in play whose holder is not publicly known."""
        known = self.removed
        for mask in self.holding:
            known |= mask
        return ((1 << self.layout.n_cards) - 1) & ~known

    def where(self, card: int) -> int:
        """The known holder of card index ``card``, `UNKNOWN` or `REMOVED`."""
        if self.removed & (1 << card):
            return REMOVED
        return holder_in(self.holding, card, UNKNOWN)

    @property
    def location(self) -> tuple[int, ...]:
        """Per card index, its known holder, `UNKNOWN` or `REMOVED`."""
        return tuple(self.where(c) for c in range(self.layout.n_cards))

    def is_removed(self, card: Hashable) -> bool:
        """Whether ``card`` has left play."""
        return bool(self.removed >> self.layout.card_index(card) & 1)

    # -- helpers -----------------------------------------------------------------------

    def _card(self, c: int) -> str:
        return f"card {self.layout.card_name(c)}"

    def _holder(self, h: int) -> str:
        return self.layout.holders[h]

    def _check_can_hold(self, c: int, h: int, verb: str) -> None:
        where = self.where(c)
        if where == REMOVED:
            raise InconsistentCardsError(f"{verb}: {self._card(c)} has been removed from play")
        if where >= 0 and where != h:
            raise InconsistentCardsError(
                f"{verb}: {self._card(c)} is known to be with {self._holder(where)}, "
                f"not {self._holder(h)}"
            )
        if self.lacking[h] >> c & 1:
            raise InconsistentCardsError(
                f"{verb}: {self._holder(h)} is known not to have {self._card(c)}"
            )
        if where != h and popcount(self.holding[h]) >= self.counts[h]:
            raise InconsistentCardsError(
                f"{verb}: {self._holder(h)} has {self.counts[h]} cards, all known; "
                f"it cannot also have {self._card(c)}"
            )

    def _place(
        self, constraints: tuple[tuple[int, int], ...], c: int, h: int
    ) -> tuple[tuple[int, int], ...]:
        """``constraints`` after learning that ``c`` is (and was, at their announcement)
        with ``h``."""
        bit = 1 << c
        kept: list[tuple[int, int]] = []
        for holder, mask in constraints:
            if not mask & bit:
                kept.append((holder, mask))
            elif holder != h:
                rest = mask & ~bit
                if not rest:
                    raise InconsistentCardsError(
                        f"{self._holder(holder)} was announced to hold at least one of a set "
                        f"whose last candidate, {self._card(c)}, is with {self._holder(h)}"
                    )
                kept.append((holder, rest))
        return tuple(kept)

    def _strike(
        self, constraints: tuple[tuple[int, int], ...], c: int, h: int
    ) -> tuple[tuple[int, int], ...]:
        """The constraints once ``h`` lacks ``c``: the card leaves ``h``'s sets.

        Raises:
            InconsistentCardsError: it was the last card of one of them.
        """
        bit = 1 << c
        kept: list[tuple[int, int]] = []
        for g, mask in constraints:
            if g == h and mask & bit:
                mask &= ~bit
                if not mask:
                    raise InconsistentCardsError(
                        f"lacks: {self._card(c)} and holder {self._holder(h)}: it was the last "
                        "card of a set the holder was announced to hold at least one of"
                    )
            kept.append((g, mask))
        return tuple(kept)

    def _unlack(self, c: int) -> tuple[int, ...]:
        keep = ~(1 << c)
        return tuple([mask & keep for mask in self.lacking])

    # -- facts -------------------------------------------------------------------------

    def holds(self, card: Hashable, holder: HolderRef) -> PublicInfo:
        """Announce that ``holder`` has ``card``."""
        return self.holds_index(self.layout.card_index(card), self.layout.holder_index(holder))

    def holds_index(self, c: int, h: int) -> PublicInfo:
        """`holds` of card index ``c`` and holder index ``h``."""
        if self.holding[h] >> c & 1:
            return self
        self._check_can_hold(c, h, "holds")
        holding = _replace(self.holding, h, self.holding[h] | 1 << c)
        return public_info(
            self.layout,
            self.counts,
            holding,
            self._unlack(c),
            self.removed,
            self._place(self.constraints, c, h),
            self.groups,
        )

    def lacks(self, card: Hashable, holder: HolderRef) -> PublicInfo:
        """Announce that ``holder`` does not have ``card``."""
        return self.lacks_index(self.layout.card_index(card), self.layout.holder_index(holder))

    def lacks_index(self, c: int, h: int) -> PublicInfo:
        """`lacks` of card index ``c`` and holder index ``h``."""
        bit = 1 << c
        where = self.where(c)
        if where == h:
            raise InconsistentCardsError(
                f"lacks: {self._card(c)} and holder {self._holder(h)}: "
                "the holder is known to have it"
            )
        if where != UNKNOWN or self.lacking[h] & bit:
            return self
        if all(mask & bit for g, mask in enumerate(self.lacking) if g != h):
            raise InconsistentCardsError(
                f"lacks: no holder is left that could have {self._card(c)}"
            )
        lacking = _replace(self.lacking, h, self.lacking[h] | bit)
        constraints = self._strike(self.constraints, c, h)
        return public_info(
            self.layout, self.counts, self.holding, lacking, self.removed, constraints, self.groups
        )

    def lacks_all(self, holder: HolderRef, cards: Iterable[Hashable]) -> PublicInfo:
        """Announce that ``holder`` has none of ``cards``: `lacks` card by card, in order.

        The same result and the same error as the chain of `lacks`, made as one value
        (a play in a trick game often shows a player lacks a whole suit).
        """
        listed = list(cards)
        if not listed:
            return self
        card_index = self.layout.card_index
        card_index(listed[0])  # a bad card before a bad holder, as `lacks` reads them
        h = self.layout.holder_index(holder)
        lacking = self.lacking
        mine = lacking[h]
        others_lack = -1
        for g, mask in enumerate(lacking):
            if g != h:
                others_lack &= mask
        known = self.removed
        for mask in self.holding:
            known |= mask
        constraints = self.constraints
        for card in listed:
            c = card_index(card)
            bit = 1 << c
            if known & bit:
                where = self.where(c)
                if where == h:
                    raise InconsistentCardsError(
                        f"lacks: {self._card(c)} and holder {self._holder(h)}: "
                        "the holder is known to have it"
                    )
                continue
            if mine & bit:
                continue
            if others_lack & bit:
                raise InconsistentCardsError(
                    f"lacks: no holder is left that could have {self._card(c)}"
                )
            if constraints:
                constraints = self._strike(constraints, c, h)
            mine |= bit
        if mine == lacking[h]:
            return self
        return public_info(
            self.layout,
            self.counts,
            self.holding,
            _replace(lacking, h, mine),
            self.removed,
            constraints,
            self.groups,
        )

    def at_least_one(self, holder: HolderRef, cards: Iterable[Hashable]) -> PublicInfo:
        """Announce that ``holder`` has at least one of ``cards`` now."""
        h = self.layout.holder_index(holder)
        return self.at_least_one_mask(h, self.layout.card_mask(cards))

    def at_least_one_mask(self, h: int, mask: int) -> PublicInfo:
        """`at_least_one` of holder index ``h`` and the card indices of ``mask``."""
        if mask & self.holding[h]:
            return self  # already satisfied by a known card
        live = mask & self.unknown & ~self.lacking[h]
        if not live:
            names = ", ".join(self.layout.card_name(c) for c in iter_bits(mask))
            raise InconsistentCardsError(
                f"at_least_one: {self._holder(h)} cannot have any of {{{names}}}"
            )
        if (h, live) in self.constraints:
            return self
        return public_info(
            self.layout,
            self.counts,
            self.holding,
            self.lacking,
            self.removed,
            (*self.constraints, (h, live)),
            self.groups,
        )

    def move(self, card: Hashable, src: HolderRef, dst: HolderRef) -> PublicInfo:
        """Announce a public transfer of ``card`` from ``src`` to ``dst``.

        Bookkeeping: the card was with ``src`` ever since every earlier fact was announced
        (no move is hidden), so an at-least-one constraint on ``src`` containing it was
        satisfied and is dropped, and in every other constraint the card is struck out.
        """
        return self.move_all(((card, src, dst),))

    def move_all(self, moves: Sequence[tuple[Hashable, HolderRef, HolderRef]]) -> PublicInfo:
        """`move` of each ``(card, src, dst)`` in order, made as one value.

        The same result and the same error as the chain of `move`s (a table dealt or
        cleared moves several cards in one event).
        """
        layout = self.layout
        n = len(self.counts)
        indices: list[tuple[int, int, int]] = []
        for card, src, dst in moves:
            try:
                c = layout.card_index(card)
                # `holder_index` as it answers an index, without the call.
                s = src if type(src) is int and 0 <= src < n else layout.holder_index(src)
                d = dst if type(dst) is int and 0 <= dst < n else layout.holder_index(dst)
            except UnknownCardError:
                self.move_indices(indices)  # an earlier move's error comes first
                raise
            indices.append((c, s, d))
        return self.move_indices(indices)

    def move_indices(self, moves: Sequence[tuple[int, int, int]]) -> PublicInfo:
        """`move_all` of ``(card index, source index, destination index)`` triples."""
        layout = self.layout
        counts = list(self.counts)
        holding = list(self.holding)
        lacking = self.lacking
        removed = self.removed
        constraints = self.constraints
        for c, s, d in moves:
            if s == d:
                raise InconsistentCardsError(
                    f"move: {self._card(c)}: source and destination are both {self._holder(s)}"
                )
            bit = 1 << c
            # `_check_can_hold(c, s, "move")` passes exactly when the card is in play, not
            # lacked by `s`, and with `s` already or unknown with `s` having room; that check
            # runs (and raises) otherwise, on the state so far. This runs for every card of
            # a trick game.
            ok = not (removed | lacking[s]) & bit
            if ok and not holding[s] & bit:
                known = 0
                for mask in holding:
                    known |= mask
                ok = not known & bit and popcount(holding[s]) < counts[s]
            if not ok:
                so_far = public_info(
                    layout,
                    tuple(counts),
                    tuple(holding),
                    lacking,
                    removed,
                    constraints,
                    self.groups,
                )
                so_far._check_can_hold(c, s, "move")
                raise AssertionError("_check_can_hold passes only where the check above does")
            holding[s] &= ~bit
            holding[d] |= bit
            counts[s] -= 1
            counts[d] += 1
            lacked = 0
            for mask in lacking:
                lacked |= mask
            if lacked & bit:
                lacking = tuple([mask & ~bit for mask in lacking])
            if constraints:
                constraints = self._place(constraints, c, s)
        return public_info(
            layout, tuple(counts), tuple(holding), lacking, removed, constraints, self.groups
        )

    def reshuffle(self, src: HolderRef, dst: HolderRef) -> PublicInfo:
        """Announce that every card of ``src`` goes to ``dst`` (e.g. discard pile to deck).

        The engine keeps holders, not orders, so the cards join ``dst`` and ``src`` is
        empty. Cards publicly known to be in ``src`` become known to be in ``dst``. If
        ``src`` also holds cards of unknown identity, the two piles merge; that is exact
        (the consistent deals after the step are exactly those the merged facts allow,
        each reached from equally many deals before it) when neither pile has an
        at-least-one constraint and both are known to lack the same unknown cards, which
        holds whenever cards reach the piles only by public moves and no fact names a
        card a pile lacks. Otherwise it raises `UnsupportedFactError`.

        A seat's private facts about the two piles (`CardKnowledge` ``seen_holds`` /
        ``seen_lacks``) describe them before the step: build that seat's knowledge
        without them afterwards (no game in this package has any).
        """
        s, d = self.layout.holder_index(src), self.layout.holder_index(dst)
        if s == d:
            raise InconsistentCardsError(
                f"reshuffle: source and destination are both {self._holder(s)}"
            )
        unknown = self.unknown
        if popcount(self.holding[s]) < self.counts[s]:
            # Unknown cards in src: the merge must not lose what set the piles apart.
            if self.lacking[s] & unknown != self.lacking[d] & unknown:
                raise UnsupportedFactError(
                    f"reshuffle: {self._holder(s)} and {self._holder(d)} are known to lack "
                    f"different cards of unknown location; merging them is not exact"
                )
            if any(h in (s, d) for h, _ in self.constraints):
                raise UnsupportedFactError(
                    f"reshuffle: {self._holder(s)} or {self._holder(d)} is announced to hold "
                    f"at least one of some cards; merging them is not exact"
                )
        holding = list(self.holding)
        holding[d] |= holding[s]
        holding[s] = 0
        counts = list(self.counts)
        counts[d] += counts[s]
        counts[s] = 0
        return public_info(
            self.layout,
            tuple(counts),
            tuple(holding),
            self.lacking,
            self.removed,
            self.constraints,
            self.groups,
        )

    def check_public_locations(self) -> None:
        """Raise `InconsistentCardsError` unless every card at a public location is known.

        A face-up location (a table) shows its cards, so a game must announce each card
        that lies there; call this after a whole public step.
        """
        for h in self.layout.public:
            known = popcount(self.holding[h])
            if known != self.counts[h]:
                raise InconsistentCardsError(
                    f"{self._holder(h)} is a public location with {self.counts[h]} cards, "
                    f"but {known} of them are announced"
                )

    def remove(self, card: Hashable, src: HolderRef) -> PublicInfo:
        """Announce that ``card`` leaves play from ``src`` (e.g. a completed quartet).

        Groups containing the card leave the no-complete-group invariant.
        """
        c, s = self.layout.card_index(card), self.layout.holder_index(src)
        self._check_can_hold(c, s, "remove")
        bit = 1 << c
        holding = _replace(self.holding, s, self.holding[s] & ~bit)
        counts = _replace(self.counts, s, self.counts[s] - 1)
        return public_info(
            self.layout,
            counts,
            holding,
            self._unlack(c),
            self.removed | bit,
            self._place(self.constraints, c, s),
            tuple(g for g in self.groups if not g & bit),
        )


#: `PublicInfo(...)` made through the slots' own setters (all seven fields, in order), for
#: the updates made on every public fact.
#: Whether this module runs compiled by mypyc: a `PublicInfo`'s fields are then native
#: attributes, which compiled code sets directly.
_NATIVE: Final = hasattr(PublicInfo, "__mypyc_attrs__")
_through_slots: Final = slot_maker(PublicInfo)


def public_info(
    layout: CardLayout,
    counts: tuple[int, ...],
    holding: tuple[int, ...],
    lacking: tuple[int, ...],
    removed: int,
    constraints: tuple[tuple[int, int], ...],
    groups: tuple[int, ...],
) -> PublicInfo:
    """`PublicInfo(layout, counts, …, groups)`, made without the dataclass `__init__`.

    Every public fact makes one. Compiled, the fields are stored natively (the generated
    `__init__` and `slot_maker`'s setters are Python code, several times slower); as plain
    Python, through the slots' own setters (`slot_maker`).
    """
    if not _NATIVE:
        return _through_slots(layout, counts, holding, lacking, removed, constraints, groups)
    made = PublicInfo.__new__(PublicInfo)
    made.layout = layout  # type: ignore[misc]
    made.counts = counts  # type: ignore[misc]
    made.holding = holding  # type: ignore[misc]
    made.lacking = lacking  # type: ignore[misc]
    made.removed = removed  # type: ignore[misc]
    made.constraints = constraints  # type: ignore[misc]
    made.groups = groups  # type: ignore[misc]
    return made
