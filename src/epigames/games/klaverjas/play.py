"""Klaverjas card play as pure functions: the deck, which cards are legal, what a play
tells about the player's hand, roem, and the score of a deal.

Both the state (`rules.py`) and the seat views (`views.py`) use these, so neither has to
import the other. Cards are `epigames.cards.Card` values; a trick is an
`epigames.cards.Trick` whose seats are 0..3 (North, East, South, West, clockwise).

Legality (`legal_cards`) is written as the rules read, step by step. What a play tells
(`inference`) is written separately, as the sets of cards a player who made that play
cannot hold; the tests check that the two agree on every hand.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from epigames.cards import KLAVERJAS, Card, Rank, Suit, Trick
from epigames.cards.deck import CARDS, SUITS
from epigames.cards.tricks import KLAVERJAS_POINTS, highest_trump_in, trumps_above

#: Seats in playing order (clockwise); partners sit opposite.
SEAT_NAMES: Final = ("North", "East", "South", "West")
#: The two teams as seat tuples: North–South and East–West.
TEAMS: Final = ((0, 2), (1, 3))
TEAM_NAMES: Final = ("North–South", "East–West")
PLAYERS: Final = 4
#: Rule sets and undertrump modes (see `legal_cards`).
RULES: Final = ("amsterdam", "rotterdam")
UNDERTRUMP: Final = ("forbid", "force", "free")

# The trump order decides which ranks a reduced deck keeps: its top `ranks` ranks, so the
# jack and the nine stay the two highest trumps in every deck.
_BY_TRUMP_ORDER: Final = KLAVERJAS.trump


@functools.cache
def deck_ranks(ranks: int) -> tuple[Rank, ...]:
    """The ranks of a deck of `ranks`: the top of the trump order J 9 A 10 K Q 8 7."""
    return tuple(sorted(_BY_TRUMP_ORDER[:ranks]))


@functools.cache
def klaverjas_deck(ranks: int) -> tuple[Card, ...]:
    """Every card of the deck in sorted (suit, rank) order: 8 ranks = the 32-card deck.

    Cached: states, views and strategies ask for it on every move.
    """
    kept = sorted(deck_ranks(ranks))
    return tuple(CARDS[13 * s.value + r.value - 2] for s in SUITS for r in kept)


@functools.cache
def deck_mask(ranks: int) -> int:
    """The deck's cards as a bitmask over `Card.index` (in order: `cards_of` lists them)."""
    return sum(1 << c.index for c in klaverjas_deck(ranks))


def team_of(seat: int) -> int:
    """The team index (0 North–South, 1 East–West) of a seat."""
    return seat % 2


def strength(card: Card, trump: Suit) -> int:
    """How high a card ranks in its suit (trumps in the trump order)."""
    return KLAVERJAS.strength(card, trump)


def _card_values(trump: Suit) -> tuple[int | None, ...]:
    values: list[int | None] = [None] * len(CARDS)
    for card in CARDS:
        if card.rank in _BY_TRUMP_ORDER:
            points = KLAVERJAS_POINTS.points(card, trump)
            values[card.index] = 1000 * points + KLAVERJAS.strength(card, trump)
    return tuple(values)


#: Per trump, per `Card.index`, the card's points (0 for ranks outside the deck, as
#: `KLAVERJAS_POINTS` has them).
CARD_POINTS: Final[dict[Suit, tuple[int, ...]]] = {
    suit: tuple(KLAVERJAS_POINTS.points(c, suit) for c in CARDS) for suit in SUITS
}

#: Per trump, per `Card.index`, the 2017 program's value of the card (see
#: `inference2017.value`; None for ranks outside the Klaverjas deck): tables, since the
#: tactics sort and compare cards by it on every decision.
CARD_VALUES: Final[dict[Suit, tuple[int | None, ...]]] = {
    suit: _card_values(suit) for suit in SUITS
}


def partner_winning(trick: Trick, trump: Suit) -> bool:
    """Whether the card winning the trick so far is the next player's partner's."""
    if not trick.plays:
        return False
    seat = trick.next_seat(PLAYERS)
    return trick.winner(trump, KLAVERJAS).seat == (seat + 2) % PLAYERS


def legal_cards(
    hand: Sequence[Card], trick: Trick, trump: Suit, rules: str, undertrump: str
) -> tuple[Card, ...]:
    """The cards of `hand` the next player of `trick` may play, in the hand's order.

    The procedure: lead anything; follow the led suit if able (trump led: go over the
    highest trump in the trick if able, even over the partner); unable to follow a plain
    suit, trump, and overtrump a trump in the trick if able, except under Amsterdam rules
    while the partner wins the trick (then anything goes); unable to overtrump, the
    undertrump mode decides: `forbid` a lower trump unless the hand holds only trumps,
    `force` a lower trump when holding any trump, or leave everything `free`.
    """
    plays = trick.plays
    if not plays:
        return tuple(hand)
    led = plays[0].card.suit
    follow = tuple([c for c in hand if c.suit is led])
    if led is trump:
        if not follow:
            return tuple(hand)
        top = highest_trump_in(trick, trump, KLAVERJAS)
        assert top is not None
        return trumps_above(follow, top.card, trump, KLAVERJAS) or follow
    if follow:
        return follow
    if rules == "amsterdam" and partner_winning(trick, trump):
        return tuple(hand)
    trumps = tuple([c for c in hand if c.suit is trump])
    if not trumps:
        return tuple(hand)
    top = highest_trump_in(trick, trump, KLAVERJAS)
    if top is None:
        return trumps
    over = trumps_above(trumps, top.card, trump, KLAVERJAS)
    if over:
        return over
    if undertrump == "forbid":
        return tuple(c for c in hand if c.suit is not trump) or trumps
    if undertrump == "force":
        return trumps
    return tuple(hand)


def _listed(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def refusal(
    hand: Sequence[Card], trick: Trick, trump: Suit, rules: str, undertrump: str, card: Card
) -> str | None:
    """Why `card` may not be played from `hand` (None when it may), in the player's words."""
    if card not in hand:
        return f"you do not hold {card}"
    legal = legal_cards(hand, trick, trump, rules, undertrump)
    if card in legal:
        return None
    led = trick.led_suit
    assert led is not None
    if card.suit is not led and any(c.suit is led for c in hand):
        return f"you must follow {led}"
    if all(c.suit is trump for c in legal):
        top = highest_trump_in(trick, trump, KLAVERJAS)
        above = top is not None and all(
            strength(c, trump) > strength(top.card, trump) for c in legal
        )
        if above:
            return f"you must overtrump: you hold {_listed(legal)}"
        if top is not None and undertrump == "force":
            return f"you must undertrump: you hold {_listed(legal)}"
        return f"you must trump: you hold {_listed(legal)}"
    return f"you may not undertrump while you hold other cards: {_listed(legal)}"


@dataclass(frozen=True, slots=True)
class Inference:
    """What a legal play tells about the rest of the player's hand at that moment.

    Attributes:
        void: the led suit when the player did not follow it (it holds none).
        no_trump: the player holds no trump.
        above: the player holds no trump above this trump (None: no such claim).
        only_trumps: the player holds nothing but trumps.
    """

    void: Suit | None = None
    no_trump: bool = False
    above: Card | None = None
    only_trumps: bool = False

    def covers(self, card: Card, trump: Suit) -> bool:
        """Whether the player is known not to hold `card`."""
        if card.suit is trump:
            if self.no_trump:
                return True
            return self.above is not None and strength(card, trump) > strength(self.above, trump)
        return self.only_trumps or card.suit is self.void

    def lacked(self, cards: Iterable[Card], trump: Suit) -> tuple[Card, ...]:
        """The cards of `cards` the player cannot hold."""
        return tuple(c for c in cards if self.covers(c, trump))

    def covered_mask(self, trump: Suit) -> int:
        """The cards `covers` says, as a bitmask over `Card.index` (the cards of the deck)."""
        if self is NOTHING:
            return 0
        trumps = SUIT_MASKS[trump]
        if self.no_trump:
            mask = trumps
        elif self.above is not None:
            mask = trumps_above_mask(self.above, trump)
        else:
            mask = 0
        if self.only_trumps:
            mask |= _ALL_CARDS & ~trumps
        elif self.void is not None:
            mask |= SUIT_MASKS[self.void]
        return mask

    def describe(self, trump: Suit) -> str:
        """The claims in words, e.g. `no ♠, no trump above 9♥` (empty: nothing learned)."""
        parts = []
        if self.void is not None:
            parts.append(f"no {self.void}")
        if self.no_trump:
            parts.append(f"no trump ({trump})")
        elif self.above is not None:
            parts.append(f"no trump above {self.above}")
        if self.only_trumps:
            parts.append("only trumps")
        return ", ".join(parts)


NOTHING: Final = Inference()

#: Per suit, the bitmask over `Card.index` of its cards (all 13 ranks).
SUIT_MASKS: Final[dict[Suit, int]] = {suit: 0x1FFF << 13 * suit.value for suit in SUITS}
_ALL_CARDS: Final = (1 << len(CARDS)) - 1


@functools.cache
def trumps_above_mask(card: Card, trump: Suit) -> int:
    """The trumps (of the Klaverjas order) above the trump `card`, as a `Card.index` mask."""
    floor = strength(card, trump)
    mask = 0
    for rank in KLAVERJAS.trump:
        other = CARDS[13 * trump.value + rank.value - 2]
        if strength(other, trump) > floor:
            mask |= 1 << other.index
    return mask


# Per suit, the cards of each 13-bit piece of a `Card.index` mask, filled as they occur
# (a Klaverjas deck has at most 256 subsets of a suit).
_SUIT_CARDS: Final[tuple[dict[int, tuple[Card, ...]], ...]] = tuple({} for _ in SUITS)


def _suit_cards(suit: int, piece: int) -> tuple[Card, ...]:
    got = tuple(CARDS[13 * suit + r] for r in range(13) if piece >> r & 1)
    _SUIT_CARDS[suit][piece] = got
    return got


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask over `Card.index`, in deck order (by index)."""
    if not mask:
        return ()
    out: tuple[Card, ...] = ()
    for suit, known in enumerate(_SUIT_CARDS):
        piece = mask >> 13 * suit & 0x1FFF
        if piece:
            got = known.get(piece)
            out += got if got is not None else _suit_cards(suit, piece)
    return out


@functools.cache
def _told(
    void: Suit | None = None,
    no_trump: bool = False,
    above: Card | None = None,
    only_trumps: bool = False,
) -> Inference:
    """`Inference(...)`, one value per kind of claim (a play makes one when it tells)."""
    return Inference(void, no_trump, above, only_trumps)


def inference(trick: Trick, trump: Suit, rules: str, undertrump: str, card: Card) -> Inference:
    """What playing `card` legally to `trick` (before it) tells about the player's hand.

    Exactly the hands from which the play is legal: a hand holding the card allows it if
    and only if it holds none of the cards the returned `Inference` covers.
    """
    plays = trick.plays
    if not plays:
        return NOTHING
    led = plays[0].card.suit
    if card.suit is led and led is not trump:
        return NOTHING
    top = highest_trump_in(trick, trump, KLAVERJAS)
    if led is trump:
        if card.suit is not trump:
            return _told(void=led, no_trump=True)
        assert top is not None
        if strength(card, trump) > strength(top.card, trump):
            return NOTHING
        return _told(above=top.card)
    if rules == "amsterdam" and partner_winning(trick, trump):
        return _told(void=led)
    if card.suit is trump:
        if top is None or strength(card, trump) > strength(top.card, trump):
            return _told(void=led)
        return _told(void=led, above=top.card, only_trumps=undertrump == "forbid")
    if top is None or undertrump == "force":
        return _told(void=led, no_trump=True)
    return _told(void=led, above=top.card)


def roem(cards: Sequence[Card], trump: Suit, four_kind: bool) -> int:
    """The roem of one complete trick.

    Three cards in sequence of one suit 20, four 50 (sequences in the order 7 8 9 10 J Q
    K A in every suit); king and queen of trump together (stuk) 20 more; with `four_kind`,
    four jacks 200 and four tens, queens, kings or aces 100.
    """
    # Over a bitmask by `Card.index`, where each suit is 13 bits in the natural rank order:
    # a sequence is a run of set bits within a suit's bits.
    mask = 0
    for c in cards:
        mask |= 1 << c.index
    total = 0
    # Most tricks have no sequence: one test over all suits at once (a run's start at most
    # two below a suit's top bit: none reaches into the next suit), then suit by suit.
    if mask & mask >> 1 & mask >> 2 & _RUN_STARTS:
        for suit in range(len(SUITS)):
            piece = mask >> 13 * suit & 0x1FFF
            three = piece & piece >> 1 & piece >> 2
            if three:
                total += 50 if three & piece >> 3 else 20
    stuk = _STUK[trump]
    if mask & stuk == stuk:
        total += 20
    if four_kind and len(cards) == 4:
        a, b, c, d = cards
        rank = a.rank
        if rank is b.rank is c.rank is d.rank:
            total += 200 if rank is Rank.JACK else 100 if rank.value >= Rank.TEN.value else 0
    return total


#: The bits where a sequence of three may start: all but a suit's top two (`roem`).
_RUN_STARTS: Final = sum(0x7FF << 13 * suit for suit in range(len(SUITS)))
#: Per trump, its king and queen (stuk) as a `Card.index` mask.
_STUK: Final = {
    suit: 1 << Card(Rank.KING, suit).index | 1 << Card(Rank.QUEEN, suit).index for suit in SUITS
}


def max_roem(four_kind: bool) -> int:
    """The most roem one trick can bring: four jacks, or four in a row with stuk."""
    return 200 if four_kind else 70


def card_points(cards: Iterable[Card], trump: Suit) -> int:
    """The card points of some cards with `trump` as trumps."""
    points = KLAVERJAS_POINTS.points
    return sum([points(c, trump) for c in cards])


def trick_points(cards: Sequence[Card], trump: Suit) -> int:
    """`card_points` of the cards of a Klaverjas deck, by table (every trick is scored)."""
    points = CARD_POINTS[trump]
    return sum([points[c.index] for c in cards])


def deck_points(ranks: int) -> int:
    """All card points of a deck (152 for 8 ranks), whatever the trump."""
    return card_points(klaverjas_deck(ranks), Suit.SPADES)


@dataclass(frozen=True, slots=True)
class DealScore:
    """How a deal ends for both teams (indexed 0 North–South, 1 East–West).

    Attributes:
        points: card points won, the last trick's 10 included.
        roem: roem won.
        scores: what each team scores for the deal.
        nat: the playing team did not get more than the defenders: it scores nothing, and
            the defenders score every point and all roem.
        pit: the playing team took every trick (100 extra).
    """

    points: tuple[int, int]
    roem: tuple[int, int]
    scores: tuple[int, int]
    nat: bool
    pit: bool


def score_deal(
    points: Sequence[int], roem_won: Sequence[int], tricks: Sequence[int], playing: int
) -> DealScore:
    """The deal's score from each team's points, roem and tricks, `playing` the playing team."""
    defending = 1 - playing
    pts = (points[0], points[1])
    rm = (roem_won[0], roem_won[1])
    scores = [pts[0] + rm[0], pts[1] + rm[1]]
    nat = scores[playing] <= scores[defending]
    pit = tricks[defending] == 0
    if nat:
        scores[defending] = sum(pts) + sum(rm)
        scores[playing] = 0
    elif pit:
        scores[playing] += 100
    return DealScore(pts, rm, (scores[0], scores[1]), nat, pit)
