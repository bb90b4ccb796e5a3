"""The events of a Klaverjas match: deals, trump, every card played, tricks and scores."""

from __future__ import annotations

from dataclasses import dataclass

from epigames.cards import Card, Count, Lacks, Moved, Suit
from epigames.games.card_events import Dealt as Dealt  # shared with the other card games
from epigames.games.events import (
    Fact,
    Passed as Passed,  # in bidding: no trump chosen
    PublicAnnouncement,
)
from epigames.games.klaverjas.play import PLAYERS, TEAM_NAMES

#: The holder index of the table, where played cards go (the seats are 0..3).
TABLE_HOLDER = PLAYERS


@dataclass(frozen=True, slots=True)
class DealDone(PublicAnnouncement, kind="deal"):
    """A deal is dealt: its number (from 1), the dealer, and every seat's hand size."""

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
    """Trump is fixed for the deal, by a seat or by chance (`chooser` -1).

    Attributes:
        chooser: the seat that chose, or -1 when it was drawn at random.
        suit: the trump suit.
        playing: the playing team (0 North–South, 1 East–West).
    """

    chooser: int
    suit: Suit
    playing: int

    @property
    def text(self) -> str:
        """E.g. `North chooses ♥ as trump; North–South play.`"""
        team = TEAM_NAMES[self.playing]
        if self.chooser < 0:
            return f"{self.suit} is drawn as trump; {team} play."
        return f"{self.name_of(self.chooser)} chooses {self.suit} as trump; {team} play."


@dataclass(frozen=True, slots=True)
class CardPlayed(PublicAnnouncement, kind="card"):
    """A seat plays a card to the trick, in everyone's view.

    Attributes:
        seat: who plays.
        card: the card.
        lacks: the cards still in play that the rules show the seat cannot hold, given
            that this play was legal (see `play.inference`).
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
    """A trick is complete: who took it, its card points (10 more for the last) and roem."""

    winner: int
    cards: tuple[Card, ...]
    points: int
    roem: int
    last: bool = False

    @property
    def text(self) -> str:
        """E.g. `South takes the trick (21 points, 20 roem).`"""
        roem = f", {self.roem} roem" if self.roem else ""
        last = " and the last trick" if self.last else ""
        return f"{self.name_of(self.winner)} takes the trick{last} ({self.points} points{roem})."


@dataclass(frozen=True, slots=True)
class DealScored(PublicAnnouncement, kind="score"):
    """The deal's outcome per team (0 North–South, 1 East–West).

    Attributes:
        deal: the deal's number, from 1.
        trump: the trump suit.
        playing: the playing team.
        points: card points won (the last trick's 10 included).
        roem: roem won.
        scores: what each team scores for the deal.
        nat: the playing team went down (defenders score everything).
        pit: the playing team took every trick (100 extra).
        totals: the match totals after this deal.
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
    """The match is over: the teams' totals."""

    totals: tuple[int, int]

    @property
    def text(self) -> str:
        """E.g. `Match over: North–South 1620, East–West 1480. North–South win.`"""
        a, b = self.totals
        verdict = "A tie" if a == b else f"{TEAM_NAMES[0 if a > b else 1]} win"
        return f"Match over: {TEAM_NAMES[0]} {a}, {TEAM_NAMES[1]} {b}. {verdict}."
