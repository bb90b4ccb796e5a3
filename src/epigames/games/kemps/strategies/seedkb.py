"""The 2023 program's knowledge base, replayed from a seat's log (for `seed_compat`).

The program keeps, per card, per player, whether the card may be in that player's hand,
and a list of ranks not to collect. It updates both by hand, and goes wrong in known
ways, which this replay keeps on purpose so that the `2023` strategies decide as the
program did:

- a new table marks every card ever seen on the table or in the discard pile as in no
  hand, also the ones a player has taken since (it forgets who took what), and every
  other card it cannot see as possibly in either other hand;
- a reshuffled discard pile stays marked as in no hand;
- after a Kemps the player marks its old four cards as its own, not its new hand, so its
  new cards look as if the others may hold them;
- a rank leaves the do-not-collect list when another player puts down a card of it.

It is derived from the seat's log alone (its own hand included), one event at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from epigames.cards import Card, Rank
from epigames.games.events import Event
from epigames.games.kemps.events import (
    Called,
    Dealt,
    GameDealt,
    Kemps,
    Swapped,
    TableCleared,
    TableDealt,
)

#: The program's two values for a card: may another player hold it (per other seat)?
_NOBODY = 0


class SeedKnowledge:
    """One seat's replay of the program's knowledge base; `update` it with the seat's log.

    Attributes:
        others: per card, the bitmask of the other seats that may hold it (the program's
            True entries for the other players).
        do_not_collect: the ranks the seat will not collect.
    """

    def __init__(self, seat: int, players: int, deck: Sequence[Card]) -> None:
        self.seat, self.players, self.deck = seat, players, tuple(deck)
        self._all_others = sum(1 << s for s in range(players) if s != seat)
        self.others: dict[Card, int] = {}
        self.do_not_collect: set[Rank] = set()
        self._hand: list[Card] = []
        self._table: list[Card] = []
        self._discard: list[Card] = []
        self._seen_down: set[Card] = set()  # the program's `discard_cards`: ever on the table
        self._done = 0
        self._first: Event | None = None

    def update(self, log: Sequence[Event]) -> SeedKnowledge:
        """Fold the events of the seat's log not folded yet; start over for another log."""
        if self._done > len(log) or (self._first is not None and log and log[0] is not self._first):
            self.__init__(self.seat, self.players, self.deck)  # type: ignore[misc]
        if log:
            self._first = log[0]
        for event in log[self._done :]:
            self._absorb(event)
        self._done = len(log)
        return self

    def may_be_elsewhere(self, rank: Rank) -> bool:
        """The program's `check_players_have_number`: a card of the rank both others may hold."""
        if self.players - 1 < 2:
            return any(self.others.get(c, 0) for c in self.deck if c.rank is rank)
        return any(self.others.get(c, 0) == self._all_others for c in self.deck if c.rank is rank)

    def _mark_table_seen(self) -> None:
        """Every turn the program marks the table and the discard pile as in no hand."""
        for card in (*self._discard, *self._table):
            self.others[card] = _NOBODY
            self._seen_down.add(card)

    def _reset_unseen(self, old_table: Sequence[Card]) -> None:
        """`set_knowledge_of_other_cards`: what a new table does to the knowledge base."""
        for card in (*old_table, *self._seen_down):
            self.others[card] = _NOBODY
        mine = set(self._hand)
        for card in self.deck:
            if card not in mine and card not in old_table and card not in self._seen_down:
                self.others[card] = self._all_others

    def _absorb(self, event: Event) -> None:
        kind = type(event)
        if kind is GameDealt:
            assert isinstance(event, GameDealt)
            self._table = list(event.table)
        elif kind is Dealt:
            assert isinstance(event, Dealt)
            if not self._hand and not self.others:  # the first deal
                self._hand = list(event.cards)
                self._reset_unseen(self._table)
                for card in self._hand:
                    self.others[card] = _NOBODY
                self._mark_table_seen()
            else:  # a new hand: the program marked the old one as its own instead
                self._hand = list(event.cards)
        elif kind is Swapped:
            assert isinstance(event, Swapped)
            self._table[event.slot] = event.put
            if event.seat == self.seat:
                self._hand[self._hand.index(event.put)] = event.taken
                self.others[event.taken] = _NOBODY
            else:
                self.do_not_collect.add(event.taken.rank)
                self.others[event.taken] = 1 << event.seat
                self.do_not_collect.discard(event.put.rank)
            self.others[event.put] = _NOBODY
        elif kind is Kemps or (kind is Called and event.right):  # type: ignore[attr-defined]
            assert isinstance(event, Kemps | Called)
            seat = event.seat if isinstance(event, Kemps) else event.target
            if seat != self.seat:
                self.do_not_collect.add(event.cards[0].rank)
            else:  # the program marks these four as its own, not the new hand
                for card in event.cards:
                    self.others[card] = _NOBODY
            if event.reshuffled:
                self._discard = []
            self._mark_table_seen()
        elif kind is TableCleared:
            assert isinstance(event, TableCleared)
            self._reset_unseen(event.cards)
            self._discard.extend(event.cards)
            if event.reshuffled:
                self._discard = []
            self._table = []
        elif kind is TableDealt:
            assert isinstance(event, TableDealt)
            self._table = list(event.cards)
            self._mark_table_seen()
        else:
            self._mark_table_seen()
