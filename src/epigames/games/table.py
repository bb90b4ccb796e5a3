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
public. `games/sevens` is the template game built this way. The table and the fold live in
`games.cardtable`, which mypyc compiles (`epigames.native`); the classes here are
subclassed by each game and stay plain Python.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Hashable, Sequence
from typing import Any, Self, cast

import numpy as np

from epigames.cards import CardKnowledge
from epigames.cards.fact_types import Moved
from epigames.games import core
from epigames.games.cardtable import CardTable, PublicCards, TableError
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
        self._public = PublicCards.start(layout, start)

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
        seen = state._seen
        if type(seat) is not int or not 0 <= seat < len(seen):
            core.check_seat(state.game, seat)
        # The seat's log is read from the shared one only when asked for (`log`): a
        # trainer's observations never read it. Its length is settled then (`_settled`).
        View.__init__(self, state.game, seat, state._player, seen[seat], -1)
        self._read_log = state._seat_log
        table = state._table
        self._layout = table.layout
        self.hand = table.cards_of(seat)
        self.piles = {name: table.cards_of(h) for name, h in table.face_up}
        self.counts = tuple(table.counts)
        self._pile_flags = table.pile_flags
        self._where = table.where.tobytes()  # for `write_public`: one copy, in C
        self._fold, self._events, self._audience = state._public, state._events, state._audience
        self._entries = len(state._events)

    def _settled(self) -> int:
        """The length of the seat's log when the view was made (read on first use)."""
        if self._log_length < 0:
            self._read_log(self._seat)  # the seat's log up to the end of the shared one
            bit = 1 << self._seat
            later = sum(1 for a in self._audience[self._entries :] if a & bit)
            self._log_length = len(self._log_source) - later
        return self._log_length

    @cached_property
    def log(self) -> tuple[Event, ...]:
        """Every event this seat observed, in order: public ones and its own private ones."""
        return tuple(self._log_source[: self._settled()])

    @property
    def log_length(self) -> int:
        """How many events this seat had observed when the view was made."""
        return self._settled()

    def events_since(self, index: int) -> Sequence[Event]:
        """The events this seat observed from position `index` of its log on."""
        return self._log_source[index : self._settled()]

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
        # Holders are non-negative: a signed byte is the same byte unsigned, `REMOVED` is 255.
        for name, flags in self._pile_flags:
            arrays[name][:] = np.frombuffer(self._where.translate(flags), dtype=np.uint8)

    def _extra_dict(self) -> dict[str, Any]:
        return {
            "hand": [str(c) for c in self.hand],
            "piles": {name: [str(c) for c in cards] for name, cards in self.piles.items()},
            "counts": list(self.counts),
        }
