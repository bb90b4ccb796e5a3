"""Cards drawn face down from a pile into a hand: the public side of a hidden draw."""

from __future__ import annotations

from epigames.cards.errors import InconsistentCardsError, UnsupportedFactError
from epigames.cards.layout import HolderRef
from epigames.cards.public import PublicInfo

__all__ = ["draw_unseen"]


def draw_unseen(public: PublicInfo, src: HolderRef, dst: HolderRef, n: int) -> PublicInfo:
    """Announce that ``dst``, holding no cards, draws ``n`` cards from ``src`` unseen.

    Everyone sees how many cards move but not which. A deal after the draw is consistent
    exactly when moving ``dst``'s cards back to ``src`` gives a deal consistent before it,
    and each deal before it leads to equally many after it, so uniform stays uniform.
    Hence ``dst`` may now hold what ``src`` might have held: the cards known to be in
    ``src`` become unknown between the two, and ``dst`` lacks what ``src`` lacked.

    Raises:
        InconsistentCardsError: ``dst`` holds cards, or ``src`` has fewer than ``n``.
        UnsupportedFactError: an at-least-one fact names either holder.
    """
    layout = public.layout
    s, d = layout.holder_index(src), layout.holder_index(dst)
    if s == d:
        raise InconsistentCardsError(f"draw: source and destination are both {layout.holders[s]}")
    if public.counts[d]:
        raise InconsistentCardsError(
            f"draw: {layout.holders[d]} holds {public.counts[d]} cards; it must hold none"
        )
    if not 0 <= n <= public.counts[s]:
        raise InconsistentCardsError(
            f"draw: {layout.holders[s]} has {public.counts[s]} cards; cannot draw {n}"
        )
    if any(h in (s, d) for h, _ in public.constraints):
        raise UnsupportedFactError(
            f"draw: an at-least-one fact names {layout.holders[s]} or {layout.holders[d]}"
        )
    if n == 0:
        return public
    was_there = public.holding[s]
    unknown = public.unknown
    # Cards known to lie in the pile may now be in either; every other holder lacks them.
    lacking = [mask | was_there for mask in public.lacking]
    lacking[s] &= ~was_there
    lacking[d] = public.lacking[s] & unknown
    holding = list(public.holding)
    holding[s] = 0
    counts = list(public.counts)
    counts[s] -= n
    counts[d] = n
    return PublicInfo(
        layout,
        tuple(counts),
        tuple(holding),
        tuple(lacking),
        public.removed,
        public.constraints,
        public.groups,
    )
