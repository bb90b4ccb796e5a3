"""A card game's truth as one location table, changed only by the facts of published events.

A game declares its layout (`Game.card_layout`: the seats, then named piles face up or
down) and the pile every card starts in. Its state keeps where each card is in one array
(`CardTable`) and changes it only by publishing events (`TableState._publish`): the event
is logged once with its audience, and its card facts move the cards in the table. Moves
(`Moved`, `Removed`, `Reshuffled`) change the table; claims (`Holds`, `Lacks`,
`HoldsAtLeastOne`, `Count`) are checked against it, so an event that says something false
stops the game with `TableError` (a bug in the rules, never a user's mistake).

Everything else is derived. A seat's view (`TableView`) snapshots what the layout lets it
see: its own hand, the face-up piles and every holder's count. Its knowledge folds the
public events' facts (`PublicCards`, shared by every view of a state) with its own hand.
The state gives `hands()`, `location(card)`, pictures of every card in a hand, and
`resample` for games that deal by chance, one card at a time, and then move cards only in
public. `games/sevens` is the template game built this way.
"""

from __future__ import annotations

import copy
import random
from array import array
from collections.abc import Hashable, Sequence
from itertools import compress
from typing import Any, Self, cast

import numpy as np

from epigames.cards import CardKnowledge, CardLayout, PublicInfo
from epigames.cards.errors import UnknownCardError
from epigames.cards.fact_types import (
    Count,
    Holds,
    HoldsAtLeastOne,
    Lacks,
    Moved,
    Removed,
    Reshuffled,
)
from epigames.cards.facts import apply_facts
from epigames.cards.public import REMOVED
from epigames.errors import EpigamesError
from epigames.games import core
from epigames.games.core import CHANCE, EventLog, View, cached_property
from epigames.games.events import Event
from epigames.games.observation import Arrays, Axis, Part
from epigames.games.picture import KripkePicture, held_card_picture, subject_card

__all__ = [
    "CardTable",
    "PublicCards",
    "TableError",
    "TableGame",
    "TableState",
    "TableView",
    "table_parts",
]


def table_parts(game: core.Game) -> tuple[Part, ...]:
    """A table game's public state: the seat to move, every holder's count, and the cards
    of each face-up pile (`TableView.write_public` fills them)."""
    layout = game.card_layout
    assert layout is not None, "a table game declares its card layout"
    holders = Axis("holder", tuple(range(layout.n_holders)), layout.holders)
    cards = Axis("card", layout.cards, tuple(str(c) for c in layout.cards))
    piles = [
        Part(layout.holders[h], (cards,), f"1 for each card face up at {layout.holders[h]}")
        for h in sorted(layout.public)
    ]
    counts = Part("counts", (holders,), "how many cards each holder has", high=layout.n_cards)
    return (*core.Game.public_parts(game), counts, *piles)


class TableGame(core.Game):
    """A card game's `Game`: what its card layout (`card_layout`) gives.

    Its cards, chance outcomes (the card dealt next) and public arrays (`table_parts`)
    follow from the layout.
    """

    @property
    def deck(self) -> tuple[Hashable, ...]:
        """Every card of the game, in the layout's order."""
        layout = self.card_layout
        assert layout is not None, "a table game declares its card layout"
        return layout.cards

    def distinct_chance_outcomes(self) -> tuple[Hashable, ...]:
        """The card dealt next: any of the deck."""
        return self.deck

    def public_parts(self) -> tuple[Part, ...]:
        """The seat to move, every holder's count, the cards of each face-up pile."""
        return table_parts(self)


class TableError(EpigamesError):
    """A published fact contradicts where the cards are: a bug in a game's rules."""


class CardTable:
    """Where every card is: one holder index per card, in the layout's order."""

    __slots__ = ("_held", "counts", "face_up", "layout", "where")

    def __init__(self, layout: CardLayout, start: int) -> None:
        self.layout = layout
        # The face-up piles, `(name, holder)`: found once, every view lists them.
        self.face_up = tuple((layout.holders[h], h) for h in sorted(layout.public))
        # Signed bytes (holders and `REMOVED`): a view copies them in one call and reads
        # its face-up piles from them with numpy, without listing their cards.
        assert layout.n_holders < 128, "holder indices are stored as signed bytes"
        self.where = array("b", [start]) * layout.n_cards
        # How many cards each holder has, kept as cards move: every view shows them.
        self.counts = [0] * layout.n_holders
        self.counts[start] = layout.n_cards
        # Each holder's cards as card objects, kept until a move touches the holder: views
        # and legal moves ask for the same hands several times between two moves.
        self._held: dict[int, tuple[Hashable, ...]] = {}

    def copy(self) -> CardTable:
        """An independent table at the same point."""
        other = CardTable.__new__(CardTable)
        other.layout, other.where, other._held = self.layout, self.where[:], dict(self._held)
        other.counts, other.face_up = list(self.counts), self.face_up
        return other

    def cards_of(self, holder: int) -> tuple[Hashable, ...]:
        """The cards (objects) at a holder, in layout order."""
        held = self._held.get(holder)
        if held is None:
            # In C rather than a Python loop.
            held = tuple(compress(self.layout.cards, map(holder.__eq__, self.where)))
            self._held[holder] = held
        return held

    def at(self, card: object, holder: int) -> bool:
        """Whether `card` is a card object of the layout lying at `holder` (False for any
        other object, its text included: a chance outcome or action to check)."""
        try:
            c = self.layout.card_index(card)
        except UnknownCardError:
            return False
        return self.where[c] == holder and self.layout.cards[c] == card

    def apply(self, facts: Sequence[object]) -> None:
        """Move the cards the facts move; check the claims they make.

        Raises:
            TableError: a fact contradicts the table.
        """
        where, index, counts, held = self.where, self.layout.card_index, self.counts, self._held
        for fact in facts:
            kind = type(fact)
            if kind is Moved:
                assert isinstance(fact, Moved)
                c = index(fact.card)
                src, dst = fact.src, fact.dst
                if where[c] != src:
                    raise self._contradiction(fact)
                # Both piles' cards stay listed, in order, the card taken from one and put
                # in the other (a deal takes the deck's cards one by one, a play adds one
                # to the table); its place is the count of the pile's cards before it.
                cards = held.pop(src, None)
                if cards is not None:
                    i = where[:c].count(src)
                    held[src] = cards[:i] + cards[i + 1 :]
                cards = held.pop(dst, None)
                if cards is not None:
                    i = where[:c].count(dst)
                    held[dst] = (*cards[:i], self.layout.cards[c], *cards[i:])
                where[c] = dst
                counts[src] -= 1
                counts[dst] += 1
            elif kind is Lacks:
                assert isinstance(fact, Lacks)
                self._expect(where[index(fact.card)] != fact.holder, fact)
            elif kind is Holds:
                assert isinstance(fact, Holds)
                self._expect(where[index(fact.card)] == fact.holder, fact)
            elif kind is HoldsAtLeastOne:
                assert isinstance(fact, HoldsAtLeastOne)
                self._expect(any(where[index(c)] == fact.holder for c in fact.cards), fact)
            elif kind is Count:
                assert isinstance(fact, Count)
                self._expect(counts[fact.holder] == fact.n, fact)
            elif kind is Removed:
                assert isinstance(fact, Removed)
                for card in fact.cards:
                    c = index(card)
                    if where[c] != REMOVED:
                        counts[where[c]] -= 1
                        where[c] = REMOVED
                self._held.clear()
            elif kind is Reshuffled:
                assert isinstance(fact, Reshuffled)
                self.where = where = array("b", [fact.dst if h == fact.src else h for h in where])
                if fact.src != fact.dst:
                    counts[fact.dst] += counts[fact.src]
                    counts[fact.src] = 0
                self._held.clear()
            # Other facts (a `Drew` is the public side of private `Moved` facts) move nothing.

    def _expect(self, holds: bool, fact: object) -> None:
        if not holds:
            raise self._contradiction(fact)

    def _contradiction(self, fact: object) -> TableError:
        return TableError(f"the fact {fact} contradicts the table {list(self.where)}")


class PublicCards:
    """The public facts of a log folded into `PublicInfo`, on demand and incrementally.

    One fold serves every view of a state: all seats see the same public events. It starts
    from every card in the start pile and applies each public event's facts in order.
    """

    __slots__ = ("_done", "_first", "_public")

    def __init__(self, layout: CardLayout, start: int) -> None:
        counts = [0] * layout.n_holders
        counts[start] = layout.n_cards
        self._first = PublicInfo.start(layout, counts)
        self._done, self._public = 0, self._first

    def copy(self) -> PublicCards:
        """An independent fold at the same point (`PublicInfo` values are immutable)."""
        other = PublicCards.__new__(PublicCards)
        other._first, other._done, other._public = self._first, self._done, self._public
        return other

    def at(self, events: Sequence[Event], audience: Sequence[int], n: int) -> PublicInfo:
        """The public information after the first `n` entries of the log."""
        if n < self._done:
            self._done, self._public = 0, self._first
        public = self._public
        for i in range(self._done, n):
            if audience[i] == -1:
                public = apply_facts(public, events[i].facts)
        self._done, self._public = n, public
        return public


class TableState(EventLog):
    """Mixin for a card game's `State` (listed before it): the table, the log, the views.

    `__init__` calls `_start_table(game)`; the game's rules change the table only through
    `_publish(event)`; `clone` copies the table and the log and shares every other
    attribute, so a state that keeps only immutable values besides them (the seat to
    move, the game) writes no `clone`. The game names its view
    class in `view_class` and the pile its cards start in (`start_pile`, a layout holder).
    """

    game: core.Game
    view_class: type[TableView]
    _player: int
    _table: CardTable
    _public: PublicCards

    def _start_table(self, game: core.Game, start: int) -> None:
        layout = game.card_layout
        assert layout is not None, "a table game declares its card layout"
        self._start_log(game.num_players)
        self._table = CardTable(layout, start)
        self._public = PublicCards(layout, start)

    @property
    def current_player(self) -> int:
        """The seat to move (`_player`), `CHANCE` for a chance move, `TERMINAL` at the end."""
        return self._player

    def _publish(self, event: Event) -> None:
        """Log the event for its audience and apply its facts to the table."""
        self._deliver(event)
        self._table.apply(event.facts)

    def _clone_table(self, other: TableState) -> None:
        self._clone_log(other)
        other._table, other._public = self._table.copy(), self._public.copy()

    def clone(self) -> Self:
        """An independent copy: the table and the log copied, the other attributes shared."""
        other = copy.copy(self)
        self._clone_table(other)
        return other

    def observation(self, seat: int) -> TableView:
        """The seat's view: what the layout lets it see, and its log.

        Raises:
            SeatError: no such seat.
        """
        return self.view_class(self, seat)

    def hands(self) -> tuple[tuple[Hashable, ...], ...]:
        """Every seat's cards, in layout order: for referees and tests, never strategies."""
        table = self._table
        return tuple(table.cards_of(seat) for seat in range(len(self._seen)))

    def location(self, card: Hashable) -> int:
        """The holder index of a card (`REMOVED` once out of play): for referees and tests."""
        table = self._table
        return table.where[table.layout.card_index(card)]

    def picture_subjects(self) -> list[str]:
        """Every card in a seat's hand, in layout order (the order must not tell whose);
        none mid-deal."""
        if self._player == CHANCE:
            return []
        table, players = self._table, len(self._seen)
        return [str(table.layout.cards[c]) for c, h in enumerate(table.where) if 0 <= h < players]

    def picture(self, subject: str, seat: int | None = None) -> KripkePicture:
        """A card's Kripke picture from `seat`'s view or a spectator's.

        Raises:
            InputError: the subject is not a card in a hand.
            SeatError: no such seat.
        """
        held = [card for hand in self.hands() for card in hand] if self._player != CHANCE else []
        card = subject_card(self.game, subject, held, self._card_named, "none yet")
        return held_card_picture(self, card, seat)

    def _card_named(self, text: str) -> Hashable:
        layout = self._table.layout
        return layout.cards[layout.parse_card(text)]

    def resample(self, seat: int, rng: random.Random) -> Any:
        """The same game with another deal that `seat` cannot tell from the true one.

        For games that deal every card by chance, one at a time clockwise from seat 0, and
        then move cards only in public: each card was dealt to the seat it first left in
        public, or to the holder a world drawn from the seat's knowledge gives it.
        """
        game = self.game
        n, deck = game.num_players, self._table.layout.n_cards
        if self._player == CHANCE:
            # Mid-deal: the others' dealt cards in any order, the seat's own where they were.
            dealt = list(self._history)
            others = [i for i in range(len(dealt)) if i % n != seat]
            shuffled = [dealt[i] for i in others]
            rng.shuffle(shuffled)
            for i, card in zip(others, shuffled, strict=True):
                dealt[i] = card
            return core.replayed(cast(core.State, self), dealt, seat)
        world = list(self.observation(seat).knowledge.sample_world(rng))
        origin: dict[int, int] = {}
        for event, audience in zip(self._events, self._audience, strict=True):
            for fact in event.facts if audience == -1 else ():
                if type(fact) is Moved and fact.src < n:
                    origin.setdefault(self._table.layout.card_index(fact.card), fact.src)
        cards = self._table.layout.cards
        hands: list[list[Hashable]] = [[] for _ in range(n)]
        for c in range(deck):
            hands[origin.get(c, world[c])].append(cards[c])
        deal = list(self._history[:deck])
        for other in range(n):
            if other != seat:  # the seat's own cards stay where it saw them dealt
                rng.shuffle(hands[other])
                deal[other:deck:n] = hands[other]
        return core.replayed(cast(core.State, self), [*deal, *self._history[deck:]], seat)


class TableView(View):
    """A seat's view of a table game: its hand, the face-up piles, every holder's count."""

    #: The seat's cards, in layout order.
    hand: tuple[Hashable, ...]
    #: The cards of each face-up pile, by the pile's name, in layout order.
    piles: dict[str, tuple[Hashable, ...]]
    #: How many cards each holder has (public), in layout order.
    counts: tuple[int, ...]

    def __init__(self, state: TableState, seat: int) -> None:
        log = state._seat_log(seat)
        View.__init__(self, state.game, seat, state._player, log, len(log))
        table = state._table
        self._layout = table.layout
        self.hand = table.cards_of(seat)
        self.piles = {name: table.cards_of(h) for name, h in table.face_up}
        self.counts = tuple(table.counts)
        self._face_up = table.face_up
        self._where = table.where.tobytes()  # for `write_public`: one copy, in C
        self._fold, self._events, self._audience = state._public, state._events, state._audience
        self._entries = len(state._events)

    @cached_property
    def knowledge(self) -> CardKnowledge:
        """Where this seat knows every card is: the public facts and its own hand (exact)."""
        public = self._fold.at(self._events, self._audience, self._entries)
        return CardKnowledge.create(public, self.seat, self.hand)

    def private_items(self) -> frozenset[Hashable]:
        """The seat's cards."""
        return frozenset(self.hand)

    def write_public(self, arrays: Arrays) -> None:
        """The parts of `table_parts`: the seat to move, the counts, the face-up piles."""
        View.write_public(self, arrays)
        arrays["counts"][:] = self.counts
        if self._face_up:
            where = np.frombuffer(self._where, dtype=np.int8)
            for name, holder in self._face_up:
                arrays[name][:] = where == holder

    def _extra_dict(self) -> dict[str, Any]:
        return {
            "hand": [str(c) for c in self.hand],
            "piles": {name: [str(c) for c in cards] for name, cards in self.piles.items()},
            "counts": list(self.counts),
        }
