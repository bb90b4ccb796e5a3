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
from collections.abc import Hashable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from epigames.class_keywords import set_given


@dataclass(frozen=True, slots=True)
class NamedFact:
    """Base of typed facts: ``name``, then the fields in order, give every rendering.

    The card facts below derive from it, and so may a game's own facts (Blufpoker's dice
    facts); a subclass says how a field's value is written (`_field_text`) and how it goes
    to JSON (`_field_json`), and may write its own ``str()``.
    """

    name: ClassVar[str] = "fact"
    #: Whether the fact says where the items it names are. A negative, disjunctive or
    #: claimed fact names items without placing them (`Lacks`, a bid's `Claims`): naming
    #: them in public says nothing about who holds them.
    places: ClassVar[bool] = True
    #: A notation of its own for ``str()``, with the fields by name (``"count({holder}) =
    #: {n}"``); empty for the default, ``name(field, …)``.
    shown: ClassVar[str] = ""

    def __init_subclass__(
        cls, *, name: str = "", places: bool | None = None, shown: str = ""
    ) -> None:
        set_given(cls, name=name, places=places, shown=shown)

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


@dataclass(frozen=True, slots=True)
class Lacks(CardFact, name="lacks", places=False):
    """``holder`` does not have ``card``."""

    holder: int
    card: Hashable


@dataclass(frozen=True, slots=True)
class HoldsAtLeastOne(CardFact, name="at_least_one", places=False):
    """``holder`` has at least one of ``cards``."""

    holder: int
    cards: tuple[Hashable, ...]


@dataclass(frozen=True, slots=True)
class Count(CardFact, name="count", shown="count({holder}) = {n}"):
    """``holder`` has exactly ``n`` cards (a hand size, or a hidden pile's public count).

    Replaying it checks the engine's count: counts follow from the deal and the moves.
    """

    holder: int
    n: int


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


@dataclass(frozen=True, slots=True)
class Removed(CardFact, name="removed"):
    """``cards`` leave play (e.g. a completed kind is laid down)."""

    cards: tuple[Hashable, ...]


@dataclass(frozen=True, slots=True)
class Reshuffled(CardFact, name="reshuffled", shown="reshuffled({src} → {dst})"):
    """Every card of location ``src`` goes to location ``dst``, which is shuffled.

    E.g. the discard pile becomes (part of) the deck: its cards' positions in the deck are
    unknown, so which of them comes out next is chance. The engine keeps holders, not
    orders, so for it the cards simply join ``dst``.
    """

    src: int
    dst: int


@dataclass(frozen=True, slots=True)
class Drew(CardFact, name="drew", shown="drew({holder}, {n} from {src})"):
    """``holder``, holding no cards, draws ``n`` cards face down from location ``src``.

    Everyone sees how many cards it takes, not which (a new hand from the deck).
    """

    holder: int
    n: int
    src: int


__all__ = [
    "CardFact",
    "Count",
    "Drew",
    "Holds",
    "HoldsAtLeastOne",
    "Lacks",
    "Moved",
    "NamedFact",
    "Removed",
    "Reshuffled",
]
