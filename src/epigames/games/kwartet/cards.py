"""Kwartet cards and actions as values: `Card(kind, member)` and `Ask(target, card)`.

A card is written `⟨8,4⟩` (kind 8, member 4), as in the 2020 report; `8.4` and `<8,4>`
are accepted ASCII spellings. Inside the rules a card is its index
`(kind - 1) * 4 + (member - 1)`, so hot paths work on ints.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from epigames.errors import InputError

#: Most kinds a Kwartet deck can have.
MAX_KINDS = 13
#: Cards per kind.
MEMBERS = 4
#: Most seats a Kwartet game can have.
MAX_PLAYERS = 6

_CARD_RE = re.compile(
    r"\s*(?:⟨\s*(\d+)\s*,\s*(\d+)\s*⟩|<\s*(\d+)\s*,\s*(\d+)\s*>|(\d+)\.(\d+)|(\d+)\s*,\s*(\d+))\s*"
)
_ASK_RE = re.compile(r"\s*ask\s+(\S+)\s+(?:for\s+)?(.+?)\s*", re.IGNORECASE)


class CardSyntaxError(InputError):
    """Text that is not a card or not an action of Kwartet."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One Kwartet card: member `1..4` of kind `1..13`.

    Attributes:
        kind: which quartet the card belongs to, 1-based.
        member: which of the kind's four cards, 1-based.
        index: the card's position in the deck, `(kind - 1) * 4 + member - 1` (derived).
    """

    kind: int
    member: int
    # Derived once: strings and indices of cards are needed on every move.
    index: int = field(init=False, repr=False, compare=False)
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (
            type(self.kind) is int
            and type(self.member) is int
            and 1 <= self.kind <= MAX_KINDS
            and 1 <= self.member <= MEMBERS
        ):
            raise CardSyntaxError(
                f"no card Card({self.kind!r}, {self.member!r}); "
                f"expected kind 1..{MAX_KINDS} and member 1..{MEMBERS}"
            )
        object.__setattr__(self, "index", (self.kind - 1) * MEMBERS + self.member - 1)
        object.__setattr__(self, "_text", f"⟨{self.kind},{self.member}⟩")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self.kind}, {self.member})"

    def to_ascii(self) -> str:
        """The ASCII spelling, e.g. `8.4`."""
        return f"{self.kind}.{self.member}"

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card at a deck position (inverse of `index`)."""
        return CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read `⟨8,4⟩`, `<8,4>`, `8.4` or `8,4`.

        Raises:
            CardSyntaxError: anything else, or numbers out of range.
        """
        match = _CARD_RE.fullmatch(text)
        if match is None:
            raise CardSyntaxError(
                f"cannot read card {text!r}; expected ⟨kind,member⟩, <kind,member>, "
                "kind.member or kind,member, e.g. ⟨8,4⟩ or 8.4"
            )
        kind, member = (int(g) for g in match.groups() if g is not None)
        return cls(kind, member)


#: Every card, indexed by `Card.index`; the rules hand these shared objects out.
CARDS: tuple[Card, ...] = tuple(
    Card(kind, member) for kind in range(1, MAX_KINDS + 1) for member in range(1, MEMBERS + 1)
)


@dataclass(frozen=True, slots=True)
class Ask:
    """The Kwartet move: ask seat `target` for `card`.

    `str()` names the target by seat number (`ask 1 ⟨8,4⟩`); `describe(names)` uses display
    names (`ask West ⟨8,4⟩`). `parse` reads both, with or without `for`.
    """

    target: int
    card: Card

    def __str__(self) -> str:
        return f"ask {self.target} {self.card}"

    def describe(self, names: Sequence[str]) -> str:
        """The action with the target's display name, e.g. `ask West ⟨8,4⟩`."""
        return f"ask {names[self.target]} {self.card}"

    @classmethod
    def parse(cls, text: str, names: Sequence[str] = ()) -> Ask:
        """Read `ask 1 ⟨8,4⟩`, `ask West 8.4` or `ask west for <8,4>`.

        Args:
            text: the action.
            names: seat display names, to accept a name instead of a seat number.

        Raises:
            CardSyntaxError: not an ask, an unknown seat name or a bad card.
        """
        match = _ASK_RE.fullmatch(text)
        if match is None:
            raise CardSyntaxError(
                f"cannot read action {text!r}; expected 'ask SEAT CARD', e.g. 'ask West 8.4'"
            )
        who, card = match.group(1), match.group(2)
        lowered = [n.lower() for n in names]
        if who.isdigit():
            target = int(who)
        elif who.lower() in lowered:
            target = lowered.index(who.lower())
        else:
            known = f"a seat number or one of: {', '.join(names)}" if names else "a seat number"
            raise CardSyntaxError(f"cannot read seat {who!r} in {text!r}; expected {known}")
        return cls(target, Card.parse(card))


#: `ASKS[target][card index]`: shared `Ask` objects, so legal-action lists allocate nothing.
ASKS: tuple[tuple[Ask, ...], ...] = tuple(
    tuple(Ask(target, card) for card in CARDS) for target in range(MAX_PLAYERS)
)

#: Display names by number of seats, clockwise from South as around a table.
SEAT_NAMES: dict[int, tuple[str, ...]] = {
    3: ("South", "Northwest", "Northeast"),
    4: ("South", "West", "North", "East"),
    5: ("South", "West", "Northwest", "Northeast", "East"),
    6: ("South", "Southwest", "Northwest", "North", "Northeast", "Southeast"),
}


def kind_cards(kind: int) -> tuple[Card, ...]:
    """The four cards of a kind (1-based)."""
    start = (kind - 1) * MEMBERS
    return CARDS[start : start + MEMBERS]
