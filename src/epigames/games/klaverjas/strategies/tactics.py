"""The 2017 report's card-play tactics, on its own inference (`tactics2017`) or on exact
knowledge with its probabilities (`tactics`).

The tactics look at the seat's place in the trick (1 leads, 4 plays last) and at what
each other player may still hold in a suit, best card first (`may_hold_suit`). With
`high` the legal cards sorted by the 2017 value (`inference2017.value`: points, 0-point
cards by rank), "highest" is `high[0]` and "lowest" `high[-1]`; one legal card is played
at once.

- Seat 1, while trumps are out: (1) holding the highest trump left while an opponent may
  hold a trump, play the highest card; (2) knowing the partner holds the highest trump
  left, with opponents' trumps possible, play the lowest trump; (3) else the highest
  plain card that beats the best card of its suit each opponent may hold (both must be
  able to hold the suit); (4) else the lowest card. Once no trump is left: the highest
  card that beats whatever the opponents may hold in its suit (or that nobody can
  follow), else the lowest.
- Seat 2 looks at the next opponent: if it cannot follow but may trump, play low; if my
  highest beats the led card and the best card the opponent may hold, play it, unless
  the partner may hold a higher one; else play low. Trumping is always with the lowest.
- Seat 3 does the same against the last player, and does not go over the partner's lead.
- Seat 4 plays its highest card when the opponents win the trick and that card, of the
  winning card's suit, beats it; else its lowest.

Comparisons are by value, as the 2017 program compared them. `tactics` plays these
rules on exact knowledge and adds what its probabilities decide (`KnowingPosition`): it
gives points to a trick its partner wins (seat 4) or very likely wins (seat 3), and
without a sure lead it leads to the suit its partner most likely trumps. The trump choice (when a
seat chooses) names the suit with the best hand score: per card of the suit its trump
points plus 5, plus 6 per ace of another suit; in bidding it names a suit only with a
score of at least 50 (say J and 9 with two more trumps), else passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb
from typing import ClassVar, Final, NamedTuple, Protocol, cast

from mypy_extensions import mypyc_attr

from epigames.cards import Card, CardKnowledge, CardLayout, Holds, Suit, Trick
from epigames.cards.deck import CARDS
from epigames.cards.public import iter_bits
from epigames.cards.slots import slot_maker
from epigames.cards.tricks import KLAVERJAS
from epigames.games.core import View
from epigames.games.events import Fact
from epigames.games.klaverjas.actions import Bid
from epigames.games.klaverjas.inference2017 import Seed2017Inference, value
from epigames.games.klaverjas.knowledge import layout_for, suit_pieces
from epigames.games.klaverjas.play import (
    CARD_VALUES,
    PLAYERS,
    SUIT_MASKS,
    card_points,
    cards_of,
    deck_mask,
    team_of,
)
from epigames.games.klaverjas.views import KlaverjasView
from epigames.games.strategy import Decision, Strategy, Thought, register_strategy

#: A bid needs at least this hand score (see `hand_score`).
BID_THRESHOLD: Final = 50


class Beliefs(Protocol):
    """What the tactics ask about the other players' hands."""

    def may_hold(self, player: int, card: Card) -> bool:
        """Whether `player` may hold the unplayed `card`."""
        ...

    def knows_holds(self, player: int, card: Card) -> bool:
        """Whether `player` surely holds the unplayed `card`."""
        ...


# (cards per class of possible holders, per player the cards left to place) → deals.
_DEALS: Final[dict[tuple[int, ...], int]] = {}


def deals_count(masks: Sequence[int], counts: Sequence[int]) -> int:
    """The deals of the cards of three players' masks: each card to a player whose mask
    holds it, each player exactly its count.

    With no fact tying cards together (Klaverjas's facts are all "lacks"), these are the
    consistent deals when the masks are the players' possible cards: a card's possible
    holders are its allowed ones less those no consistent deal uses. The cards fall into
    seven classes by which masks hold them; the deals are counted over how many cards of
    each two-player class go to each of its players, the rest by a multinomial.
    """
    a, b, c = masks
    only_a, only_b, only_c = a & ~b & ~c, b & ~a & ~c, c & ~a & ~b
    key = (
        (a & b & ~c).bit_count(),
        (a & c & ~b).bit_count(),
        (b & c & ~a).bit_count(),
        (a & b & c).bit_count(),
        counts[0] - only_a.bit_count(),
        counts[1] - only_b.bit_count(),
        counts[2] - only_c.bit_count(),
    )
    got = _DEALS.get(key)
    if got is None:
        got = _DEALS[key] = _deals_of_classes(*key)
    return got


def _deals_of_classes(ab: int, ac: int, bc: int, abc: int, ca: int, cb: int, cc: int) -> int:
    if min(ca, cb, cc) < 0 or ca + cb + cc != ab + ac + bc + abc:
        return 0
    total = 0
    for x_ab in range(ab + 1):
        for x_ac in range(ac + 1):
            ra = ca - x_ab - x_ac
            if ra < 0:
                break
            for x_bc in range(bc + 1):
                rb = cb - (ab - x_ab) - x_bc
                rc = cc - (ac - x_ac) - (bc - x_bc)
                if rb < 0:
                    break
                if rc < 0:
                    continue
                total += (
                    comb(ab, x_ab)
                    * comb(ac, x_ac)
                    * comb(bc, x_bc)
                    * comb(abc, ra)
                    * comb(abc - ra, rb)
                )
    return total


class Chances(Beliefs, Protocol):
    """`Beliefs` that also count deals, for probabilities (`KnowingPosition` asks them)."""

    def may_hold_mask(self, player: int) -> int:
        """The cards `player` may hold, as a bitmask over `Card.index`."""
        ...

    def deals(self) -> int:
        """The number of deals of the cards the seat has not seen that it considers."""
        ...

    def deals_without(self, player: int, cards: int) -> int:
        """How many of those deals give `player` none of `cards` (a `Card.index` mask)."""
        ...


class DealCounts:
    """The deals of three players' hands: each card to a player whose mask holds it, each
    player its hand size; counted whole or with one player's mask cut (`without`).

    Attributes:
        players: the three players.
        masks: per player, the cards it may hold (`Card.index` bits).
        sizes: per player, its number of cards.
        total: the number of deals.
    """

    __slots__ = ("masks", "players", "sizes", "total")

    def __init__(
        self, players: tuple[int, ...], masks: Sequence[int], sizes: Sequence[int]
    ) -> None:
        self.players = players
        self.masks = tuple(masks)
        self.sizes = tuple(sizes)
        self.total = deals_count(self.masks, self.sizes)

    def without(self, player: int, cards: int) -> int:
        """The deals in which `player` (one of `players`) holds none of `cards`."""
        masks = self.masks
        i = self.players.index(player)
        mine = masks[i] & cards
        if not mine:
            return self.total
        if mine & ~(masks[i - 1] | masks[i - 2]):
            return 0  # a card of them no one else can hold
        left = list(masks)
        left[i] &= ~cards
        return deals_count(left, self.sizes)


_Pieces = tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
# id(layout) → the layout and, for the layouts of `layout_for`, its ranks, their mask and
# per suit the table of `suit_pieces`: asked on every decision that reads the knowledge.
_PIECES: Final[dict[int, tuple[CardLayout, _Pieces]]] = {}


def _pieces_of(layout: CardLayout) -> _Pieces | None:
    got = _PIECES.get(id(layout))
    if got is not None and got[0] is layout:
        return got[1]
    ranks = layout.n_cards // 4
    if layout is not layout_for(ranks):
        return None  # another layout: `may_hold_mask` maps its cards one by one
    a, b, c, d = suit_pieces(ranks)
    pieces = (ranks, (1 << ranks) - 1, a, b, c, d)
    _PIECES[id(layout)] = (layout, pieces)  # cached by `layout_for`: its id stays its own
    return pieces


class ExactBeliefs:
    """`Beliefs` from the card engine's exact knowledge of a seat (`view.knowledge`).

    Built from the knowledge itself or from the view, which answers on the first
    question (`KlaverjasView.possible_cards`, from the public fold when it can): a
    decision the tactics take without asking costs nothing.
    """

    __slots__ = (
        "_counts",
        "_deals",
        "_knowledge",
        "_layout",
        "_masks",
        "_pieces",
        "_players",
        "_seat",
        "_view",
    )

    def __init__(self, knowledge: CardKnowledge | KlaverjasView) -> None:
        self._knowledge: CardKnowledge | None = None
        self._view: KlaverjasView | None = None
        if isinstance(knowledge, KlaverjasView):
            self._view = knowledge
        else:
            self._knowledge = knowledge
        # The seat, its layout, and per holder the possible cards (layout bits) and the
        # number of cards (public): set on the first question (`_possible`).
        self._seat = -1
        self._layout: CardLayout | None = None
        self._masks: tuple[int, ...] = ()
        self._counts: tuple[int, ...] = ()
        # The deck's ranks, their mask, and per suit the table of `suit_pieces`.
        self._pieces: _Pieces | None = None
        self._players: list[int | None] = [None] * PLAYERS
        # The other seats, their possible cards (`Card.index` masks), their hand sizes
        # and the number of consistent deals: made on the first probability asked.
        self._deals: DealCounts | None = None

    def _possible(self) -> tuple[int, ...]:
        # Per holder, the cards (layout indices) some consistent deal puts there.
        if not self._masks:
            knowledge, view = self._knowledge, self._view
            if view is not None:
                self._seat, layout = view.seat, layout_for(view.game.ranks)
                self._masks, self._counts = view.possible_cards()
            else:
                assert knowledge is not None
                agent = knowledge.agent
                self._seat, layout = -1 if agent is None else agent, knowledge.layout
                self._masks, self._counts = knowledge.possible_masks(), knowledge.public.counts
            self._layout = layout
            self._pieces = _pieces_of(layout)
        return self._masks

    def may_hold_mask(self, player: int) -> int:
        """The cards some consistent deal gives `player`, as a bitmask over `Card.index`."""
        got = self._players[player]
        if got is None:
            mask = self._possible()[player]
            if self._pieces is not None:
                ranks, full, a, b, c, d = self._pieces
                got = (
                    a[mask & full]
                    | b[mask >> ranks & full]
                    | c[mask >> 2 * ranks & full]
                    | d[mask >> 3 * ranks]
                )
            else:
                assert self._layout is not None
                cards = self._layout.cards
                got = 0
                for i in iter_bits(mask):
                    card = cards[i]
                    assert isinstance(card, Card)
                    got |= 1 << card.index
            self._players[player] = got
        return got

    def may_hold(self, player: int, card: Card) -> bool:
        """Whether some consistent deal gives `card` to `player`."""
        return bool(self.may_hold_mask(player) >> card.index & 1)

    def knows_holds(self, player: int, card: Card) -> bool:
        """Whether every consistent deal gives `card` to `player`."""
        masks = self._possible()
        assert self._layout is not None
        c = self._layout.card_index(card)
        return all((mask >> c & 1) == (h == player) for h, mask in enumerate(masks))

    def deals(self) -> int:
        """The number of consistent deals of the cards the seat does not hold or see."""
        return self._deal_counts().total

    def deals_without(self, player: int, cards: int) -> int:
        """The consistent deals in which `player` holds none of `cards` (a `Card.index` mask).

        Over `deals()`, the exact probability of that, the consistent deals equally likely
        (as `CardKnowledge.probability`); the seat's own hand is certain.
        """
        counts = self._deal_counts()
        if player in counts.players:
            return counts.without(player, cards)
        return 0 if self.may_hold_mask(player) & cards else counts.total

    def _deal_counts(self) -> DealCounts:
        got = self._deals
        if got is None:
            self._possible()
            seat = self._seat
            assert seat >= 0, "deals are counted for a seat's knowledge"
            others = tuple(p for p in range(PLAYERS) if p != seat)
            masks = [self.may_hold_mask(p) for p in others]
            sizes = [self._counts[p] for p in others]
            got = self._deals = DealCounts(others, masks, sizes)
        return got


class Choice(NamedTuple):
    """A card with the reason for it: a sentence and what was concluded.

    A named tuple (made in C), like `Decision`: one is made per decision.
    """

    card: Card
    #: The reason, a `str.format` template over `args`, put into words when read.
    template: str
    concluded: tuple[Fact, ...] = ()
    args: tuple[object, ...] = ()

    @property
    def text(self) -> str:
        """The reason in words, as the decision's thought says it."""
        return Thought(self.template, args=self.args).text


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


#: Per trump, card → the 2017 value, for the cards of the Klaverjas deck (a C-level key).
_VALUE_OF: Final[dict[Suit, dict[Card, int]]] = {
    trump: {c: v for c, v in zip(CARDS, values, strict=True) if v is not None}
    for trump, values in CARD_VALUES.items()
}
# (trump, cards of one suit as a `Card.index` mask) → those cards, best first: every
# subset of a suit's Klaverjas cards, filled a suit at a time (256 each).
_BY_VALUE: Final[dict[tuple[Suit, int], tuple[Card, ...]]] = {}


def by_value(trump: Suit, mask: int) -> tuple[Card, ...]:
    """The cards of `mask` (bits by `Card.index`, one suit), best first by the 2017 value.

    A suit's cards have distinct values, so this is the order any stable sort by value
    gives them.
    """
    got = _BY_VALUE.get((trump, mask))
    if got is None:
        got = _fill_by_value(trump, mask)
    return got


def _fill_by_value(trump: Suit, mask: int) -> tuple[Card, ...]:
    cards = cards_of(mask)
    if cards:
        values = _VALUE_OF[trump]
        suit = [c for c in CARDS if c.suit is cards[0].suit and c in values]
        subsets: dict[int, tuple[Card, ...]] = {0: ()}
        # Best first: each card joins the subsets of the better ones at their end.
        for card in sorted(suit, key=values.__getitem__, reverse=True):
            bit = 1 << card.index
            for cards_mask, best_first in list(subsets.items()):
                subsets[cards_mask | bit] = (*best_first, card)
        for cards_mask, best_first in subsets.items():
            _BY_VALUE[trump, cards_mask] = best_first
    got = _BY_VALUE.get((trump, mask))
    if got is None:  # not the cards of one suit of the deck: sort them (or raise)
        got = tuple(sorted(cards, key=lambda c: value(c, trump), reverse=True))
    return got


_ONLY: Final = "I play {}: it is my only legal card."


class Position:
    """One decision as the tactics see it: the seat, the trick, trump and the beliefs."""

    def __init__(
        self,
        seat: int,
        legal: Sequence[Card],
        hand: Sequence[Card],
        trick: Trick,
        trump: Suit,
        unplayed: Sequence[Card] | int,
        beliefs: Beliefs,
    ) -> None:
        self.seat = seat
        self.legal = tuple(legal)
        self.hand = tuple(hand)
        self.trick = trick
        self.trump = trump
        self.beliefs = beliefs
        self._values = CARD_VALUES[trump]
        try:
            self.high = sorted(self.legal, key=_VALUE_OF[trump].__getitem__, reverse=True)
        except KeyError:
            self.high = sorted(self.legal, key=self.value, reverse=True)  # raises TrickError
        if isinstance(unplayed, int):
            self._unplayed_mask = unplayed
        else:
            mask = 0
            for c in unplayed:
                mask |= 1 << c.index
            self._unplayed_mask = mask

    @property
    def unplayed(self) -> tuple[Card, ...]:
        """The cards not played yet in this deal, in deck order."""
        return cards_of(self._unplayed_mask)

    def value(self, card: Card) -> int:
        """The 2017 value of a card under this trump."""
        got = self._values[card.index]
        return value(card, self.trump) if got is None else got

    def unplayed_of(self, suit: Suit) -> Sequence[Card]:
        """The unplayed cards of `suit`, best first."""
        return by_value(self.trump, self._unplayed_mask & SUIT_MASKS[suit])

    def may_hold_suit(self, player: int, suit: Suit) -> Sequence[Card]:
        """The unplayed cards of `suit` that `player` may hold, best first (`KM_suit`)."""
        beliefs = self.beliefs
        if type(beliefs) is ExactBeliefs:
            held = beliefs._players[player]  # asked before: no call
            if held is None:
                held = beliefs.may_hold_mask(player)
            return by_value(self.trump, self._unplayed_mask & SUIT_MASKS[suit] & held)
        return [c for c in self.unplayed_of(suit) if beliefs.may_hold(player, c)]

    def beats(self, card: Card, other: Card) -> bool:
        """`card` has the higher 2017 value."""
        values = self._values
        mine, theirs = values[card.index], values[other.index]
        if mine is None or theirs is None:
            return self.value(card) > self.value(other)  # raises TrickError
        return mine > theirs

    # -- the choice --------------------------------------------------------------------

    def choose(self) -> Choice:
        """The card the tactics play here."""
        if len(self.legal) == 1:
            card = self.legal[0]
            return Choice(card, _ONLY, (), (card,))
        place = len(self.trick.plays)
        if place == 0:
            return self.lead()
        if place == 1:
            return self.second()
        if place == 2:
            return self.third()
        return self.fourth()

    def lowest(self, why: str, *args: object) -> Choice:
        card = self.high[-1]
        said = "I play my lowest card {}: " + why + "."
        return Choice(card, said, (), (card, *args))

    def highest(self, why: str, *args: object) -> Choice:
        card = self.high[0]
        said = "I play my highest card {}: " + why + "."
        return Choice(card, said, (), (card, *args))

    def lead(self) -> Choice:
        trump, seat = self.trump, self.seat
        opponents = ((seat + 1) % PLAYERS, (seat + 3) % PLAYERS)
        partner = (seat + 2) % PLAYERS
        trumps_left = self.unplayed_of(trump)
        if trumps_left:
            top = trumps_left[0]
            theirs = [c for p in opponents for c in self.may_hold_suit(p, trump)]
            mine = [c for c in self.high if c.suit is trump]
            if mine and mine[0] is top and theirs:
                card = self.high[0]
                said = (
                    "I lead {}: I hold the highest trump left ({}) and an opponent "
                    "may still hold trumps."
                )
                return Choice(card, said, (), (card, top))
            if mine and theirs and self.beliefs.knows_holds(partner, top):
                card = mine[-1]
                said = (
                    "I lead my lowest trump {}: my partner holds {}, the highest trump left, "
                    "and an opponent may still hold trumps."
                )
                return Choice(card, said, (Holds(partner, top),), (card, top))
            for card in self.high:
                if card.suit is trump:
                    continue
                a = self.may_hold_suit(opponents[0], card.suit)
                b = self.may_hold_suit(opponents[1], card.suit)
                if a and b and self.beats(card, a[0]) and self.beats(card, b[0]):
                    said = "I lead {}: both opponents may still hold {} but none beats it."
                    return Choice(card, said, (), (card, card.suit))
            return self.no_sure_lead()
        for card in self.high:
            a = self.may_hold_suit(opponents[0], card.suit)
            b = self.may_hold_suit(opponents[1], card.suit)
            if a and b:
                ok = self.beats(card, a[0]) and self.beats(card, b[0])
                why = "both opponents may still hold {} but none beats it"
            elif a or b:
                ok = self.beats(card, (a or b)[0])
                why = "only one opponent may still hold {} and it cannot beat it"
            else:
                ok = True
                why = "no opponent can hold {} and no trump is left"
            if ok:
                return Choice(card, "I lead {}: " + why + ".", (), (card, card.suit))
        return self.lowest("no card of mine is sure to win the lead")

    def no_sure_lead(self) -> Choice:
        """Seat 1 while trumps are out, with no card sure to win: the lowest card."""
        return self.lowest("no card of mine is sure to win the lead")

    def _follow(self, opponent: int, other: Card, *, second: bool) -> Choice:
        """Seats 2 and 3: `other` is the card to beat (the led card, or card 2 for seat 3)."""
        trump, trick = self.trump, self.trick
        led_card = trick.plays[0].card
        led = led_card.suit
        best = self.high[0]
        # The two cases that need no knowledge come first: it is made on the first question.
        if led is trump and best.suit is not trump:
            return self.lowest("I hold no trump")
        if led is not trump and best.suit is trump:
            return self.lowest("I must trump, so I trump as low as I can")
        after = self.may_hold_suit(opponent, led)
        if led is trump:
            if not after:
                return self.lowest("the next player holds no trump, so I save my high trumps")
            if not self.beats(best, after[0]):
                return self.lowest("the next player may hold {}", after[0])
            if second and self.beats(best, led_card):
                return self.highest("it beats the lead and {}", after[0])
            if not second:
                card2 = trick.plays[1].card
                if card2.suit is trump and self.beats(best, card2):
                    return self.highest("it beats {} and {}", card2, after[0])
            return self.lowest("I cannot take the trick for sure")
        if not after:
            if self.may_hold_suit(opponent, trump):
                return self.lowest("the next player holds no {} but may trump", led)
            if self.beats(best, other):
                return self.highest(
                    "it beats {} and the next player can neither follow nor trump", other
                )
            return self.lowest("I cannot beat {}", other)
        if second:
            if self.beats(best, led_card) and self.beats(best, after[0]):
                partner = self.may_hold_suit((self.seat + 2) % PLAYERS, led)
                if partner and self.beats(partner[0], best):
                    return self.lowest("my partner may hold {}, higher than mine", partner[0])
                return self.highest("it beats the lead and {}", after[0])
            return self.lowest("I cannot beat both the lead and {}", after[0])
        partner_card = led_card
        if best.suit is led and self.beats(best, other) and self.beats(best, after[0]):
            if self.beats(partner_card, best):
                return self.lowest("my partner's {} is higher", partner_card)
            return self.highest("it beats {} and {}", other, after[0])
        return self.lowest("I cannot beat both {} and {}", other, after[0])

    def second(self) -> Choice:
        return self._follow((self.seat + 1) % PLAYERS, self.trick.plays[0].card, second=True)

    def third(self) -> Choice:
        return self._follow((self.seat + 1) % PLAYERS, self.trick.plays[1].card, second=False)

    def fourth(self) -> Choice:
        winning = self.trick.winner(self.trump, KLAVERJAS)
        best = self.high[0]
        if team_of(winning.seat) != team_of(self.seat):
            if best.suit is winning.card.suit and self.beats(best, winning.card):
                return self.highest("it takes the trick from {}", winning.card)
            return self.lowest("I cannot beat {} with the suit", winning.card)
        return self.lowest("my partner wins the trick")


class KnowingPosition(Position):
    """The tactics with three questions the exact knowledge answers with a probability.

    Where the 2017 tactics ask only what a player may hold, `tactics` also asks the
    card engine how likely it is (`Chances`: `ExactBeliefs` counts the consistent deals,
    so the probabilities are exact):

    - seat 3, its partner winning the trick: the probability that the last player beats
      the winning card (a higher card of its suit, or no card of the suit led and a trump
      that beats it); at most `GIVE_RISK` and it gives the trick points (`give`);
    - seat 4, its partner winning the trick (certain): it gives the trick points;
    - seat 1 with no card sure to win while trumps are out: per suit of its hand, the
      probability that the partner holds none of the suit but a trump; at least
      `RUFF_CHANCE` and it leads its lowest card of the likeliest suit.

    Everything else is `Position`: the report's tactics on exact knowledge.
    """

    #: Seat 3 gives points when the last player beats the partner with at most this chance.
    GIVE_RISK: ClassVar[Fraction] = Fraction(1, 2)
    #: Seat 1 leads to the partner's likely trump at this probability or more.
    RUFF_CHANCE: ClassVar[Fraction] = Fraction(1, 10)

    @property
    def chances(self) -> Chances:
        """The beliefs, which here also count deals (`Tactics` gives `ExactBeliefs`).

        A compiled class keeps the type of an attribute it inherits, so `beliefs` is not
        narrowed here."""
        return cast("Chances", self.beliefs)

    def _suit_mask(self, suit: Suit) -> int:
        return self._unplayed_mask & SUIT_MASKS[suit]

    def deals_beaten(self, winning: Card, player: int) -> int:
        """The consistent deals in which `player`, to play next, can beat `winning`, the
        trick's best card (out of `deals()`)."""
        exact, trump = self.chances, self.trump
        led = self.trick.plays[0].card.suit
        above = 0
        for card in self.unplayed_of(winning.suit):
            if not self.beats(card, winning):
                break  # best first: the rest are lower
            above |= 1 << card.index
        may = exact.may_hold_mask(player)
        trumps = self._suit_mask(trump)
        if not may & above and (led is trump or winning.suit is not led or not may & trumps):
            return 0  # no deal to count: the player holds nothing that beats it
        if winning.suit is not led:  # trumped: only a player void in the suit led overtrumps
            return self._void_with(player, led, above)
        higher = exact.deals() - exact.deals_without(player, above)
        if led is trump:
            return higher
        return self._void_with(player, led, trumps) + higher

    def _void_with(self, player: int, suit: Suit, cards: int) -> int:
        # The deals in which `player` holds no card of `suit` but one of `cards`.
        exact = self.chances
        suit_mask = self._suit_mask(suit)
        return exact.deals_without(player, suit_mask) - exact.deals_without(
            player, suit_mask | cards
        )

    def give(self, why: str, *args: object) -> Choice:
        """Points to a trick my team takes: my highest card not a trump and not the best of
        its suit left (that one may win a trick of its own), else my lowest card."""
        for card in self.high:
            if card.suit is not self.trump and card is not self.unplayed_of(card.suit)[0]:
                said = "I give {} to my partner's trick: " + why + "."
                return Choice(card, said, (), (card, *args))
        return self.lowest(why, *args)

    def third(self) -> Choice:
        winning = self.trick.winner(self.trump, KLAVERJAS)
        if winning.seat == (self.seat + 2) % PLAYERS:
            beaten = self.deals_beaten(winning.card, (self.seat + 1) % PLAYERS)
            if not beaten:
                return self.give("the last player cannot beat {}", winning.card)
            deals, risk = self.chances.deals(), self.GIVE_RISK
            if beaten * risk.denominator <= risk.numerator * deals:
                chance = Fraction(beaten, deals)
                return self.give(
                    "the last player beats {} with probability {}", winning.card, chance
                )
        return super().third()

    def fourth(self) -> Choice:
        winning = self.trick.winner(self.trump, KLAVERJAS)
        if team_of(winning.seat) == team_of(self.seat):
            return self.give("my partner's {} takes it", winning.card)
        return super().fourth()

    def no_sure_lead(self) -> Choice:
        partner = (self.seat + 2) % PLAYERS
        trumps = self._suit_mask(self.trump)
        if not self.chances.may_hold_mask(partner) & trumps:
            return super().no_sure_lead()  # the partner cannot trump anything
        seen: set[Suit] = set()
        best: tuple[int, Card] | None = None
        for card in reversed(self.high):  # lowest first: a suit is led with its lowest card
            suit = card.suit
            if suit is self.trump or suit in seen:
                continue
            seen.add(suit)
            ruffs = self._void_with(partner, suit, trumps)
            if best is None or ruffs > best[0]:
                best = (ruffs, card)
        deals, least = self.chances.deals(), self.RUFF_CHANCE
        if best is not None and best[0] * least.denominator >= least.numerator * deals:
            ruffs, card = best
            said = "I lead {}: my partner holds no {} but a trump with probability {}."
            return Choice(card, said, (), (card, card.suit, Fraction(ruffs, deals)))
        return super().no_sure_lead()


def hand_score(hand: Sequence[Card], suit: Suit) -> int:
    """How good `suit` is as trump for `hand`: trump points + 5 per trump, 6 per plain ace."""
    score = 0
    for card in hand:
        if card.suit is suit:
            score += card_points((card,), suit) + 5
        elif card.rank.name == "ACE":
            score += 6
    return score


def choose_trump(hand: Sequence[Card], legal: Sequence[Bid]) -> Decision:
    """The trump policy: name the best suit by `hand_score`; in bidding pass below 50."""
    suits = [b for b in legal if b.suit is not None]
    scored = [(hand_score(hand, b.suit), -i, b) for i, b in enumerate(suits) if b.suit]
    score, _, best = max(scored)
    can_pass = any(b.suit is None for b in legal)
    if can_pass and score < BID_THRESHOLD:
        pass_bid = next(b for b in legal if b.suit is None)
        return Decision(
            pass_bid, Thought(f"I pass: my best suit scores {score}, below {BID_THRESHOLD}.")
        )
    assert best.suit is not None
    return Decision(
        best, Thought(f"I choose {best.suit} as trump: my hand scores {score} with it.")
    )


_Cards = tuple[Card, ...]
# One `Thought` and `Decision` per card played: made through the slots and in C.
_thought: Final = slot_maker(Thought)
_decision: Final = tuple.__new__


# Registered strategies subclass it in plain Python (their registry's decorator), which a
# compiled class must leave to plain Python too.
@mypyc_attr(native_class=False)
class TacticsPlayer(Strategy):
    """The 2017 tactics on some beliefs (`beliefs` decides which)."""

    def beliefs(self, view: KlaverjasView) -> Beliefs:
        """What the seat believes about the others' hands."""
        raise NotImplementedError

    def position(self, view: KlaverjasView) -> Position:
        """The decision as the tactics see it (it is the seat's turn to play a card)."""
        table = view.table
        trick, trump = table.trick, table.trump
        assert trick is not None and trump is not None
        unplayed = deck_mask(view.game.ranks) & ~table.played_mask
        # Trump is chosen, so the legal actions are cards.
        legal: _Cards = view.legal_actions  # type: ignore[assignment]
        return self.make_position(view, legal, trick, trump, unplayed)

    def make_position(
        self, view: KlaverjasView, legal: _Cards, trick: Trick, trump: Suit, unplayed: int
    ) -> Position:
        """The `Position` of this player's tactics."""
        return Position(view.seat, legal, view.hand, trick, trump, unplayed, self.beliefs(view))

    def choose(self, view: View) -> Decision:
        """A card by the tactics, or a trump call by `choose_trump`."""
        assert isinstance(view, KlaverjasView)
        legal = view.legal_actions
        if view.trump is None:
            return choose_trump(view.hand, [b for b in legal if isinstance(b, Bid)])
        if len(legal) == 1:
            card = legal[0]  # what `Position.choose` says, without building the position
            assert isinstance(card, Card)
            return _decision(Decision, (card, _thought(_ONLY, (), (card,))))
        choice = self.position(view).choose()
        return _decision(
            Decision, (choice.card, _thought(choice.template, choice.concluded, choice.args))
        )


@register_strategy(
    "klaverjas",
    "tactics2017",
    about="The 2017 program's card-play tactics, on its own reading of who may hold which card.",
)
class Tactics2017(TacticsPlayer):
    """The 2017 tactics on the 2017 program's own inference (`Seed2017Inference`)."""

    def beliefs(self, view: KlaverjasView) -> Beliefs:
        """The 2017 inference, replayed from the seat's log."""
        return Seed2017Inference.from_view(view)


@register_strategy(
    "klaverjas",
    "tactics",
    about="The 2017 tactics on exact knowledge of who may hold each card, with its "
    "probabilities where they decide better.",
)
class Tactics(TacticsPlayer):
    """The 2017 tactics on the card engine's exact knowledge, with its probabilities
    where they decide better (`KnowingPosition`)."""

    def beliefs(self, view: KlaverjasView) -> ExactBeliefs:
        """The seat's exact knowledge (made when the tactics first ask)."""
        return ExactBeliefs(view)

    def make_position(
        self, view: KlaverjasView, legal: _Cards, trick: Trick, trump: Suit, unplayed: int
    ) -> Position:
        """A `KnowingPosition` on the seat's exact knowledge."""
        return KnowingPosition(
            view.seat, legal, view.hand, trick, trump, unplayed, self.beliefs(view)
        )


__all__ = [
    "BID_THRESHOLD",
    "Beliefs",
    "Chances",
    "Choice",
    "DealCounts",
    "ExactBeliefs",
    "KnowingPosition",
    "Position",
    "Tactics",
    "Tactics2017",
    "TacticsPlayer",
    "choose_trump",
    "deals_count",
    "hand_score",
]
