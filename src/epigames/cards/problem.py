"""The reduced problem: free cards, where each may be, capacities and live constraints.

`reduce_facts` turns facts (known holders, lacks, at-least-one sets, counts, groups no
holder holds completely) into a
`Problem` and runs unit propagation to a fixpoint, all on card bitmasks (one per holder),
so a pass costs a few operations per holder rather than per card. Every rule is a sound
consequence, so the cards it places are known; completeness is the solvers' job
(`epigames.cards.feasibility`, `epigames.cards.counting`). Rules:

* a card that only one holder may have goes there;
* a holder with no capacity left is struck from every card's allowed set;
* a holder whose capacity equals the number of free cards it may take takes them all
  (fewer than that is a contradiction);
* a constraint ``(h, S)`` loses the cards that cannot be with ``h``; with one card left
  it places that card with ``h``; a placed card satisfies or shrinks constraints;
* a group (no holder holds all of it) whose cards but one are known to be with ``h``:
  ``h`` lacks the last one; all of it with ``h`` is a contradiction.

What is left of a group becomes a *not-all* constraint ``(h, S)`` on free cards: ``h``
does not get every card of ``S``. It is kept only where it can bite: every card of the
group not free is with ``h``, every free one may be with ``h``, ``h`` has room for all
of them and there are at least two. (Elsewhere the group is satisfied in every deal.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from epigames import native
from epigames.cards.errors import InconsistentCardsError
from epigames.cards.layout import CardLayout
from epigames.cards.public import REMOVED, UNKNOWN, holder_in, iter_bits, popcount
from epigames.cards.slots import rebuilt, slot_maker


@dataclass(frozen=True, slots=True)
class Problem:
    """Facts after propagation; sets of cards are bitmasks.

    Attributes:
        caps: per holder, how many free cards it still takes.
        known: per holder, the cards known (or derived) to be with it.
        may: per holder, the free cards that may be with it.
        free: the cards whose holder is still open.
        removed: the cards out of play.
        constraints: live ``(holder, free cards)`` pairs, each with ≥ 2 cards.
        exclusions: live not-all ``(holder, free cards)`` pairs, each with ≥ 2 cards: the
            holder does not get all of them.
    """

    caps: tuple[int, ...]
    known: tuple[int, ...]
    may: tuple[int, ...]
    free: int
    removed: int
    constraints: tuple[tuple[int, int], ...]
    exclusions: tuple[tuple[int, int], ...] = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)

    def key(self) -> tuple[object, ...]:
        """A hashable summary that determines every answer about the free cards."""
        return (self.caps, self.may, self.constraints, self.exclusions)

    def where(self, card: int) -> int:
        """The holder of ``card`` if fixed, else `UNKNOWN` or `REMOVED`."""
        if self.free & (1 << card):
            return UNKNOWN
        return holder_in(self.known, card, REMOVED)

    def allowed(self, card: int) -> int:
        """The holders (bitmask) that ``card`` may be with."""
        bit = 1 << card
        if not self.free & bit:
            where = self.where(card)
            return 1 << where if where >= 0 else 0
        mask = 0
        for h, cards in enumerate(self.may):
            if cards & bit:
                mask |= 1 << h
        return mask


def _first(layout: CardLayout, cards: int) -> str:
    return f"card {layout.card_name((cards & -cards).bit_length() - 1)}"


# The C version of `reduce_facts` (`_engine.c`, the same propagation on machine words),
# where the compiled modules run: it answers up to 64 cards and leaves contradictions and
# larger layouts to the Python version (NotImplemented), which words the error.
_C_MODULE = native.c_module("epigames.cards._engine")
_C_REDUCE: Final[Callable[..., Any] | None] = None if _C_MODULE is None else _C_MODULE.reduce_facts


def reduce_facts(
    layout: CardLayout,
    counts: Sequence[int],
    holding: Sequence[int],
    lacking: Sequence[int],
    removed: int,
    constraints: Sequence[tuple[int, int]],
    groups: Sequence[int] = (),
    not_all: Sequence[tuple[int, int]] = (),
) -> Problem:
    """Propagate the facts to a fixpoint; raise `InconsistentCardsError` on a contradiction.

    See `python_reduce_facts` for the arguments; the C version answers where it can.
    """
    if _C_REDUCE is not None:
        got = _C_REDUCE(
            layout.n_cards, counts, holding, lacking, removed, constraints, groups, not_all
        )
        if got is not NotImplemented:
            caps, known, may, free, gone, cons, exclusions = got
            return _problem(caps, known, may, free, gone, cons, exclusions)
    return python_reduce_facts(
        layout, counts, holding, lacking, removed, constraints, groups, not_all
    )


def python_reduce_facts(
    layout: CardLayout,
    counts: Sequence[int],
    holding: Sequence[int],
    lacking: Sequence[int],
    removed: int,
    constraints: Sequence[tuple[int, int]],
    groups: Sequence[int] = (),
    not_all: Sequence[tuple[int, int]] = (),
) -> Problem:
    """`reduce_facts` in Python, whatever the size (the C version's reference).

    Args:
        layout: names for messages.
        counts: cards per holder.
        holding: per holder, cards known to be with it (pairwise disjoint).
        lacking: per holder, cards known not to be with it.
        removed: cards out of play.
        constraints: at-least-one ``(holder, cards)`` pairs.
        groups: card sets of which no holder holds all (those with a removed card are
            ignored).
        not_all: ``(holder, cards)`` pairs: that holder does not hold all of those cards
            (Kemps: a player who announced no four of a kind).
    """
    names = layout.holders
    nh = len(counts)
    known = list(holding)
    free = ((1 << layout.n_cards) - 1) & ~removed
    caps = list(counts)
    for h in range(nh):
        free &= ~known[h]
        caps[h] -= popcount(known[h])
        if caps[h] < 0:
            raise InconsistentCardsError(
                f"holder {names[h]} has {counts[h]} cards but more are known to be there"
            )
    may = [free & ~lacking[h] if caps[h] > 0 else 0 for h in range(nh)]

    cons: list[tuple[int, int]] = []
    for h, mask in constraints:
        if mask & known[h]:
            continue
        live = mask & may[h]
        if not live:
            cards = ", ".join(layout.card_name(c) for c in iter_bits(mask))
            raise InconsistentCardsError(
                f"holder {names[h]} must have one of {{{cards}}} but can have none"
            )
        cons.append((h, live))

    def place(cards: int, h: int) -> None:
        nonlocal free, cons
        known[h] |= cards
        free &= ~cards
        caps[h] -= popcount(cards)
        if caps[h] < 0:
            raise InconsistentCardsError(
                f"{_first(layout, cards)} and holder {names[h]}: the holder has no room left"
            )
        for g in range(nh):
            may[g] &= ~cards
        kept: list[tuple[int, int]] = []
        for g, mask in cons:
            if mask & cards:
                if g == h:
                    continue
                mask &= ~cards
                if not mask:
                    raise InconsistentCardsError(
                        f"holder {names[g]} must have one of a set whose last candidate, "
                        f"{_first(layout, cards)}, is with {names[h]}"
                    )
            kept.append((g, mask))
        cons = kept

    # Each group with the holders it binds: -1 for every holder, else the one named.
    bound = [(g, -1) for g in groups if not g & removed]
    bound += [(cards, h) for h, cards in not_all if not cards & removed]

    def owner(cards: int) -> int:
        """The holder known to have all of ``cards`` (not empty), or -1."""
        low = cards & -cards
        for h in range(nh):
            if known[h] & low:
                return h if not cards & ~known[h] else -1
        return -1

    def candidates(g: int, placed: int, holder: int) -> Sequence[int]:
        """The holders that could still hold every card of group ``g``."""
        if not placed:
            return range(nh) if holder < 0 else (holder,)
        h = owner(placed)
        return () if h < 0 or (holder >= 0 and h != holder) else (h,)

    def group_step() -> bool:
        """The unit rule of the groups; whether it struck a card from a holder.

        Only groups with two free cards or more are kept for the next step. Placed cards
        stay where they are and a struck card never comes back, so a group with one free
        card has done all it can once its last card is struck from its candidate, and a
        group with none once it is checked.
        """
        nonlocal bound
        changed = False
        kept: list[tuple[int, int]] = []
        for g, holder in bound:
            rest = g & free
            if rest & (rest - 1):
                kept.append((g, holder))
                continue
            placed = g & ~free
            if not rest:
                if placed and candidates(g, placed, holder):
                    h = owner(placed)
                    raise InconsistentCardsError(
                        f"holder {names[h]} would hold every card of the group of "
                        f"{_first(layout, g)}, which it does not hold completely"
                    )
                continue
            for g_h in candidates(g, placed, holder):
                if may[g_h] & rest:
                    may[g_h] &= ~rest
                    changed = True
        bound = kept
        return changed

    while True:
        once = twice = 0
        for mask in may:
            twice |= once & mask
            once |= mask
        if free & ~once:
            raise InconsistentCardsError(
                f"no holder with room is left for {_first(layout, free & ~once)}"
            )
        single = free & ~twice
        if single:
            for h in range(nh):
                if may[h] & single:
                    place(may[h] & single, h)
            continue
        progress = False
        for h in range(nh):
            n_may = popcount(may[h])
            if n_may < caps[h]:
                raise InconsistentCardsError(
                    f"holder {names[h]} needs {caps[h]} more cards but only {n_may} can "
                    "still be there"
                )
            if caps[h] == 0 and may[h]:
                may[h] = 0
                progress = True
                break
            if n_may == caps[h] and n_may:
                place(may[h], h)
                progress = True
                break
        if progress or (bound and group_step()):
            continue
        kept: list[tuple[int, int]] = []
        unit: tuple[int, int] | None = None
        for h, mask in cons:
            live = mask & may[h]
            if not live:
                raise InconsistentCardsError(
                    f"holder {names[h]} must have one of a set of cards it cannot have"
                )
            if unit is None and not live & (live - 1):
                unit = (live, h)
            kept.append((h, live))
        cons = kept
        if unit is None:
            break
        place(*unit)
    exclusions: list[tuple[int, int]] = []
    for g, holder in bound:
        rest = g & free
        if not rest & (rest - 1):
            continue  # one free card or none: the unit rule has done all there is
        placed = g & ~free
        size = popcount(rest)
        for h in candidates(g, placed, holder):
            if not rest & ~may[h] and caps[h] >= size:
                exclusions.append((h, rest))
    return _problem(
        tuple(caps), tuple(known), tuple(may), free, removed, tuple(cons), tuple(exclusions)
    )


__all__ = ["REMOVED", "UNKNOWN", "Problem", "reduce_facts"]


# Made on every decision, so through the attributes' own setters (`slot_maker`).
_problem = slot_maker(Problem)
