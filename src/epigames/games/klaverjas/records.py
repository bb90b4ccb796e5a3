"""What the seats have observed, kept up to date event by event.

`Records.absorb(event)` reads nothing but the event. The public part (`Table`: trump,
the trick on the table, tricks, points, roem and totals) follows the public
announcements; `hands[s]` is seat `s`'s own record of its hand, from its private `Dealt`
and its own plays. Views are built from these records, so a view cannot contain what its
seat never saw; the state reads the public part from them too.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from epigames.cards import Card, Play, Suit, Trick
from epigames.games.events import Event
from epigames.games.klaverjas.actions import BIDS, PASS, Bid
from epigames.games.klaverjas.events import (
    CardPlayed,
    DealDone,
    DealScored,
    Dealt,
    Passed,
    TrickWon,
    TrumpChosen,
)
from epigames.games.klaverjas.knowledge import PublicTracker, layout_for
from epigames.games.klaverjas.play import PLAYERS, cards_of, legal_cards, team_of

if TYPE_CHECKING:
    from epigames.games.klaverjas.rules import KlaverjasGame

#: The sort key of cards (their order, as `Card.__lt__`), read in C rather than in Python.
CARD_ORDER: Final = operator.attrgetter("index")


class Table(NamedTuple):
    """The public situation, as a value (replaced on every public event).

    A named tuple rather than a frozen dataclass: one is made for every card played, and
    a tuple is made in C.

    Attributes:
        deal: the current deal's number (from 1; 0 before the first is dealt).
        dealer: its dealer (-1 before the first deal).
        trump: the trump suit, None until chosen.
        playing: the playing team (0 North–South, 1 East–West), None until trump is chosen.
        passes: passes so far in this deal's bidding.
        last_trick: the previous complete trick of this deal, if any.
        tricks: tricks won this deal per team.
        points: card points won this deal per team (with the last trick's 10).
        roem: roem won this deal per team.
        totals: match points per team after the deals scored so far.
        deal_start: the index among the public announcements of this deal's `DealDone`.
        chooser: the seat that named this deal's trump (None before, or when chance drew it).
        trick: the trick on the table (None until trump is chosen).
        played_mask: the cards played in this deal (the trick on the table included), as a
            bitmask over `Card.index`; `played` gives them as a set.
        sizes: every seat's number of cards now (empty before the first deal).
        plays: the cards played in this deal so far, with their seats, in order.
    """

    deal: int = 0
    dealer: int = -1
    trump: Suit | None = None
    playing: int | None = None
    passes: int = 0
    last_trick: Trick | None = None
    tricks: tuple[int, int] = (0, 0)
    points: tuple[int, int] = (0, 0)
    roem: tuple[int, int] = (0, 0)
    totals: tuple[int, int] = (0, 0)
    deal_start: int = -1
    chooser: int | None = None
    # The fields every card changes come last: the new table is the old one's head and
    # these four (see `Records.absorb`).
    trick: Trick | None = None
    played_mask: int = 0
    sizes: tuple[int, ...] = ()
    plays: tuple[Play, ...] = ()

    @property
    def played(self) -> frozenset[Card]:
        """The cards played in this deal, the trick on the table included."""
        return frozenset(cards_of(self.played_mask))

    @property
    def eldest(self) -> int:
        """The seat after the dealer: it leads and speaks first."""
        return (self.dealer + 1) % PLAYERS


_new_table: Final = tuple.__new__
_LAST_TRICK: Final = Table._fields.index("last_trick")
_TRICK: Final = Table._fields.index("trick")
_PLAYED_MASK: Final = _TRICK + 1
assert Table._fields[_LAST_TRICK:] == (
    "last_trick",
    "tricks",
    "points",
    "roem",
    "totals",
    "deal_start",
    "chooser",
    "trick",
    "played_mask",
    "sizes",
    "plays",
)


def _add(pair: tuple[int, int], team: int, value: int) -> tuple[int, int]:
    return (pair[0] + value, pair[1]) if team == 0 else (pair[0], pair[1] + value)


# The last answer of `legal_choices` with its arguments: the mover's view asks, then the
# state checks the chosen card, with the same (immutable) table and hand.
_last_legal: tuple[object, object, object, tuple[Card | Bid, ...]] = (None, None, None, ())


def legal_choices(
    game: KlaverjasGame, table: Table, hand: tuple[Card, ...]
) -> tuple[Card | Bid, ...]:
    """The legal actions of the seat to move holding `hand`: trump calls, or cards."""
    global _last_legal
    last = _last_legal
    if last[1] is table and last[2] is hand and last[0] is game:
        return last[3]
    if table.trump is None:
        if game.trump == "bidding" and table.passes < PLAYERS:
            return (*BIDS.values(), PASS)
        return tuple(BIDS.values())
    assert table.trick is not None
    legal = legal_cards(hand, table.trick, table.trump, game.rules, game.undertrump)
    _last_legal = (game, table, hand, legal)
    return legal


class Records:
    """Observation-derived records of every seat; all fields hold immutable values.

    Attributes:
        hands: `hands[s]` = the cards seat `s` knows it holds, sorted.
        table: the public situation.
        announcements: every public announcement so far, in order (append-only).
        tracker: folds the current deal's announcements into card knowledge on demand.

    Args:
        ranks: the deck's ranks per suit, for a new tracker.
        tracker: a tracker to start from instead (`copy`; `ranks` is then not read).
    """

    __slots__ = ("_held", "announcements", "hands", "table", "tracker")

    def __init__(self, ranks: int, tracker: PublicTracker | None = None) -> None:
        self.announcements: list[Event] = []
        self.tracker = PublicTracker(layout_for(ranks)) if tracker is None else tracker
        self.hands: list[tuple[Card, ...]] = [()] * PLAYERS
        # The hands again as dict keys (sorted too): a played card leaves by a lookup.
        self._held: list[dict[Card, None]] = [{} for _ in range(PLAYERS)]
        self.table = Table()

    def copy(self) -> Records:
        """An independent copy (the values are shared: they never change)."""
        return _records(
            self.tracker.copy(),
            list(self.announcements),
            list(self.hands),
            [dict(held) for held in self._held],
            self.table,
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # By its parts: pickle's default would call the compiled class's `__init__` bare.
        parts = (self.tracker, self.announcements, self.hands, self._held, self.table)
        return _records, parts

    def absorb(self, event: Event) -> None:
        """Update the records with one event (called for every event, in order)."""
        table = self.table
        if event.public:
            self.announcements.append(event)
        # The two events of every card build the table field by field: `_replace` costs more.
        # (`type(event) is …` narrows the event's type without a call to `isinstance`.)
        if type(event) is CardPlayed:
            trick = table.trick
            assert trick is not None
            seat, card = event.seat, event.card
            held = self._held[seat]
            held.pop(card, None)
            self.hands[seat] = tuple(held)
            # The same fields but the last four: the trick, the cards played, the hand
            # sizes and the plays of the deal.
            trick = trick.play(seat, card)
            mask = table.played_mask | 1 << card.index
            sizes = table.sizes
            left = (*sizes[:seat], sizes[seat] - 1, *sizes[seat + 1 :])
            plays = (*table.plays, trick.plays[-1])
            self.table = _new_table(Table, (*table[:_TRICK], trick, mask, left, plays))
        elif type(event) is TrickWon:
            team = team_of(event.winner)
            self.table = _new_table(
                Table,
                (
                    *table[:_LAST_TRICK],
                    table.trick,
                    _add(table.tricks, team, 1),
                    _add(table.points, team, event.points),
                    _add(table.roem, team, event.roem),
                    table.totals,
                    table.deal_start,
                    table.chooser,
                    Trick.start(event.winner),
                    *table[_PLAYED_MASK:],
                ),
            )
        elif isinstance(event, Dealt):
            held = self._held[event.seat] = dict.fromkeys(sorted(event.cards, key=CARD_ORDER))
            self.hands[event.seat] = tuple(held)
        elif isinstance(event, DealDone):
            self.table = Table(
                deal=event.deal,
                dealer=event.dealer,
                totals=table.totals,
                deal_start=len(self.announcements) - 1,
                sizes=tuple(event.hand_sizes),
            )
        elif isinstance(event, Passed):
            self.table = table._replace(passes=table.passes + 1)
        elif isinstance(event, TrumpChosen):
            self.table = table._replace(
                trump=event.trump,
                playing=event.playing,
                chooser=event.chooser if event.chooser >= 0 else None,
                trick=Trick.start(table.eldest),
            )
        elif isinstance(event, DealScored):
            self.table = table._replace(totals=event.totals)


def _records(
    tracker: PublicTracker,
    announcements: list[Event],
    hands: list[tuple[Card, ...]],
    held: list[dict[Card, None]],
    table: Table,
) -> Records:
    """Records made of these parts (`Records.copy` and unpickling)."""
    records = Records(0, tracker)
    records.announcements, records.hands, records._held = announcements, hands, held
    records.table = table
    return records
