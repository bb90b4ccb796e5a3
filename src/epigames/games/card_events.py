"""Events that card games share: a seat's private look at the hand it was dealt."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from epigames.cards.fact_types import Count, Holds
from epigames.games.events import Fact, PrivateObservation

__all__ = ["Dealt"]

CardT = TypeVar("CardT", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Dealt(PrivateObservation, Generic[CardT], kind="dealt"):
    """After the deal, a seat sees its own hand (and only its own).

    Kwartet (`⟨1,2⟩` cards), Klaverjas and Kemps (`J♥` cards) log it; each game
    re-exports it from its own package.

    Attributes:
        cards: the seat's hand, in the game's card order.
    """

    cards: tuple[CardT, ...]

    @property
    def text(self) -> str:
        """E.g. `South is dealt J♥ 9♥ A♠ (3 cards).`"""
        cards = " ".join(str(c) for c in self.cards) or "no cards"
        return f"{self.name_of(self.seat)} is dealt {cards} ({len(self.cards)} cards)."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The seat holds each card, and exactly that many."""
        held: tuple[Fact, ...] = tuple(Holds(self.seat, c) for c in self.cards)
        return (*held, Count(self.seat, len(self.cards)))
