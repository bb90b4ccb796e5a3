"""Klaverjas actions as values: a card to play (a `Card`), and a trump call (`Bid`).

A card is written as the cards package writes it (`J♥`); `parse_action` also reads
`play J♥`, the ASCII spellings (`JH`, `10S`) and the Dutch letters (`BH` for the boer of
hearts). A trump call is `trump ♥` (also `trump h`, `trump hearts`, `trump harten`), and
`pass` in bidding. Random trump is a chance outcome written like a call: `trump ♥`.
"""

from __future__ import annotations

from dataclasses import dataclass

from epigames.cards import Card, CardParseError, Suit
from epigames.errors import InputError


class ActionSyntaxError(InputError):
    """Text that is not a Klaverjas action."""


_SUIT_WORDS: dict[str, Suit] = {}
for _suit, _words in (
    (Suit.CLUBS, ("♣", "♧", "c", "k", "clubs", "klaveren")),
    (Suit.DIAMONDS, ("♦", "♢", "d", "r", "diamonds", "ruiten")),
    (Suit.HEARTS, ("♥", "♡", "h", "hearts", "harten")),
    (Suit.SPADES, ("♠", "♤", "s", "spades", "schoppen")),
):
    for _word in _words:
        _SUIT_WORDS[_word] = _suit


def parse_suit(text: str) -> Suit:
    """A suit from its symbol, English or Dutch letter or name (`♥`, `h`, `harten`).

    Raises:
        ActionSyntaxError: anything else.
    """
    suit = _SUIT_WORDS.get(text.strip().lower())
    if suit is None:
        raise ActionSyntaxError(
            f"cannot read suit {text!r}; expected ♣ ♦ ♥ ♠, a letter C D H S (Dutch K R H S) "
            "or a name (hearts, harten)"
        )
    return suit


@dataclass(frozen=True, slots=True)
class Bid:
    """A trump call: `suit` as trump, or a pass (`suit` None) in bidding."""

    suit: Suit | None

    def __str__(self) -> str:
        return "pass" if self.suit is None else f"trump {self.suit}"


PASS = Bid(None)
BIDS = {suit: Bid(suit) for suit in Suit}


def parse_card(text: str) -> Card:
    """A card in English or Dutch spelling (`J♥`, `JH`, `BH`, `10♠`).

    Raises:
        ActionSyntaxError: not a card.
    """
    try:
        return Card.parse(text)
    except CardParseError:
        pass
    try:
        return Card.parse(text, dutch=True)
    except CardParseError:
        raise ActionSyntaxError(
            f"cannot read card {text.strip()!r}; expected a rank and a suit, "
            "e.g. J♥, JH, 10S or Dutch BH (boer of hearts)"
        ) from None


def parse_action(text: str) -> Card | Bid:
    """Read `J♥`, `play J♥`, `trump ♥` or `pass`.

    Raises:
        ActionSyntaxError: none of these.
    """
    words = text.strip().split()
    if not words:
        raise ActionSyntaxError("empty action; expected a card (J♥, play J♥), trump ♥ or pass")
    head = words[0].lower()
    if head == "pass" and len(words) == 1:
        return PASS
    if head == "trump" and len(words) == 2:
        return BIDS[parse_suit(words[1])]
    if head == "play" and len(words) == 2:
        return parse_card(words[1])
    if len(words) == 1:
        return parse_card(words[0])
    raise ActionSyntaxError(
        f"cannot read action {text.strip()!r}; expected a card (J♥, play J♥), trump ♥ or pass"
    )
