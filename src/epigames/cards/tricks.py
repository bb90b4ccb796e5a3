"""Tricks as values, who wins them, and the follow-suit building blocks of trick games.

A `Trick` is its leader's seat and the cards played so far, each with its seat. Who wins
depends on the game: a `RankOrder` says how ranks compare in the trump suit and in the
other suits (`HIGH_CARD`: A high down to 2 everywhere; `KLAVERJAS`: trumps J 9 A 10 K Q 8
7, other suits A 10 K Q J 9 8 7). A trump beats every other card; otherwise the highest
card of the led suit wins, and a card of another suit (a discard) never wins.

The helpers (`must_follow`, `highest_trump_in`, `trumps_above`, `beats`) are what a
game's legality rules are made of, e.g. Klaverjas's obligation to overtrump; the rules
themselves belong to each game. `CardPoints` gives the card points a trick is worth.

Typical use::

    trick = Trick.start(0).play(0, Card.parse("K♥")).play(1, Card.parse("7♠"))
    trick.led_suit                            # Suit.HEARTS
    trick.winner(Suit.SPADES, KLAVERJAS).seat  # 1: the 7♠ trumps the K♥
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from epigames.cards.deck import RANKS, Card, Rank, Suit
from epigames.cards.slots import rebuilt, slot_maker
from epigames.errors import InputError


class TrickError(InputError):
    """A trick, play, rank order or point table that is not well formed."""


def _rank_list(ranks: Iterable[Rank]) -> str:
    return " ".join(r.text for r in ranks)


@dataclass(frozen=True, slots=True)
class RankOrder:
    """How ranks compare in trick play: one order for the trump suit, one for the others.

    Attributes:
        trump: trump ranks, highest first.
        plain: ranks of the other suits, highest first.
    """

    trump: tuple[Rank, ...]
    plain: tuple[Rank, ...]
    # Strength (higher beats lower) by `rank.value - 2` (`card.index % 13`), None for a
    # rank outside the order: looked up for every card of every trick.
    _trump_strength: tuple[int | None, ...] = field(init=False, repr=False, compare=False)
    _plain_strength: tuple[int | None, ...] = field(init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)

    def __post_init__(self) -> None:
        for name in ("trump", "plain"):
            order = tuple(getattr(self, name))
            if not order or not all(isinstance(r, Rank) for r in order):
                raise TrickError(f"bad {name} order {order!r}; expected Rank values, highest first")
            if len(set(order)) != len(order):
                raise TrickError(
                    f"{name} order {_rank_list(order)} repeats a rank; "
                    "expected each rank at most once"
                )
            object.__setattr__(self, name, order)
            strength = {r: len(order) - i for i, r in enumerate(order)}
            by_rank = tuple(strength.get(r) for r in RANKS)
            object.__setattr__(self, f"_{name}_strength", by_rank)

    def strength(self, card: Card, trump: Suit | None) -> int:
        """How high `card` ranks within its suit: larger is higher (1 for the lowest).

        Raises:
            TrickError: the card's rank is not in the order that applies to it.
        """
        is_trump = card.suit is trump
        table = self._trump_strength if is_trump else self._plain_strength
        value = table[card.index % 13]
        if value is None:
            which, order = ("trump", self.trump) if is_trump else ("plain", self.plain)
            raise TrickError(
                f"{card} has no place in the {which} order {_rank_list(order)}; "
                "expected a card of the game's deck"
            )
        return value


#: Highest card wins, aces high, in trumps and other suits alike.
HIGH_CARD = RankOrder(trump=RANKS[::-1], plain=RANKS[::-1])
#: Klaverjas: trumps J 9 A 10 K Q 8 7 (the jack and the nine on top), others A 10 K Q J 9 8 7.
KLAVERJAS = RankOrder(
    trump=(Rank.JACK, Rank.NINE, Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.EIGHT, Rank.SEVEN),
    plain=(Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE, Rank.EIGHT, Rank.SEVEN),
)


class Play(NamedTuple):
    """One card played to a trick, and the seat that played it.

    A named tuple (made in C): one is made for every card of every game.
    """

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"{self.seat}:{self.card}"


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick as a value: the leader's seat and the plays so far, in order.

    `Trick.start(leader)` is the empty trick; `play(seat, card)` returns a new trick with
    one more card. Seats are whatever numbers the game uses; the trick only checks that
    the leader plays first and that no seat or card appears twice.

    Attributes:
        leader: the seat that leads (plays the first card).
        plays: the cards played so far with their seats, in order.
    """

    leader: int
    plays: tuple[Play, ...] = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)

    def __post_init__(self) -> None:
        plays = tuple(self.plays)
        object.__setattr__(self, "plays", plays)
        if any(not isinstance(p, Play) for p in plays):
            raise TrickError(f"bad plays {plays!r}; expected Play(seat, card) values")
        if plays and plays[0].seat != self.leader:
            raise TrickError(
                f"trick led by seat {self.leader} starts with seat {plays[0].seat}'s card; "
                "expected the leader to play first"
            )
        seats = [p.seat for p in plays]
        if len(set(seats)) != len(seats):
            raise TrickError(f"trick {self} has a seat playing twice; expected one card a seat")
        cards = [p.card for p in plays]
        if len(set(cards)) != len(cards):
            raise TrickError(f"trick {self} has a card played twice; expected distinct cards")

    @classmethod
    def start(cls, leader: int) -> Trick:
        """The empty trick that `leader` is to lead."""
        if cls is Trick and type(leader) is int and 0 <= leader < len(_EMPTY):
            return _EMPTY[leader]  # every trick of a game starts here: one value per seat
        return cls(leader)

    def play(self, seat: int, card: Card) -> Trick:
        """This trick with `card` played by `seat` added at the end.

        Raises:
            TrickError: the first card is not the leader's, or the seat or card is in it.
        """
        plays = self.plays
        ok = seat != plays[0].seat if plays else seat == self.leader
        # Equal cards are the same object (see `Card`); others compare as they compare.
        same = type(card) is Card
        for p in plays:
            if p.seat == seat or p.card is card or (not same and p.card == card):
                ok = False
        if not ok:
            return Trick(self.leader, (*plays, Play(seat, card)))  # raises the TrickError
        # This trick was checked when it was made, and the new play is checked above, so
        # the trick is built without `__post_init__` (every card of a game is played so):
        # compiled, by two native stores past the frozen check; else through its slots'
        # own setters.
        played = (*plays, _new_play(Play, (seat, card)))
        if not _NATIVE:
            return _make_trick(self.leader, played)
        made = Trick.__new__(Trick)
        made.leader = self.leader  # type: ignore[misc]
        made.plays = played  # type: ignore[misc]
        return made

    def __str__(self) -> str:
        body = " ".join(map(str, self.plays)) or "no cards"
        return f"trick led by {self.leader}: {body}"

    def __len__(self) -> int:
        return len(self.plays)

    def __iter__(self) -> Iterator[Play]:
        return iter(self.plays)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards played so far, in order."""
        return tuple(map(_card_of, self.plays))

    @property
    def led_suit(self) -> Suit | None:
        """The suit of the first card, or None while the trick is empty."""
        return self.plays[0].card.suit if self.plays else None

    def next_seat(self, players: int) -> int:
        """The seat to play next when seats `0 … players-1` play in turn (leader if empty)."""
        if not self.plays:
            return self.leader
        return (self.plays[-1].seat + 1) % players

    def winner(self, trump: Suit | None, order: RankOrder) -> Play:
        """The play that takes the trick so far (the whole trick once it is complete).

        The highest trump wins, else the highest card of the led suit; cards of other
        suits never win.

        Args:
            trump: the trump suit, or None for a game without trumps.
            order: how ranks compare (`KLAVERJAS`, `HIGH_CARD`, …).

        Raises:
            TrickError: the trick is empty, or a card that counts is not in the order.
        """
        plays = self.plays
        if not plays:
            raise TrickError(f"the empty trick led by seat {self.leader} has no winner yet")
        best = _top(plays, trump, plays[0].card.suit, order)
        assert best is not None  # the first card is of the led suit (or a trump)
        return best


_EMPTY = tuple(Trick(seat) for seat in range(16))
_make_trick = slot_maker(Trick)
_new_play = tuple.__new__  # `Play(seat, card)` without the named tuple's Python `__new__`
_card_of = operator.itemgetter(1)  # `play.card`, read in C
#: Whether this module runs compiled by mypyc (`epigames.native`): then a trick's fields
#: are native attributes that code compiled with them sets directly.
_NATIVE: Final = hasattr(Trick, "__mypyc_attrs__")


def beats(card: Card, other: Card, led: Suit, trump: Suit | None, order: RankOrder) -> bool:
    """Whether `card` beats `other` in a trick of `led` suit, `other` being the better so far.

    A trump beats any non-trump; a card of the led suit beats any card of a third suit;
    within one suit the higher rank in `order` wins. Neither card beats the other when
    both are of suits that cannot win (two discards), so the earlier card stays ahead.

    Raises:
        TrickError: a card compared by rank is not in the order.
    """

    def tier(c: Card) -> int:
        # Trumps outrank the led suit, which outranks discards (tier 0 never wins).
        return 2 if c.suit is trump else 1 if c.suit is led else 0

    mine, theirs = tier(card), tier(other)
    if mine != theirs:
        return mine > theirs
    if mine == 0:
        return False
    return order.strength(card, trump) > order.strength(other, trump)


def must_follow(hand: Iterable[Card], trick: Trick) -> tuple[Card, ...]:
    """The cards of `hand` of the trick's led suit (empty: cannot follow, or nothing led).

    Most trick games require one of these when there are any; what is allowed otherwise
    (trump, overtrump, any card) is each game's rule.
    """
    led = trick.led_suit
    if led is None:
        return ()
    return tuple(c for c in hand if c.suit is led)


def highest_trump_in(trick: Trick, trump: Suit | None, order: RankOrder) -> Play | None:
    """The play of the highest trump in the trick, or None when no trump has been played.

    Raises:
        TrickError: a trump in the trick is not in the trump order.
    """
    return _top(trick.plays, trump, None, order)


def _top(
    plays: tuple[Play, ...], trump: Suit | None, led: Suit | None, order: RankOrder
) -> Play | None:
    """The play that takes `plays` as a trick of `led` suit (None: trumps alone count).

    The highest trump wins, else the highest card of the led suit; cards of other suits
    never win. Strengths are computed as `beats` computes them (the later card first,
    and only between cards of one suit that can win), so the same card raises a
    `TrickError`; this runs for every card of a game.
    """
    best: Play | None = None
    best_tier = 0  # 2 trump, 1 the led suit, 0 a card that cannot win
    best_strength: int | None = None
    for play in plays:
        card = play.card
        suit = card.suit
        tier = 2 if suit is trump else 1 if suit is led else 0
        if tier != best_tier:
            if tier > best_tier:
                best, best_tier, best_strength = play, tier, None
            continue
        if not tier:
            continue
        # `order.strength`, read from the table; a card outside the order raises there.
        table = order._trump_strength if tier == 2 else order._plain_strength
        strength = table[card.index % 13]
        if strength is None:
            strength = order.strength(card, trump)
        if best_strength is None:
            assert best is not None  # a card of this tier came first
            best_strength = table[best.card.index % 13]
            if best_strength is None:
                best_strength = order.strength(best.card, trump)
        if strength > best_strength:
            best, best_strength = play, strength
    return best


def trumps_above(
    hand: Iterable[Card], card: Card | None, trump: Suit | None, order: RankOrder
) -> tuple[Card, ...]:
    """The trumps of `hand` that rank above the trump `card` (every trump when it is None).

    With `card = highest_trump_in(trick, …).card` these are the cards that overtrump.

    Raises:
        TrickError: `card` is not a trump, or a trump is not in the trump order.
    """
    if card is not None and card.suit is not trump:
        raise TrickError(f"{card} is not a trump (trump: {trump}); expected a trump or None")
    mine = [c for c in hand if c.suit is trump]
    if card is None:
        return tuple(mine)
    floor = order.strength(card, trump)
    return tuple(c for c in mine if order.strength(c, trump) > floor)


@dataclass(frozen=True, slots=True)
class CardPoints:
    """Card points by rank, one table for the trump suit and one for the other suits.

    Build it from two mappings (`CardPoints.of(trump={...}, plain={...})`); ranks left
    out are worth 0.

    Attributes:
        trump: (rank, points) pairs of the trump suit, in rank order.
        plain: (rank, points) pairs of the other suits, in rank order.
    """

    trump: tuple[tuple[Rank, int], ...]
    plain: tuple[tuple[Rank, int], ...]
    # Points by `rank.value - 2` (`card.index % 13`).
    _trump: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _plain: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)

    def __post_init__(self) -> None:
        for name in ("trump", "plain"):
            pairs = tuple(sorted(getattr(self, name)))
            table = dict(pairs)
            ok = all(isinstance(r, Rank) and type(v) is int and v >= 0 for r, v in pairs)
            if not ok or len(table) != len(pairs):
                raise TrickError(
                    f"bad {name} points {pairs!r}; expected each Rank once with points >= 0"
                )
            object.__setattr__(self, name, pairs)
            object.__setattr__(self, f"_{name}", tuple(table.get(r, 0) for r in RANKS))

    @classmethod
    def of(cls, trump: Mapping[Rank, int], plain: Mapping[Rank, int]) -> CardPoints:
        """The point tables given as mappings from rank to points."""
        return cls(tuple(trump.items()), tuple(plain.items()))

    def points(self, card: Card, trump: Suit | None) -> int:
        """What `card` is worth with `trump` as the trump suit (None: no trumps)."""
        table = self._trump if card.suit is trump else self._plain
        return table[card.index % 13]

    def trick_points(self, trick: Trick, trump: Suit | None) -> int:
        """The card points of every card in `trick`."""
        return sum(self.points(c, trump) for c in trick.cards)


#: Klaverjas card points: 62 in the trump suit, 30 in each other suit, 152 in all.
KLAVERJAS_POINTS = CardPoints.of(
    trump={Rank.JACK: 20, Rank.NINE: 14, Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3},
    plain={Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2},
)
