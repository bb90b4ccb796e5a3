"""Typed card facts: what a public event says about where cards are.

Each fact is a small frozen value. Holders (seats and locations such as a table, a deck or
a discard pile) are named by their index in the game's `CardLayout`; cards are the
layout's card values. Every fact has three renderings:

- ``str(fact)``: a readable formula, e.g. ``holds(2, ⟨8,4⟩)``;
- ``fact.to_dict()``: named JSON fields, e.g. ``{"fact": "holds", "holder": 2, "card": "⟨8,4⟩"}``;
- ``fact.as_tuple()``: the positional form ``("holds", 2, Card(8, 4))``, which the games'
  event JSON (`Event.to_dict`) serialises, so that JSON stays what it was when facts were
  plain tuples.

`epigames.cards.facts.apply_facts` replays them onto `PublicInfo`, dispatching on type.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, ClassVar


def _cards_json(cards: tuple[Hashable, ...]) -> list[str]:
    return [str(c) for c in cards]


def _cards_text(cards: tuple[Hashable, ...]) -> str:
    return "{" + ", ".join(str(c) for c in cards) + "}"


@dataclass(frozen=True, slots=True)
class CardFact:
    """Base of the card facts; ``name`` is the first item of the tuple form."""

    name: ClassVar[str] = "fact"

    def as_tuple(self) -> tuple[Hashable, ...]:
        """The positional form: the name, then the fields in order."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """Named JSON fields, with ``"fact"`` the name and cards as their ``str()``."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Holds(CardFact):
    """``holder`` has ``card`` (at this point of the event)."""

    name: ClassVar[str] = "holds"
    holder: int
    card: Hashable

    def __str__(self) -> str:
        return f"holds({self.holder}, {self.card})"

    def as_tuple(self) -> tuple[Hashable, ...]:
        """``("holds", holder, card)``."""
        return ("holds", self.holder, self.card)

    def to_dict(self) -> dict[str, Any]:
        """``{"fact": "holds", "holder": …, "card": …}``."""
        return {"fact": self.name, "holder": self.holder, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Lacks(CardFact):
    """``holder`` does not have ``card``."""

    name: ClassVar[str] = "lacks"
    holder: int
    card: Hashable

    def __str__(self) -> str:
        return f"lacks({self.holder}, {self.card})"

    def as_tuple(self) -> tuple[Hashable, ...]:
        """``("lacks", holder, card)``."""
        return ("lacks", self.holder, self.card)

    def to_dict(self) -> dict[str, Any]:
        """``{"fact": "lacks", "holder": …, "card": …}``."""
        return {"fact": self.name, "holder": self.holder, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class HoldsAtLeastOne(CardFact):
    """``holder`` has at least one of ``cards``."""

    name: ClassVar[str] = "at_least_one"
    holder: int
    cards: tuple[Hashable, ...]

    def __str__(self) -> str:
        return f"at_least_one({self.holder}, {_cards_text(self.cards)})"

    def as_tuple(self) -> tuple[Hashable, ...]:
        """``("at_least_one", holder, cards)``."""
        return ("at_least_one", self.holder, self.cards)

    def to_dict(self) -> dict[str, Any]:
        """``{"fact": "at_least_one", "holder": …, "cards": […]}``."""
        return {"fact": self.name, "holder": self.holder, "cards": _cards_json(self.cards)}


@dataclass(frozen=True, slots=True)
class Count(CardFact):
    """``holder`` has exactly ``n`` cards (a hand size, or a hidden pile's public count).

    Replaying it checks the engine's count: counts follow from the deal and the moves.
    """

    name: ClassVar[str] = "count"
    holder: int
    n: int

    def __str__(self) -> str:
        return f"count({self.holder}) = {self.n}"

    def as_tuple(self) -> tuple[Hashable, ...]:
        """``("count", holder, n)``."""
        return ("count", self.holder, self.n)

    def to_dict(self) -> dict[str, Any]:
        """``{"fact": "count", "holder": …, "n": …}``."""
        return {"fact": self.name, "holder": self.holder, "n": self.n}


@dataclass(frozen=True, slots=True)
class Moved(CardFact):
    """``card`` moved, in public view, from holder ``src`` to holder ``dst``.

    Everyone sees which card moves, so afterwards everyone knows it is with ``dst``, also
    when ``dst`` is a face-down pile; and it was with ``src`` until now (a card drawn from
    a hidden deck onto the table was in the deck).
    """

    name: ClassVar[str] = "moved"
    card: Hashable
    src: int
    dst: int

    def __str__(self) -> str:
        return f"moved({self.card}, {self.src} → {self.dst})"

    def as_tuple(self) -> tuple[Hashable, ...]:
        """``("moved", card, src, dst)``."""
        return ("moved", self.card, self.src, self.dst)

    def to_dict(self) -> dict[str, Any]:
        """``{"fact": "moved", "card": …, "src": …, "dst": …}``."""
        return {"fact": self.name, "card": str(self.card), "src": self.src, "dst": self.dst}


@dataclass(frozen=True, slots=True)
class Removed(CardFact):
    """``cards`` leave play (e.g. a completed kind is laid down)."""

    name: ClassVar[str] = "removed"
    cards: tuple[Hashable, ...]

    def __str__(self) -> str:
        return f"removed({_cards_text(self.cards)})"

    def as_tuple(self) -> tuple[Hashable, ...]:
        """``("removed", cards)``."""
        return ("removed", self.cards)

    def to_dict(self) -> dict[str, Any]:
        """``{"fact": "removed", "cards": […]}``."""
        return {"fact": self.name, "cards": _cards_json(self.cards)}


@dataclass(frozen=True, slots=True)
class Reshuffled(CardFact):
    """Every card of location ``src`` goes to location ``dst``, which is shuffled.

    E.g. the discard pile becomes (part of) the deck: its cards' positions in the deck are
    unknown, so which of them comes out next is chance. The engine keeps holders, not
    orders, so for it the cards simply join ``dst``.
    """

    name: ClassVar[str] = "reshuffled"
    src: int
    dst: int

    def __str__(self) -> str:
        return f"reshuffled({self.src} → {self.dst})"

    def as_tuple(self) -> tuple[Hashable, ...]:
        """``("reshuffled", src, dst)``."""
        return ("reshuffled", self.src, self.dst)

    def to_dict(self) -> dict[str, Any]:
        """``{"fact": "reshuffled", "src": …, "dst": …}``."""
        return {"fact": self.name, "src": self.src, "dst": self.dst}


__all__ = [
    "CardFact",
    "Count",
    "Holds",
    "HoldsAtLeastOne",
    "Lacks",
    "Moved",
    "Removed",
    "Reshuffled",
]
