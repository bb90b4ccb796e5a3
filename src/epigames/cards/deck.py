"""Playing cards as values: suits, ranks, cards, decks, hands and dealing one card at a time.

A card is written rank then suit: `J♥`, `10♠`, `A♣`. `Card.parse` also reads ASCII
letters in either case (`JH`, `jh`, `10S`, `TS`) and, with `dutch=True`, the Dutch
letters of Klaverjas texts: ranks B (boer, jack), V (vrouw, queen), H (heer, king),
A (aas, ace) and suits K (klaveren, clubs), R (ruiten, diamonds), H (harten, hearts),
S (schoppen, spades).

Cards sort by suit (♣ ♦ ♥ ♠), then by rank in the natural order 2 … 10 J Q K A. Who
wins a trick is a separate matter (`epigames.cards.tricks`): games rank cards their own
way. A deck is a tuple of cards in that sorted order, so the same deck always lists its
cards the same way; `deal_outcomes` turns the cards not dealt yet into the chance
outcomes of dealing the next one.

Typical use::

    hand = Hand.parse("J♥ 9♥ A♠ 7♣")
    hand.of_suit(Suit.HEARTS)          # (Card(Rank.NINE, Suit.HEARTS), Card(Rank.JACK, ...))
    deal_outcomes(deck(8), dealt=hand)  # 28 (card, 1/28) pairs
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import pairwise

from epigames.errors import InputError


class CardParseError(InputError):
    """Text that is not a playing card or a hand of playing cards."""


class DeckError(InputError):
    """Cards that do not make a valid card, deck, hand or deal (bad values, duplicates)."""


class _Ordered(Enum):
    """An enum whose members compare by their integer values (no members of its own)."""

    # Enum members do not order by default; suits and ranks must, so cards can sort.
    def __lt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Ordered)
        return bool(self.value < other.value)

    def __le__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Ordered)
        return bool(self.value <= other.value)

    def __gt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Ordered)
        return bool(self.value > other.value)

    def __ge__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Ordered)
        return bool(self.value >= other.value)

    def __str__(self) -> str:
        return _TEXT[self]

    @property
    def letter(self) -> str:
        """One ASCII character: suits C D H S; ranks `2` … `9`, `T` for ten, `J`, `Q`, `K`, `A`."""
        return _LETTER[self]

    @property
    def dutch(self) -> str:
        """The Dutch spelling: suits K R H S (klaveren …); ranks `2` … `10`, B V H A (boer …)."""
        return _DUTCH[self]

    # Members are singletons compared by identity, so the identity hash agrees with
    # equality; Enum's own hashes the name in Python, and suits and ranks key the hot
    # tables of trick play.
    __hash__ = object.__hash__

    def __format__(self, format_spec: str) -> str:
        # What Enum's does for an enum with its own `__str__` (`f"{suit}"` in every text
        # about a card), without its checks of mixed-in types.
        return str(self).__format__(format_spec)

    def __repr__(self) -> str:
        # `Suit.HEARTS` rather than `<Suit.HEARTS: 2>`, so a card's repr pastes back as code.
        return f"{type(self).__name__}.{self.name}"


class Suit(_Ordered):
    """A suit; suits sort ♣ < ♦ < ♥ < ♠ (clubs, diamonds, hearts, spades); `str()` is the symbol."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3


class Rank(_Ordered):
    """A rank, valued 2 … 14 in the natural order 2 < 3 < … < 10 < J < Q < K < A."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def text(self) -> str:
        """How cards show the rank: `2` … `10`, `J`, `Q`, `K`, `A` (its `str()`)."""
        return _TEXT[self]


def _spelling(*tables: tuple[type[_Ordered], str]) -> dict[_Ordered, str]:
    """Each member's spelling, from one string per enum of its spellings in value order."""
    return {
        member: spelled
        for enum, spellings in tables
        for member, spelled in zip(enum, spellings.split(), strict=True)
    }


_TEXT = _spelling((Suit, "♣ ♦ ♥ ♠"), (Rank, "2 3 4 5 6 7 8 9 10 J Q K A"))
_LETTER = _spelling((Suit, "C D H S"), (Rank, "2 3 4 5 6 7 8 9 T J Q K A"))
_DUTCH = _spelling((Suit, "K R H S"), (Rank, "2 3 4 5 6 7 8 9 10 B V H A"))

#: Every suit, in sort order.
SUITS: tuple[Suit, ...] = tuple(Suit)
#: Every rank, low to high in the natural order.
RANKS: tuple[Rank, ...] = tuple(Rank)

# Upper-case spelling → value; parsing upper-cases its input first. White suit symbols
# (♧ ♢ ♡ ♤) are accepted because some fonts and texts use them for the same suits.
_WHITE_SYMBOLS = ("♧", "♢", "♡", "♤")
_SYMBOL_SUITS = {
    **{str(s): s for s in Suit},
    **{w: s for w, s in zip(_WHITE_SYMBOLS, Suit, strict=True)},
}
_ENGLISH_SUITS = {**_SYMBOL_SUITS, **{s.letter: s for s in Suit}}
_DUTCH_SUITS = {**_SYMBOL_SUITS, **{s.dutch: s for s in Suit}}
_ENGLISH_RANKS = {**{r.text: r for r in Rank}, **{r.letter: r for r in Rank}}
_DUTCH_RANKS = {r.dutch: r for r in Rank}
_CARD_RE = re.compile(r"(10|\S)(\S)")


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One playing card: a rank of a suit.

    Cards are hashable and sort by suit, then rank (`index` order). `str()` gives `J♥`;
    `parse` reads that and the ASCII and Dutch spellings; `repr()` gives
    `Card(Rank.JACK, Suit.HEARTS)`.

    There is one object per card: `Card(rank, suit)`, `parse`, pickling and copying all
    give the object in `CARDS`, so equal cards are the same object and compare (and hash)
    by identity, in C: cards are compared and looked up on every move of a game.

    Attributes:
        rank: the card's rank.
        suit: the card's suit.
        index: the card's position in the 52-card deck, `13 * suit + rank - 2` (derived);
            sorting by it is sorting by (suit, rank).
    """

    rank: Rank
    suit: Suit
    # Derived once: cards are compared and printed on every move of a game.
    index: int = field(init=False, repr=False, compare=False)
    _text: str = field(init=False, repr=False, compare=False)

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        if _CANONICAL and isinstance(rank, Rank) and isinstance(suit, Suit):
            return _CANONICAL[13 * suit.value + rank.value - 2]
        # Building `CARDS`, or a bad rank or suit that `__post_init__` reports.
        return object.__new__(cls)

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit]]:
        return (Card, (self.rank, self.suit))

    # Written out because the ordering methods below make Python route every comparison
    # through its slow generic path, where `object`'s identity test is slower than these.
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return False if other.__class__ is Card else NotImplemented

    def __ne__(self, other: object) -> bool:
        if self is other:
            return False
        return True if other.__class__ is Card else NotImplemented

    __hash__ = object.__hash__

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, Rank) and isinstance(self.suit, Suit)):
            raise DeckError(
                f"no card Card({self.rank!r}, {self.suit!r}); expected Card(Rank, Suit), "
                "e.g. Card(Rank.JACK, Suit.HEARTS)"
            )
        object.__setattr__(self, "index", 13 * self.suit.value + self.rank.value - 2)
        object.__setattr__(self, "_text", self.rank.text + str(self.suit))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self.rank!r}, {self.suit!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    def ascii(self) -> str:
        """The ASCII spelling, rank then suit letter: `JH`, `10S`."""
        return self.rank.text + self.suit.letter

    def dutch(self) -> str:
        """The Dutch spelling with the suit symbol: `B♥` (boer), `V♠` (vrouw), `10♦`."""
        return self.rank.dutch + str(self.suit)

    @classmethod
    def parse(cls, text: str, *, dutch: bool = False) -> Card:
        """Read a card: rank then suit, in any case, surrounding blanks ignored.

        Ranks are `2` … `10`, `T` (ten), `J`, `Q`, `K`, `A`; suits a symbol (♣ ♦ ♥ ♠, or
        ♧ ♢ ♡ ♤) or a letter C D H S: `J♥`, `JH`, `jh`, `10♠`, `TS`. With `dutch=True`
        the ranks are `2` … `10`, B V H A and the suit letters K R H S (`BH`, `vk`).

        Raises:
            CardParseError: anything else; the message quotes the text.
        """
        ranks, suits = (_DUTCH_RANKS, _DUTCH_SUITS) if dutch else (_ENGLISH_RANKS, _ENGLISH_SUITS)
        match = _CARD_RE.fullmatch(text.strip().upper())
        rank = suit = None
        if match is not None:
            rank, suit = ranks.get(match.group(1)), suits.get(match.group(2))
        if rank is None or suit is None:
            raise CardParseError(f"cannot read card {text!r}; expected {_expected(dutch)}")
        return CARDS[13 * suit.value + rank.value - 2]


def _expected(dutch: bool) -> str:
    if dutch:
        return "a rank 2-10, B, V, H or A, then a suit ♣ ♦ ♥ ♠ or K, R, H, S (e.g. B♥, BH, 10S)"
    return "a rank 2-10, T, J, Q, K or A, then a suit ♣ ♦ ♥ ♠ or C, D, H, S (e.g. J♥, JH, TS)"


_CANONICAL: list[Card] = []
#: Every card of the 52-card deck, indexed by `Card.index`: the only `Card` objects.
CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
_CANONICAL.extend(CARDS)

#: A deck: distinct cards in sorted (suit, rank) order.
Deck = tuple[Card, ...]


def deck(ranks: int | Iterable[Rank] = 13, suits: Iterable[Suit] = SUITS) -> Deck:
    """A deck of every given rank in every given suit, sorted by (suit, rank).

    `ranks` is either a count n, meaning the top n ranks of the natural order (13: the
    52-card deck; 8: the 32-card piquet deck 7 … A of Klaverjas; 4: J Q K A, a 16-card
    deck for tests), or the ranks themselves (e.g. 2 … 6 for a small Kemps deck).

    Raises:
        DeckError: a count outside 1..13, no ranks or suits, or a repeated rank or suit.
    """
    if isinstance(ranks, int):
        if isinstance(ranks, bool) or not 1 <= ranks <= len(RANKS):
            raise DeckError(f"cannot make a deck with ranks={ranks!r}; expected 1..{len(RANKS)}")
        chosen = RANKS[len(RANKS) - ranks :]
    else:
        chosen = tuple(ranks)
    suit_list = tuple(suits)
    for name, values, kind in (("ranks", chosen, Rank), ("suits", suit_list, Suit)):
        if (
            not values
            or len(set(values)) != len(values)
            or not all(isinstance(v, kind) for v in values)
        ):
            raise DeckError(
                f"cannot make a deck with {name}={list(values)!r}; "
                f"expected distinct {kind.__name__} values, at least one"
            )
    return tuple(sorted(Card(r, s) for s in suit_list for r in chosen))


#: The 52-card deck, 2 … A in each suit.
STANDARD_DECK: Deck = deck(13)
#: The 32-card piquet deck, 7 … A in each suit (Klaverjas).
PIQUET_DECK: Deck = deck(8)


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards a player holds, as a value: distinct cards, kept sorted by (suit, rank).

    Built from any iterable of cards (`Hand([...])`, order ignored) or parsed from text
    (`Hand.parse("J♥ 9♥ A♠")`). Iterates, measures and tests membership like a frozenset;
    `str()` lists the cards in order separated by blanks.

    Attributes:
        cards: the cards in sorted order.
    """

    cards: tuple[Card, ...]

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        given = tuple(cards)
        bad = [c for c in given if not isinstance(c, Card)]
        if bad:
            raise DeckError(f"a hand holds cards only, got {bad[0]!r}")
        ordered = tuple(sorted(given))
        duplicates = sorted({c for a, c in pairwise(ordered) if a == c})
        if duplicates:
            listed = " ".join(map(str, duplicates))
            raise DeckError(f"a hand holds each card at most once; repeated: {listed}")
        object.__setattr__(self, "cards", ordered)

    @classmethod
    def parse(cls, text: str, *, dutch: bool = False) -> Hand:
        """Read cards separated by blanks or commas (`J♥ 9♥ A♠`, `jh,9h,as`); blank: empty.

        Raises:
            CardParseError: a word that is not a card (see `Card.parse`).
            DeckError: a card given twice.
        """
        words = text.replace(",", " ").split()
        return cls(Card.parse(w, dutch=dutch) for w in words)

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def of_suit(self, suit: Suit) -> tuple[Card, ...]:
        """The hand's cards of `suit`, low to high in the natural order."""
        return tuple(c for c in self.cards if c.suit is suit)

    def has_suit(self, suit: Suit) -> bool:
        """Whether the hand holds a card of `suit`."""
        return any(c.suit is suit for c in self.cards)

    def suits(self) -> frozenset[Suit]:
        """The suits the hand holds at least one card of."""
        return frozenset(c.suit for c in self.cards)

    def without(self, card: Card) -> Hand:
        """The hand after `card` leaves it.

        Raises:
            DeckError: the hand does not hold `card`.
        """
        if card not in self.cards:
            raise DeckError(f"cannot remove {card} from hand {self}; it does not hold it")
        return Hand(c for c in self.cards if c != card)

    def with_card(self, card: Card) -> Hand:
        """The hand after `card` joins it.

        Raises:
            DeckError: the hand already holds `card`.
        """
        return Hand((*self.cards, card))


def undealt(cards: Sequence[Card], dealt: Iterable[Card] = ()) -> tuple[Card, ...]:
    """The cards of `cards` (a deck) not in `dealt`, in the deck's order.

    Raises:
        DeckError: a dealt card that is not in the deck.
    """
    gone = set(dealt)
    stray = sorted(gone.difference(cards))
    if stray:
        raise DeckError(
            f"dealt cards not in the deck: {' '.join(map(str, stray))}; "
            "expected cards of the deck only"
        )
    return tuple(c for c in cards if c not in gone)


def deal_outcomes(
    cards: Sequence[Card], dealt: Iterable[Card] = ()
) -> tuple[tuple[Card, float], ...]:
    """The chance outcomes of dealing the next card: `(card, probability)` per undealt card.

    Every card of `cards` (a deck) not in `dealt` is equally likely, listed in the deck's
    order, so a game's `State.chance_outcomes()` can deal one card per chance step and the
    outcomes are the same on every run.

    Raises:
        DeckError: nothing left to deal, a repeated deck card, or a dealt card not in it.
    """
    if len(set(cards)) != len(cards):
        raise DeckError("cannot deal from a deck with repeated cards; expected distinct cards")
    left = undealt(cards, dealt)
    if not left:
        raise DeckError(f"cannot deal a card: all {len(cards)} cards are dealt")
    p = 1.0 / len(left)
    return tuple((c, p) for c in left)
