"""Sevens (Fan Tan, Domino): the template card game, built on `games.table`.

The cards are the ranks around the 7 in each suit (`ranks` of them: 9 is 3 … J), dealt
one at a time clockwise from South until none is left. South moves first, then the turn
goes clockwise. A seat plays a 7, or a card next to one already on the table in its suit;
a seat that cannot play knocks, and everyone learns it holds none of the playable cards.
The first seat out of cards ends the game; every seat scores minus the cards it holds.

The state keeps the truth in one location table, changed only through the facts of the
events it publishes (`TableState`); views, knowledge, pictures, resampling, the public
arrays and `clone` come from the framework.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

from epigames.cards import CardLayout
from epigames.cards.deck import Card, Rank, deck
from epigames.cards.fact_types import Drew, Lacks, Moved
from epigames.cards.layout import DECK, TABLE
from epigames.errors import InputError
from epigames.games import core
from epigames.games.core import CHANCE, TERMINAL, UniformOutcomes
from epigames.games.events import Fact, PrivateObservation, PublicAnnouncement
from epigames.games.params import Param
from epigames.games.picture import HasPictures
from epigames.games.table import TableGame, TableState, TableView

SEATS = ("South", "West", "North", "East", "Southwest", "Northeast")
#: The action of a seat that cannot play.
KNOCK = "knock"


@core.register_game
@dataclass(frozen=True)
class SevensGame(TableGame):
    """Sevens: build the suits outward from the 7s; the first seat out of cards ends it."""

    name: ClassVar[str] = "sevens"
    showcase: ClassVar[str] = "sevens(players=3,ranks=7,suits=3)"
    showcase_agents: ClassVar[tuple[str, ...]] = ("blocker", "random")
    params: ClassVar[tuple[Param, ...]] = (
        Param("players", int, 4, min=2, max=len(SEATS), help="number of seats"),
        Param("ranks", int, 9, min=3, max=11, help="ranks per suit around the 7 (odd)"),
        Param("suits", int, 4, min=1, max=4, help="number of suits"),
    )
    players: int = 4
    ranks: int = 9
    suits: int = 4

    def __post_init__(self) -> None:
        TableGame.__post_init__(self)
        if self.ranks % 2 == 0:
            raise InputError(f"sevens ranks={self.ranks}: expected an odd number, 7 in the middle")

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Compass names, clockwise from South."""
        return SEATS[: self.players]

    @property
    def deck(self) -> tuple[Card, ...]:
        """The ranks around the 7 in each suit, sorted by suit, then rank."""
        return cast(tuple[Card, ...], _layout(self).cards)

    @property
    def card_layout(self) -> CardLayout:
        """The seats, the face-down deck the cards are dealt from, the face-up table."""
        return _layout(self)

    @property
    def returns_range(self) -> tuple[float, float]:
        """Minus a whole hand, to nothing left."""
        return (-float(-(-len(self.deck) // self.players)), 0.0)

    @property
    def max_game_length(self) -> int:
        """Every card played, with every other seat knocking before each."""
        return len(self.deck) * self.players

    def distinct_actions(self) -> list[Hashable]:
        """Playing any card, or knocking."""
        return [*self.deck, KNOCK]

    def new_initial_state(self) -> SevensState:
        """The state before the deal."""
        return SevensState(self)

    def parse_action(self, text: str) -> Hashable:
        """Read `knock` or a card (`8♥`, `8H`): a play or a dealt card."""
        return KNOCK if text.strip().lower() == KNOCK else Card.parse(text)


@functools.cache
def _layout(game: SevensGame) -> CardLayout:
    chosen = [Rank(r) for r in range(7 - game.ranks // 2, 8 + game.ranks // 2)]
    cards = deck(chosen, sorted({c.suit for c in deck(13)})[: game.suits])
    return CardLayout.with_locations(cards, game.seat_names, (DECK, TABLE))


@functools.cache
def _inward(card: Card) -> Card:
    """The card next to `card` on the way to its suit's 7 (a 7 itself)."""
    r = card.rank.value
    return Card(Rank(r - 1 if r > 7 else r + 1 if r < 7 else 7), card.suit)


def playable(cards: Sequence[Card], on_table: tuple[Card, ...]) -> list[Card]:
    """The cards of `cards` that may be played next: each 7, and each card next to one on
    the table."""
    placed = set(on_table)
    return [c for c in cards if c not in placed and ((i := _inward(c)) is c or i in placed)]


#: The last hand and table (tuples) and their moves: the state asks again what its view did.
_last: tuple[object, object, tuple[Hashable, ...]] = (None, None, ())


def legal_moves(hand: tuple[Card, ...], on_table: tuple[Card, ...]) -> list[Hashable]:
    """The one rule of moves, for the state and the views: a playable card held, or knock."""
    global _last
    if (last := _last)[0] is not hand or last[1] is not on_table:
        last = _last = (hand, on_table, (*playable(hand, on_table),) or (KNOCK,))
    return list(last[2])


@dataclass(frozen=True, slots=True)
class Dealt(PrivateObservation, kind="dealt"):
    """The seat is dealt a card (only it sees which).

    Attributes:
        card: the card dealt to the seat.
    """

    card: Card

    @property
    def text(self) -> str:
        return f"{self.name_of(self.seat)} is dealt {self.card}."

    @property
    def facts(self) -> tuple[Fact, ...]:
        return (Moved.of(self.card, len(self.names), self.seat),)


@dataclass(frozen=True, slots=True)
class DealDone(PublicAnnouncement, kind="deal"):
    """Every card is dealt: each seat has drawn its count from the deck, unseen by others.

    Attributes:
        hand_sizes: every seat's number of cards, in seat order.
        leader: the seat that moves first (South, seat 0).
    """

    hand_sizes: tuple[int, ...]
    leader: int

    @property
    def text(self) -> str:
        return (
            "The cards are dealt: "
            + ", ".join(f"{self.name_of(s)} {n}" for s, n in enumerate(self.hand_sizes))
            + "."
        )

    @property
    def facts(self) -> tuple[Fact, ...]:
        sizes = self.hand_sizes
        return tuple(Drew(s, n, len(sizes)) for s, n in enumerate(sizes))


@dataclass(frozen=True, slots=True)
class Played(PublicAnnouncement, kind="card"):
    """A seat plays a card to the table.

    Attributes:
        seat: the seat that plays.
        card: the card it plays.
    """

    seat: int
    card: Card

    @property
    def text(self) -> str:
        return f"{self.name_of(self.seat)} plays {self.card}."

    @property
    def facts(self) -> tuple[Fact, ...]:
        return (Moved.of(self.card, self.seat, len(self.names) + 1),)


@dataclass(frozen=True, slots=True)
class Knocked(PublicAnnouncement, kind="knock"):
    """A seat cannot play: it holds none of the playable cards.

    Attributes:
        seat: the seat that knocks.
        playable: the cards that were playable, none of which it holds.
    """

    seat: int
    playable: tuple[Card, ...]

    @property
    def text(self) -> str:
        cards = " ".join(str(c) for c in self.playable)
        return f"{self.name_of(self.seat)} knocks: it holds none of {cards}."

    @property
    def facts(self) -> tuple[Fact, ...]:
        return tuple(Lacks(self.seat, c) for c in self.playable)


# Declared here, after the events it lists: the game class comes first in this module.
SevensGame.event_types = (Dealt, DealDone, Played, Knocked)


class SevensView(TableView):
    """A seat's view: its hand, the table, the counts, and its legal moves."""

    @property
    def legal_actions(self) -> list[Hashable]:
        """The seat's legal moves on its turn (`legal_moves`), else none."""
        if not self.is_my_turn:
            return []
        hand, on_table = cast(tuple[Card, ...], self.hand), self.piles[TABLE.name]
        return legal_moves(hand, cast(tuple[Card, ...], on_table))


class SevensState(TableState, core.State, HasPictures):
    """A Sevens position: the location table and the shared log."""

    view_class = SevensView

    def __init__(self, game: SevensGame) -> None:
        self.game: SevensGame = game
        self._player = CHANCE
        self._start_table(game, game.players)  # the deck is the first pile after the seats

    def _cards_at(self, holder: int) -> tuple[Card, ...]:
        return cast(tuple[Card, ...], self._table.cards_of(holder))

    def legal_actions(self) -> list[Hashable]:
        """The mover's legal moves (`legal_moves`); none during the deal and at the end."""
        p = self._player
        if p < 0:
            return []
        return legal_moves(self._cards_at(p), self._cards_at(self.game.players + 1))

    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        """During the deal: each card still in the deck, equally likely."""
        if self._player != CHANCE:
            return []
        return UniformOutcomes(self._cards_at(self.game.players))

    def apply(self, action: Hashable) -> None:
        """Deal a card (chance), play one, or knock.

        Raises:
            IllegalActionError: not legal here; the state is unchanged.
        """
        p, n = self._player, self.game.players
        if not (self._table.at(action, n) if p == CHANCE else action in self.legal_actions()):
            raise core.illegal_action(self, action)
        self._history.append(action)
        names = self.game.seat_names
        if p == CHANCE:
            assert isinstance(action, Card)
            self._publish(Dealt((len(self._history) - 1) % n, action, names=names))
            if len(self._history) == self._table.layout.n_cards:
                sizes = tuple(self._table.counts[:n])
                self._player = 0  # South leads
                self._publish(DealDone(sizes, self._player, names=names))
            return
        if action == KNOCK:
            open_cards = tuple(playable(self.game.deck, self._cards_at(self.game.players + 1)))
            self._publish(Knocked(p, open_cards, names=names))
        else:
            assert isinstance(action, Card)
            self._publish(Played(p, action, names=names))
        self._player = TERMINAL if not self._table.counts[p] else (p + 1) % n

    def returns(self) -> tuple[float, ...]:
        """Minus the cards each seat holds, once the game is over (zeros before)."""
        if self._player != TERMINAL:
            return (0.0,) * self.game.players
        return tuple(float(-n) for n in self._table.counts[: self.game.players])
