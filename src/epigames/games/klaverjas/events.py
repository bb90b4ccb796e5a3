"""The events of a Klaverjas match: deals, trump, every card played, tricks and scores."""

from __future__ import annotations

from dataclasses import dataclass

from epigames.cards import Card, Count, Lacks, Moved, Suit
from epigames.games.card_events import Dealt as Dealt  # shared with the other card games
from epigames.games.events import (
    Event,
    Fact,
    Passed as Passed,  # in bidding: no trump chosen
    PublicAnnouncement,
)
from epigames.games.klaverjas.play import PLAYERS, TEAM_NAMES

#: The holder index of the table, where played cards go (the seats are 0..3).
TABLE_HOLDER = PLAYERS


@dataclass(frozen=True, slots=True)
class DealDone(PublicAnnouncement, kind="deal"):
    """A deal is dealt: its number (from 1), the dealer, and every seat's hand size.

    Attributes:
        deal: the deal's number, from 1.
        dealer: the seat that dealt; the next seat clockwise (dealer + 1 mod 4) is the
            eldest hand, who chooses trump or bids first and leads the first trick.
        hand_sizes: every seat's number of cards, in seat order.
    """

    deal: int
    dealer: int
    hand_sizes: tuple[int, ...]

    @property
    def text(self) -> str:
        """E.g. `Deal 1: West deals 8 cards to each seat.`"""
        return (
            f"Deal {self.deal}: {self.name_of(self.dealer)} deals {self.hand_sizes[0]} cards each."
        )

    @property
    def facts(self) -> tuple[Fact, ...]:
        """Each seat's card count."""
        return tuple(Count(s, n) for s, n in enumerate(self.hand_sizes))


@dataclass(frozen=True, slots=True)
class TrumpChosen(PublicAnnouncement, kind="trump"):
    """Trump is fixed for the deal, by a seat or by chance (`chooser` -1); play starts.

    Attributes:
        chooser: the seat that chose, or -1 when it was drawn at random.
        trump: the trump suit.
        playing: the playing team (0 North–South, 1 East–West), which must take more
            than half of the points.
        leader: the seat that leads the first trick (the eldest hand); the winner of a
            trick leads the next.
    """

    chooser: int
    trump: Suit
    playing: int
    leader: int

    @property
    def text(self) -> str:
        """E.g. `North chooses ♥ as trump; North–South play; North leads.`"""
        team = TEAM_NAMES[self.playing]
        leads = f"{self.name_of(self.leader)} leads"
        if self.chooser < 0:
            return f"{self.trump} is drawn as trump; {team} play; {leads}."
        return f"{self.name_of(self.chooser)} chooses {self.trump} as trump; {team} play; {leads}."


@dataclass(frozen=True, slots=True)
class CardPlayed(PublicAnnouncement, kind="card"):
    """A seat plays a card to the trick, in everyone's view.

    Attributes:
        seat: who plays.
        card: the card.
        lacks: the cards still in play that the rules show the seat cannot hold, given
            that this play was legal (see `play.inference`); empty when it tells nothing.
        reason: those claims in words (empty when the play tells nothing).
    """

    seat: int
    card: Card
    lacks: tuple[Card, ...] = ()
    reason: str = ""

    @property
    def text(self) -> str:
        """E.g. `East plays 7♠ (no ♥, no trump above J♠).`"""
        told = f" ({self.reason})" if self.reason else ""
        return f"{self.name_of(self.seat)} plays {self.card}{told}."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """What the seat cannot hold, then the card's move to the table."""
        lacked: tuple[Fact, ...] = tuple(Lacks(self.seat, c) for c in self.lacks)
        return (*lacked, Moved(self.card, self.seat, TABLE_HOLDER))


@dataclass(frozen=True, slots=True)
class TrickWon(PublicAnnouncement, kind="trick"):
    """A trick is complete: who played which card, who took it, its points and roem.

    Attributes:
        winner: the seat that takes the trick (and leads the next).
        cards: the trick's cards in the order they were played.
        played_by: the seat that played each card of `cards` (the first led).
        points: the card points of the trick, for the winner's team; on the last trick
            of a deal the 10 for the last trick included.
        roem: the roem in the trick, for the winner's team (0 when none).
        last: whether it is the deal's last trick (its `points` include the 10).
    """

    winner: int
    cards: tuple[Card, ...]
    played_by: tuple[int, ...]
    points: int
    roem: int
    last: bool = False

    @property
    def text(self) -> str:
        """E.g. `South takes the trick (21 points, 20 roem).`, `… the last trick (23 points
        with the 10 for it).`"""
        roem = f", {self.roem} roem" if self.roem else ""
        who = self.name_of(self.winner)
        if self.last:
            return f"{who} takes the last trick ({self.points} points with the 10 for it{roem})."
        return f"{who} takes the trick ({self.points} points{roem})."


@dataclass(frozen=True, slots=True)
class DealScored(PublicAnnouncement, kind="score"):
    """The deal's outcome per team (0 North–South, 1 East–West), pairs in team order.

    `points` and `roem` are what the teams took in tricks, before nat and pit; `scores`
    is what they score, after them.

    Attributes:
        deal: the deal's number, from 1.
        trump: the trump suit.
        playing: the playing team (0 North–South, 1 East–West).
        points: card points taken in tricks per team, the 10 for the last trick included
            (they add up to the deck's points plus 10); before nat and pit.
        roem: roem taken in tricks per team; before nat and pit.
        scores: what each team scores for the deal, after nat and pit: points plus roem;
            when nat, 0 for the playing team and every point and roem of the deal for the
            defenders; when pit, 100 more for the playing team.
        nat: whether the playing team went down: its points plus roem were not more than
            the defenders'.
        pit: whether the playing team took every trick (and is not nat).
        totals: the match totals per team after this deal (the sums of `scores`).
    """

    deal: int
    trump: Suit
    playing: int
    points: tuple[int, int]
    roem: tuple[int, int]
    scores: tuple[int, int]
    nat: bool
    pit: bool
    totals: tuple[int, int]

    @property
    def text(self) -> str:
        """E.g. `Deal 1 (♥, North–South play): North–South 90, East–West 72. Totals 90–72.`"""
        team = TEAM_NAMES[self.playing]
        verdict = f" {team} go down (nat)." if self.nat else f" Pit for {team}!" if self.pit else ""
        return (
            f"Deal {self.deal} ({self.trump}, {team} play): {TEAM_NAMES[0]} {self.scores[0]}, "
            f"{TEAM_NAMES[1]} {self.scores[1]}.{verdict} Totals {self.totals[0]}–{self.totals[1]}."
        )


@dataclass(frozen=True, slots=True)
class MatchOver(PublicAnnouncement, kind="end"):
    """The match is over: the teams' totals.

    Attributes:
        totals: the match totals per team (0 North–South, 1 East–West); the higher wins.
    """

    totals: tuple[int, int]

    @property
    def text(self) -> str:
        """E.g. `Match over: North–South 1620, East–West 1480. North–South win.`"""
        a, b = self.totals
        verdict = "A tie" if a == b else f"{TEAM_NAMES[0 if a > b else 1]} win"
        return f"Match over: {TEAM_NAMES[0]} {a}, {TEAM_NAMES[1]} {b}. {verdict}."


# The two events of every trick, made through the slots' own setters: a frozen
# dataclass's `__init__` sets each field through `object.__setattr__`, at about twice the
# cost, and a hand makes some twenty of them (`cards.slots.slot_maker` does this for
# classes whose slots are all their own; `names` is the base class's).
_new = object.__new__
_names = Event.__dict__["names"].__set__
_seat, _card = CardPlayed.__dict__["seat"].__set__, CardPlayed.__dict__["card"].__set__
_lacks, _reason = CardPlayed.__dict__["lacks"].__set__, CardPlayed.__dict__["reason"].__set__
_winner, _cards = TrickWon.__dict__["winner"].__set__, TrickWon.__dict__["cards"].__set__
_played_by, _points = TrickWon.__dict__["played_by"].__set__, TrickWon.__dict__["points"].__set__
_roem, _last = TrickWon.__dict__["roem"].__set__, TrickWon.__dict__["last"].__set__


def card_played(
    seat: int, card: Card, lacks: tuple[Card, ...], reason: str, names: tuple[str, ...]
) -> CardPlayed:
    """`CardPlayed(seat, card, lacks, reason, names=names)`, through the slots."""
    event: CardPlayed = _new(CardPlayed)
    _names(event, names)
    _seat(event, seat)
    _card(event, card)
    _lacks(event, lacks)
    _reason(event, reason)
    return event


def trick_won(
    winner: int,
    cards: tuple[Card, ...],
    played_by: tuple[int, ...],
    points: int,
    roem: int,
    last: bool,
    names: tuple[str, ...],
) -> TrickWon:
    """`TrickWon(winner, cards, played_by, points, roem, last, names=names)`, through the slots."""
    event: TrickWon = _new(TrickWon)
    _names(event, names)
    _winner(event, winner)
    _cards(event, cards)
    _played_by(event, played_by)
    _points(event, points)
    _roem(event, roem)
    _last(event, last)
    return event


#: Every event a Klaverjas match logs (`Game.event_types`).
EVENTS: tuple[type[Event], ...] = (
    Dealt,
    DealDone,
    Passed,
    TrumpChosen,
    CardPlayed,
    TrickWon,
    DealScored,
    MatchOver,
)
