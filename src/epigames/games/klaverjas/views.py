"""`KlaverjasView`: one seat's view of the table, its hand and its exact card knowledge."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from epigames.cards import KLAVERJAS, Card, CardKnowledge, Play, Suit, Trick
from epigames.games.core import SharedLogView, cached_property
from epigames.games.events import Event
from epigames.games.klaverjas import observation
from epigames.games.klaverjas.actions import Bid
from epigames.games.klaverjas.events import TrickWon
from epigames.games.klaverjas.knowledge import PublicTracker
from epigames.games.klaverjas.play import PLAYERS, TEAM_NAMES
from epigames.games.klaverjas.records import Records, Table, legal_choices
from epigames.games.observation import Arrays
from epigames.games.recorded import RecordView

if TYPE_CHECKING:
    from epigames.games.core import EventLog
    from epigames.games.klaverjas.rules import KlaverjasGame


class KlaverjasView(SharedLogView, RecordView[PublicTracker]):
    """A seat's view: own hand, trump, the trick on the table, tricks, points, roem, log."""

    # Plain attributes in place of the bases' properties (class values shadow them): the
    # tactics read them at every decision, and a property is a Python call from there.
    seat: int = 0
    #: The seat's own cards, sorted.
    hand: tuple[Card, ...] = ()
    #: The legal cards to play, or trump calls while trump is being chosen; none when it
    #: is not this seat's turn.
    legal_actions: tuple[Card | Bid, ...] = ()
    _game: KlaverjasGame
    #: The public situation (trump, trick, points, roem, totals) as one value.
    table: Table
    #: The trump suit, None until chosen.
    trump: Suit | None
    #: The trick on the table (None until trump is chosen).
    trick: Trick | None
    #: The previous trick of this deal, if any.
    last_trick: Trick | None
    #: The playing team (0 North–South, 1 East–West), None until trump is chosen.
    playing_team: int | None
    #: Match points per team (0 North–South, 1 East–West) after the deals scored.
    scores: tuple[int, int]
    #: Card points per team won in this deal so far.
    points: tuple[int, int]
    #: Roem per team won in this deal so far.
    roem: tuple[int, int]

    def __init__(
        self, game: KlaverjasGame, seat: int, current: int, state: EventLog, records: Records
    ) -> None:
        # `View.__init__` written out (and the fields `RecordView` declares): a view is
        # made per move.
        self._game = game
        self._seat = self.seat = seat
        self._current_player = current
        # The seat's log is read from the shared one only if asked for (`log`): up to the
        # shared log's length now (`SharedLogView`).
        self._source = state
        self._stop = len(state._events)
        announcements = records.announcements
        self._announcements = announcements
        self._announced = len(announcements)
        self._tracker = records.tracker
        # The records' values are replaced, never changed: keeping them is a snapshot.
        hand = self.hand = records.hands[seat]
        table = self.table = records.table
        self.trump, self.trick, self.last_trick = table.trump, table.trick, table.last_trick
        self.playing_team, self.scores = table.playing, table.totals
        self.points, self.roem = table.points, table.roem
        if current == seat:
            # What the rules ask again of the card played (`legal_choices` keeps it).
            self.legal_actions = legal_choices(game, table, hand)

    @property
    def game(self) -> KlaverjasGame:
        """The game being played (its parameters: `ranks`, `rules`, …)."""
        return self._game

    @cached_property
    def knowledge(self) -> CardKnowledge:
        """What this seat knows about where this deal's cards are: public plays + own hand.

        Exact (sound and complete) and computed lazily; holders are seat indices, and 4
        is the table (the cards played this deal).

        Raises:
            ValueError: before the first deal is dealt.
        """
        public = self._tracker.at(self._announcements, self.table.deal_start, self._announced)
        return CardKnowledge.create(public, self._seat, self.hand)

    def possible_cards(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per holder the cards it may hold as this seat sees it, and its card count.

        The masks are `knowledge.possible_masks()` (bits of `game.card_layout`), the
        counts the public ones; while the knowledge is not made and the deal's plays
        decide them alone, they come from the public fold without making it (what the
        tactics ask on most decisions: `PublicTracker.possible`).

        Raises:
            ValueError: before the first deal is dealt.
        """
        if "knowledge" not in self.__dict__:
            start, n = self.table.deal_start, self._announced
            got = self._tracker.possible(self._announcements, start, n, self._seat, self.hand)
            if got is not None:
                return got
        knowledge = self.knowledge
        return knowledge.possible_masks(), knowledge.public.counts

    @cached_property
    def deal_events(self) -> tuple[Event, ...]:
        """This deal's public announcements so far, its `DealDone` first (none before it)."""
        start = self.table.deal_start
        return () if start < 0 else tuple(self._announcements[start : self._announced])

    @property
    def deal_plays(self) -> tuple[Play, ...]:
        """The cards played in this deal so far, with their seats, in order (public)."""
        return self.table.plays

    @property
    def trump_chooser(self) -> int | None:
        """The seat that named this deal's trump (None before, or when chance drew it)."""
        return self.table.chooser

    @cached_property
    def _this_deal(self) -> tuple[tuple[int, ...], TrickWon | None]:
        """Every seat's card count now and the latest trick taken (for the web page: card
        backs per seat, and who took the last trick with what; the records keep no
        `TrickWon`, so it comes from this deal's events)."""
        sizes = self.table.sizes or (0,) * PLAYERS
        for event in reversed(self.deal_events):
            if type(event) is TrickWon:
                return sizes, event
        return sizes, None

    def write_public(self, arrays: Arrays) -> None:
        """The deal, trump, the tricks, the cards played and the scores (`observation`)."""
        observation.write_public(self, arrays)

    def _extra_dict(self) -> dict[str, Any]:
        table = self.table

        def trick_text(trick: Trick | None) -> list[list[Any]] | None:
            return None if trick is None else [[p.seat, str(p.card)] for p in trick.plays]

        trick = table.trick
        winning = None
        if trick is not None and trick.plays:
            winning = trick.winner(table.trump, KLAVERJAS).seat
        sizes, won = self._this_deal
        return {
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(sizes),
            "deal": table.deal,
            "dealer": table.dealer,
            "trump": None if table.trump is None else str(table.trump),
            "playing_team": table.playing,
            "leader": None if trick is None else trick.leader,
            "trick": trick_text(trick),
            "trick_winning": winning,
            "last_trick": trick_text(table.last_trick),
            "last_trick_won": None
            if won is None or table.last_trick is None
            else {"winner": won.winner, "points": won.points, "roem": won.roem},
            "tricks": list(table.tricks),
            "points": list(table.points),
            "roem": list(table.roem),
            "scores": list(table.totals),
        }

    def summary(self) -> str:
        """E.g. `hand J♥ 9♥ A♠ · trump ♥ · North–South 90, East–West 72`."""
        cards = " ".join(str(c) for c in self.hand) or "(empty)"
        trump = "not chosen" if self.trump is None else str(self.trump)
        a, b = self.table.totals
        return f"hand {cards} · trump {trump} · {TEAM_NAMES[0]} {a}, {TEAM_NAMES[1]} {b}"
