"""Each seat's knowledge of where every Kemps card is: derived from the public log.

The card engine (`epigames.cards`) keeps the public facts: counts, the table's cards,
public moves, reshuffles (`Reshuffled`) and new hands drawn face down (`Drew`). One more
kind of fact is Kemps's own: a turn that ends without a Kemps shows that the player's
four cards are not four of a kind (`NoKemps`). That is kept here as *not-all* facts, one
per rank: "seat p does not hold all of these cards", which the engine takes as
`CardKnowledge.create(not_all=...)`.

A not-all fact is about the seat's hand when its turn ended. The seat's hand changes
only by public moves (its swaps, its Kemps) until it draws a new hand, so the fact stays
exact when updated move by move: a card the seat puts down was in that hand, and is
struck from the set; a card it takes was not, so the fact was satisfied and is dropped;
a new hand drops all of the seat's facts.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from epigames.cards import (
    DECK,
    DISCARD,
    OUT,
    TABLE,
    CardKnowledge,
    CardLayout,
    Drew,
    Moved,
    PublicInfo,
)
from epigames.cards.errors import InconsistentCardsError
from epigames.cards.facts import apply_facts, start_from_counts
from epigames.games.events import Event
from epigames.games.kemps.actions import OF_A_KIND, kemps_deck
from epigames.games.kemps.events import GameDealt, NoKemps
from epigames.games.recorded import PublicFold

#: `(seat, cards as a bitmask)`: the seat does not hold all of those cards.
NotAll = tuple[int, int]


@functools.cache
def layout_for(ranks: int, seat_names: tuple[str, ...]) -> CardLayout:
    """The seats, then the table (face up), the deck, the discard pile, out of the game."""
    return CardLayout.with_locations(kemps_deck(ranks), seat_names, (TABLE, DECK, DISCARD, OUT))


@functools.cache
def rank_masks(layout: CardLayout) -> tuple[int, ...]:
    """The bitmask of each rank's four cards."""
    cards = layout.cards
    return tuple(
        layout.card_mask(cards[i : i + OF_A_KIND]) for i in range(0, len(cards), OF_A_KIND)
    )


@dataclass(frozen=True, slots=True)
class PublicKemps:
    """The public information of a Kemps game at one moment: the card engine's facts
    and the live not-all facts."""

    public: PublicInfo
    not_all: tuple[NotAll, ...] = ()

    def apply(self, event: Event) -> PublicKemps:
        """The public information after one public announcement."""
        public, not_all = self.public, list(self.not_all)
        # The card engine's facts go in as one batch (one check of the table at its end);
        # a not-all fact is about the hand at its moment, so it waits for the batch.
        batch: list[object] = []
        for fact in event.facts:
            kind = type(fact)
            if kind is NoKemps:
                assert isinstance(fact, NoKemps)
                if batch:
                    public, batch = apply_facts(public, batch), []
                not_all.extend(_no_kemps(public, fact.holder, not_all))
                continue
            batch.append(fact)
            if kind is Moved and not_all:
                assert isinstance(fact, Moved)
                not_all = _moved(public, not_all, fact.src, fact.dst, fact.card)
            elif kind is Drew:
                assert isinstance(fact, Drew)
                not_all = [(h, cards) for h, cards in not_all if h != fact.holder]
        if batch:
            public = apply_facts(public, batch)
        return PublicKemps(public, tuple(not_all))


def _no_kemps(public: PublicInfo, seat: int, known: Sequence[NotAll]) -> list[NotAll]:
    """The not-all facts a turn of `seat` ended without a Kemps adds (none already kept)."""
    elsewhere = public.removed
    for h, mask in enumerate(public.holding):
        if h != seat:
            elsewhere |= mask
    elsewhere |= public.lacking[seat]
    found = []
    for mask in rank_masks(public.layout):
        # A rank with a card the seat is known not to have says nothing new.
        # So does one when the seat is known to hold a card of another rank.
        if (
            not mask & elsewhere
            and not mask_other(public, seat, mask)
            and (seat, mask) not in known
        ):
            found.append((seat, mask))
    return found


def mask_other(public: PublicInfo, seat: int, mask: int) -> bool:
    """Whether `seat` is known to hold a card outside `mask`."""
    return bool(public.holding[seat] & ~mask)


def _moved(
    public: PublicInfo, not_all: list[NotAll], src: int, dst: int, card: Hashable
) -> list[NotAll]:
    bit = 1 << public.layout.card_index(card)
    kept = []
    for h, mask in not_all:
        if not mask & bit:
            kept.append((h, mask))
        elif h == src:
            rest = mask & ~bit
            if not rest:
                raise InconsistentCardsError(
                    f"{public.layout.holders[h]} held all of a set it was announced not to"
                )
            kept.append((h, rest))
        # h == dst or another holder: the card was not with h, so the fact was satisfied.
    return kept


@dataclass(frozen=True, slots=True, eq=False)
class KempsKnowledge(CardKnowledge):
    """A seat's exact knowledge of where every card is (`CardKnowledge` with the game's
    not-all facts); its known values name places too, since in Kemps a card's place is
    the subject of the knowledge."""

    @classmethod
    def of(cls, public: PublicKemps, seat: int, hand: Sequence[Hashable]) -> KempsKnowledge:
        """The knowledge of `seat` holding `hand` under the public facts."""
        layout = public.public.layout
        return cls(public.public, seat, layout.card_mask(hand), not_all=public.not_all)

    def known_values(self) -> dict[str, str]:
        """Card text → the name of its holder (a seat or a place), for every known card."""
        layout = self.layout
        return {
            layout.card_name(c): layout.holders[h]
            for c, h in enumerate(self.known_holders())
            if h >= 0
        }


class PublicTracker(PublicFold[PublicKemps]):
    """Folds a log's public announcements into `PublicKemps`, on demand and incrementally."""

    __slots__ = ()

    def _start(self, event: Event) -> PublicKemps | None:
        """The deal's counts once the game is dealt (None before)."""
        if type(event) is not GameDealt:
            return None
        return PublicKemps(start_from_counts(self._layout, event.facts))

    def _step(self, folded: PublicKemps, event: Event) -> PublicKemps:
        """The announcement applied."""
        return folded.apply(event)


__all__ = ["KempsKnowledge", "NotAll", "PublicKemps", "PublicTracker", "layout_for", "rank_masks"]
