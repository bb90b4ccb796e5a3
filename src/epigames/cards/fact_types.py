"""Typed card facts: what a public event says about where cards are.

Each fact is a small frozen value. Holders (seats and locations such as a table, a deck or
a discard pile) are named by their index in the game's `CardLayout`; cards are the
layout's card values. Every fact has three renderings:

- ``str(fact)``: a readable formula, e.g. ``holds(2, ⟨8,4⟩)``;
- ``fact.to_dict()``: named JSON fields, e.g. ``{"fact": "holds", "holder": 2, "card": "⟨8,4⟩"}``;
- ``fact.as_tuple()``: the positional form ``("holds", 2, Card(8, 4))``, which the games'
  event JSON (`Event.to_dict`) serialises, so that JSON stays what it was when facts were
  plain tuples.

All three come from `NamedFact`, the name and the fields in order; a game may base its
own facts on it too (Blufpoker's dice facts). `epigames.cards.facts.apply_facts` replays
the card facts onto `PublicInfo`, dispatching on type.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Protocol

from epigames.class_keywords import set_given


class HolderNames(Protocol):
    """How plain words name holders: `who` holds (`West`, `the deck`), `hand` where it keeps
    cards (`West's hand`, `the deck`)."""

    def who(self, holder: int) -> str:
        """The seat's name, or the pile's words."""

    def hand(self, holder: int) -> str:
        """Where the holder keeps cards."""


def items_text(values: Iterable[object]) -> str:
    """`a`, `a and b`, `a, b and c` (`nothing` for none)."""
    texts = [str(v) for v in values]
    if len(texts) <= 1:
        return "".join(texts) or "nothing"
    return f"{', '.join(texts[:-1])} and {texts[-1]}"


def cards_text(n: int) -> str:
    """`1 card`, `3 cards`."""
    return "1 card" if n == 1 else f"{n} cards"


@dataclass(frozen=True, slots=True)
class NamedFact:
    """Base of typed facts: ``name``, then the fields in order, give every rendering.

    The card facts below derive from it, and so may a game's own facts (Blufpoker's dice
    facts); a subclass says how a field's value is written (`_field_text`) and how it goes
    to JSON (`_field_json`), and may write its own ``str()``.
    """

    name: ClassVar[str] = "fact"
    #: A notation of its own for ``str()``, with the fields by name (``"count({holder}) =
    #: {n}"``); empty for the default, ``name(field, …)``.
    shown: ClassVar[str] = ""

    def __init_subclass__(cls, *, name: str = "", shown: str = "") -> None:
        set_given(cls, name=name, shown=shown)

    def words(self, names: HolderNames) -> str:
        """The fact in plain words, holders named by `names` (the guided game's sentences).

        By default its ``str()``; a fact people read in the guided game says itself.
        """
        return str(self)

    def _items(self) -> list[tuple[str, Any]]:
        return [(f.name, getattr(self, f.name)) for f in fields(self)]

    def __str__(self) -> str:
        if self.shown:
            return self.shown.format_map(dict(self._items()))
        args = ", ".join(self._field_text(key, value) for key, value in self._items())
        return f"{self.name}({args})"

    def as_tuple(self) -> tuple[Hashable, ...]:
        """The positional form: the name, then the fields in order."""
        return (self.name, *(value for _, value in self._items()))

    def to_dict(self) -> dict[str, Any]:
        """Named JSON fields, ``"fact"`` (the name) first, then the fields in order."""
        data: dict[str, Any] = {"fact": self.name}
        for key, value in self._items():
            data[key] = self._field_json(key, value)
        return data

    def _field_text(self, key: str, value: Any) -> str:
        """How the field ``key`` shows ``value`` in ``str()``."""
        return str(value)

    def _field_json(self, key: str, value: Any) -> Any:
        """The field ``key``'s ``value`` as a JSON value."""
        return value


@dataclass(frozen=True, slots=True)
class CardFact(NamedFact):
    """Base of the card facts: a ``card`` as its ``str()``, ``cards`` in braces or a list.

    Holders, counts and the other integer fields stay integers in JSON.
    """

    def _field_text(self, key: str, value: Any) -> str:
        return "{" + ", ".join(str(c) for c in value) + "}" if key == "cards" else str(value)

    def _field_json(self, key: str, value: Any) -> Any:
        if key == "card":
            return str(value)
        return [str(c) for c in value] if key == "cards" else value


@dataclass(frozen=True, slots=True)
class Holds(CardFact, name="holds"):
    """``holder`` has ``card`` (at this point of the event)."""

    holder: int
    card: Hashable

    def words(self, names: HolderNames) -> str:
        return f"{names.who(self.holder)} holds {self.card}"


@dataclass(frozen=True, slots=True)
class Lacks(CardFact, name="lacks"):
    """``holder`` does not have ``card``."""

    holder: int
    card: Hashable

    def words(self, names: HolderNames) -> str:
        return f"{names.who(self.holder)} does not hold {self.card}"


@dataclass(frozen=True, slots=True)
class HoldsAtLeastOne(CardFact, name="at_least_one"):
    """``holder`` has at least one of ``cards``."""

    holder: int
    cards: tuple[Hashable, ...]

    def words(self, names: HolderNames) -> str:
        # Kwartet's cards have a kind: "a card of kind 8" says it without naming the
        # cards, which the fact does not place.
        kinds = {getattr(card, "kind", None) for card in self.cards}
        if len(kinds) == 1 and None not in kinds:
            return f"{names.who(self.holder)} holds a card of kind {kinds.pop()}"
        return f"{names.who(self.holder)} holds at least one of {items_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Count(CardFact, name="count", shown="count({holder}) = {n}"):
    """``holder`` has exactly ``n`` cards (a hand size, or a hidden pile's public count).

    Replaying it checks the engine's count: counts follow from the deal and the moves.
    """

    holder: int
    n: int

    def words(self, names: HolderNames) -> str:
        return f"{names.who(self.holder)} has {cards_text(self.n)}"


@dataclass(frozen=True, slots=True)
class Moved(CardFact, name="moved", shown="moved({card}, {src} → {dst})"):
    """``card`` moved, in public view, from holder ``src`` to holder ``dst``.

    Everyone sees which card moves, so afterwards everyone knows it is with ``dst``, also
    when ``dst`` is a face-down pile; and it was with ``src`` until now (a card drawn from
    a hidden deck onto the table was in the deck).
    """

    card: Hashable
    src: int
    dst: int

    @classmethod
    @functools.cache  # a game moves the same cards between the same places again and again
    def of(cls, card: Hashable, src: int, dst: int) -> Moved:
        """`Moved(card, src, dst)`, made once per value (facts are immutable)."""
        return cls(card, src, dst)

    def words(self, names: HolderNames) -> str:
        return f"{self.card} goes from {names.hand(self.src)} to {names.hand(self.dst)}"


@dataclass(frozen=True, slots=True)
class Removed(CardFact, name="removed"):
    """``cards`` leave play (e.g. a completed kind is laid down)."""

    cards: tuple[Hashable, ...]

    def words(self, names: HolderNames) -> str:
        return f"{items_text(self.cards)} leave the game"


@dataclass(frozen=True, slots=True)
class Reshuffled(CardFact, name="reshuffled", shown="reshuffled({src} → {dst})"):
    """Every card of location ``src`` goes to location ``dst``, which is shuffled.

    E.g. the discard pile becomes (part of) the deck: its cards' positions in the deck are
    unknown, so which of them comes out next is chance. The engine keeps holders, not
    orders, so for it the cards simply join ``dst``.
    """

    src: int
    dst: int

    def words(self, names: HolderNames) -> str:
        return f"the cards of {names.who(self.src)} are shuffled into {names.who(self.dst)}"


@dataclass(frozen=True, slots=True)
class Drew(CardFact, name="drew", shown="drew({holder}, {n} from {src})"):
    """``holder``, holding no cards, draws ``n`` cards face down from location ``src``.

    Everyone sees how many cards it takes, not which (a new hand from the deck).
    """

    holder: int
    n: int
    src: int

    def words(self, names: HolderNames) -> str:
        who, src = names.who(self.holder), names.who(self.src)
        return f"{who} draws {cards_text(self.n)} face down from {src}"


__all__ = [
    "CardFact",
    "Count",
    "Drew",
    "HolderNames",
    "Holds",
    "HoldsAtLeastOne",
    "Lacks",
    "Moved",
    "NamedFact",
    "Removed",
    "Reshuffled",
    "cards_text",
    "items_text",
]
