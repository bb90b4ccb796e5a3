"""`KempsView`: what one seat sees of Kemps, and the knowledge it derives from that."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from epigames.cards import Card
from epigames.games.core import SharedLogView, cached_property
from epigames.games.kemps import observation
from epigames.games.kemps.actions import OF_A_KIND, KempsAction, legal_moves
from epigames.games.kemps.knowledge import (
    HoldsAll,
    KempsKnowledge,
    PublicKemps,
    PublicTracker,
    SplitKnowledge,
    elsewhere_of,
)
from epigames.games.observation import Arrays
from epigames.games.recorded import RecordView

if TYPE_CHECKING:
    from epigames.games.core import EventLog
    from epigames.games.kemps.records import Records, Rest
    from epigames.games.kemps.rules import KempsGame


class KempsView(SharedLogView, RecordView[PublicTracker]):
    """A seat's view: own hand, the table, counts, scores, this turn's swaps, the log.

    Attributes:
        seat: the seat this view belongs to.
        kemps_game: the game, typed as Kemps.
        hand: the seat's own cards, in hand order.
        table: the table's cards, slot by slot (public).
        swaps: swaps made in the turn under way.
        turns: turns completed (public).
        window: team game: the seats the call window under way still asks (empty: none).
    """

    # Plain attributes in place of the bases' properties (class values shadow them): the
    # strategies read these at every decision, and a property is a Python call.
    seat: int = 0
    kemps_game: KempsGame
    hand: tuple[Card, ...] = ()
    table: tuple[Card, ...]
    swaps: int
    turns: int
    window: tuple[int, ...]
    _rest: Rest

    def __init__(
        self, game: KempsGame, seat: int, current: int, state: EventLog, records: Records
    ) -> None:
        # `View.__init__` written out: a view is made per move.
        self._game = self.kemps_game = game
        self._seat = self.seat = seat
        self._current_player = current
        # The seat's log is read from the shared one only if asked for (`log`): up to the
        # shared log's length now.
        self._source = state
        self._stop = len(state._events)
        # The records' announcements (append-only) and tracker, and how many there are now.
        self._records = records
        # The records' values are replaced, never changed: keeping them is a snapshot.
        # Read in one call: compiled, each of the records' attributes is a descriptor's
        # lookup from here. The rest, read less often, is one tuple (the properties below).
        (
            self.hand,
            self.table,
            self.swaps,
            self.turns,
            self.window,
            self._rest,
            self._announced,
        ) = records.seen_by(seat)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards per seat (public)."""
        return tuple(map(len, self._rest[0]))

    @property
    def deck_size(self) -> int:
        """Cards in the deck (public count)."""
        return self._rest[1]

    @property
    def discard_size(self) -> int:
        """Cards in the discard pile (public count)."""
        return self._rest[2]

    @property
    def out(self) -> tuple[Card, ...]:
        """The cards out of the game, in the order they left (public)."""
        return self._rest[3]

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's Kemps so far (public)."""
        return self._rest[4]

    @property
    def put_down(self) -> frozenset[Card]:
        """The cards put down in the turn under way (they may not be taken back)."""
        return self._rest[5]

    @property
    def told(self) -> tuple[HoldsAll, ...]:
        """Team game: what the partner's signals told this seat, still true now."""
        return self._rest[6]

    @cached_property
    def public(self) -> PublicKemps:
        """The public facts so far (the card engine's and the not-all facts)."""
        records = self._records
        return records.tracker.at(records.announcements, self._announced)

    @cached_property
    def knowledge(self) -> KempsKnowledge:
        """What this seat knows about where every card is: public facts + own hand.

        Exact (sound and complete) and computed lazily; holders are layout indices: the
        seats, then the table, the deck, the discard pile and out of the game. A partner's
        signal makes it a case split (`SplitKnowledge`) while it says more than the log.

        Raises:
            ValueError: before the first deal is over.
        """
        told = self._rest[6]
        if told:
            return SplitKnowledge.split(self.public, self._seat, self.hand, told)
        # `KempsKnowledge.of(self.public, …)` in one compiled call.
        records = self._records
        return records.tracker.knowledge(
            records.announcements, self._announced, self._seat, self.hand
        )

    def possible_masks(self) -> tuple[int, ...]:
        """Per holder, the cards this seat's knowledge says it may hold, as layout masks:
        `knowledge.possible_masks()`.

        Where Hall's condition decides it (most decisions), the tracker answers from the
        public parts it keeps, without making the knowledge (a `KempsKnowledge` and its
        public value); elsewhere, and under a partner's signal, the knowledge does.

        Raises:
            ValueError: before the first deal is over.
        """
        if not self._rest[6]:
            records = self._records
            masks = records.tracker.possible(
                records.announcements, self._announced, self._seat, self.hand
            )
            if masks is not None:
                return masks
        return self.knowledge.possible_masks()

    def elsewhere_cards(self) -> tuple[int, int]:
        """The cards whose only possible holder is another seat, and those another seat may
        hold, as layout masks: `elsewhere_of(self.possible_masks(), …)`, what the turn
        planner reads.

        Where Hall's condition decides it simply (most decisions), the tracker reads it
        off the public parts without making any holder's possible cards.

        Raises:
            ValueError: before the first deal is over.
        """
        players = self.kemps_game.players
        if not self._rest[6]:
            records = self._records
            found = records.tracker.elsewhere(
                records.announcements, self._announced, self._seat, self.hand, players
            )
            if found is not None:
                return found
        return elsewhere_of(self.knowledge.possible_masks(), self._seat, players)

    @cached_property
    def legal_actions(self) -> tuple[KempsAction, ...]:
        """`done`, then every swap of a table card (not one put down this turn) for a hand
        card; in the team game `signal` after `done` when the hand is four of a kind, and
        in a call window `pass`, Kemps! for the partner and Stop Kemps against each opponent."""
        if not self.is_my_turn:
            return ()
        return legal_moves(
            self.kemps_game,
            self.seat,
            self.hand,
            self.table,
            self.put_down,
            self.swaps,
            self.window,
        )

    @property
    def four_of_a_kind(self) -> bool:
        """Whether the seat's own four cards are of one rank."""
        hand = self.hand
        return len(hand) == OF_A_KIND and len({c.rank for c in hand}) == 1

    def write_public(self, arrays: Arrays) -> None:
        """The table, the counts, the cards out, the scores, the swaps (`observation`)."""
        observation.write_public(self, arrays)

    def _extra_dict(self) -> dict[str, Any]:
        return {
            "hand": [str(c) for c in self.hand],
            "table": [str(c) for c in self.table],
            "hand_sizes": list(self.hand_sizes),
            "deck": self.deck_size,
            "discard": self.discard_size,
            "out": [str(c) for c in self.out],
            "scores": list(self.scores),
            "swaps": self.swaps,
            **self._team_dict(),
        }

    def _team_dict(self) -> dict[str, Any]:
        """The team game's window and signals (nothing in the 2023 game)."""
        if not self.kemps_game.team_game:
            return {}
        names = self.kemps_game.seat_names
        return {
            "window": list(self.window),
            "signalled": sorted({names[fact.seat] for fact in self.told}),
        }

    def summary(self) -> str:
        """E.g. `hand 7♥ 7♣ 2♠ 9♦ · table 7♠ … · 1 Kemps`."""
        hand = " ".join(str(c) for c in self.hand) or "(empty)"
        table = " ".join(str(c) for c in self.table) or "(empty)"
        return f"hand {hand} · table {table} · {self.scores[self.seat]} Kemps"
