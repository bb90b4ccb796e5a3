"""The events of a Kemps game and the facts they carry.

Holders in the facts are layout indices: the seats, then the table, the deck, the discard
pile and the cards out of the game (`holders`). Everything but a seat's own cards is
public: the table lies face up, a retired table goes to the discard pile in view, and a
Kemps shows the four cards that leave the game. In the team game a signal is seen by the
partners alone (`Signalled`); a call and its outcome are public.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from epigames.cards import Card, Count, Drew, Holds, Moved, Reshuffled
from epigames.cards.fact_types import CardFact, HolderNames
from epigames.games.card_events import Dealt as Dealt  # shared with the other card games
from epigames.games.events import (
    Event,
    Fact,
    GroupObservation,
    Passed as SeatPassed,
    PublicAnnouncement,
)

E = TypeVar("E", bound=Event)


@dataclass(frozen=True, slots=True)
class Places:
    """The layout indices of the locations of a game with `players` seats."""

    table: int
    deck: int
    discard: int
    out: int

    @classmethod
    @functools.cache  # every event's facts ask for it
    def of(cls, players: int) -> Places:
        """Seats first, then the table, the deck, the discard pile, out of the game."""
        return cls(players, players + 1, players + 2, players + 3)


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards) or "nothing"


def _after_swaps(swaps: int) -> str:
    return f"after {swaps} swap{'s' * (swaps != 1)}" if swaps else "without a swap"


def _leave(seat: int, cards: tuple[Card, ...], reshuffled: bool, players: int) -> tuple[Fact, ...]:
    """The seat held the four cards; they go out of the game; the reshuffle if any (the
    deck is short of a new hand)."""
    at = Places.of(players)
    held: tuple[Fact, ...] = tuple(Holds(seat, c) for c in cards)
    out = tuple(Moved.of(c, seat, at.out) for c in cards)
    shuffle = (Reshuffled(at.discard, at.deck),) if reshuffled else ()
    return (*held, *out, *shuffle)


@dataclass(frozen=True, slots=True)
class NoKemps(CardFact, name="no_kemps"):
    """``holder``'s four cards are not four of a kind (its turn ended without a Kemps)."""

    holder: int

    def words(self, names: HolderNames) -> str:
        return f"{names.who(self.holder)}'s four cards are not four of a kind"


@dataclass(frozen=True, slots=True)
class OneRank(CardFact, name="one_rank"):
    """``holder``'s four cards are of one rank (a team signal says so to the partner)."""

    holder: int


@dataclass(frozen=True, slots=True)
class GameDealt(PublicAnnouncement, kind="deal"):
    """The first deal: the table face up, four cards to each seat, the rest the deck.

    Attributes:
        table: the table's cards, face up, slot 1 first.
        hand_sizes: every seat's number of cards (4), in seat order.
        deck_size: the cards left face down in the deck.
    """

    table: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int

    @property
    def text(self) -> str:
        """E.g. `The cards are dealt: 4 each; on the table 6♥ 5♦ …; 34 in the deck.`"""
        sizes = ", ".join(f"{self.name_of(s)} {n}" for s, n in enumerate(self.hand_sizes))
        return (
            f"The cards are dealt ({sizes}); on the table {_cards(self.table)}; "
            f"{self.deck_size} in the deck."
        )

    @property
    def facts(self) -> tuple[Fact, ...]:
        """Each holder's count, then the table's cards."""
        at = Places.of(len(self.hand_sizes))
        counts: tuple[Fact, ...] = (
            *(Count(s, n) for s, n in enumerate(self.hand_sizes)),
            Count(at.table, len(self.table)),
            Count(at.deck, self.deck_size),
        )
        return (*counts, *(Holds(at.table, c) for c in self.table))


@dataclass(frozen=True, slots=True)
class Swapped(PublicAnnouncement, kind="swap"):
    """A seat takes the table card of a slot (0-based here, counted from 1 in its JSON and
    text, as in the actions) and puts a hand card in its place; `ends_turn` when it is the
    last swap a turn allows, which ends the turn with no `done`.

    Attributes:
        seat: the seat that swaps.
        slot: the table slot, counted from 1 in JSON (as in `swap 3 7♥`).
        taken: the table card the seat takes into its hand.
        put: the hand card the seat puts on the table in its place.
        players: the number of seats, which the facts' holder codes of the piles follow
            (the table is code `players`, then the deck, the discard pile, out of the game).
        ends_turn: whether this is the last swap the turn allows (`max_swaps`): the
            turn ends without `done`, and the step's next event ends it.
    """

    seat: int
    slot: int
    taken: Card
    put: Card
    players: int
    ends_turn: bool = False

    @property
    def text(self) -> str:
        """E.g. `South takes 5♦ (slot 2) and puts down 4♥.`"""
        who, slot = self.name_of(self.seat), self.slot + 1
        last = " That is the last swap of the turn." if self.ends_turn else ""
        return f"{who} takes {self.taken} (slot {slot}) and puts down {self.put}.{last}"

    def to_dict(self) -> dict[str, Any]:
        """The event's JSON, its slot counted from 1 as in `swap 3 7♥` and the text."""
        data = PublicAnnouncement.to_dict(self)
        data["slot"] = self.slot + 1
        return data

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The two public moves."""
        table = Places.of(self.players).table
        return (Moved.of(self.taken, table, self.seat), Moved.of(self.put, self.seat, table))


@dataclass(frozen=True, slots=True)
class TurnEnded(PublicAnnouncement, kind="turn"):
    """A seat ends its turn without a Kemps: its hand is not four of a kind.

    Attributes:
        seat: the seat whose turn ends.
        swaps: the swaps it made this turn.
    """

    seat: int
    swaps: int

    @property
    def text(self) -> str:
        """E.g. `West ends the turn after 2 swaps: no Kemps.`"""
        return f"{self.name_of(self.seat)} ends the turn {_after_swaps(self.swaps)}: no Kemps."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The seat's hand is not four of a kind."""
        return (NoKemps(self.seat),)


@dataclass(frozen=True, slots=True)
class TeamTurnEnded(PublicAnnouncement, kind="turn"):
    """A seat ends its turn in the team game: nobody may call for itself, so it says nothing
    of the hand.

    Attributes:
        seat: the seat whose turn ends.
        swaps: the swaps it made this turn.
    """

    seat: int
    swaps: int

    @property
    def text(self) -> str:
        """E.g. `West ends the turn after 2 swaps.`"""
        return f"{self.name_of(self.seat)} ends the turn {_after_swaps(self.swaps)}."


@dataclass(frozen=True, slots=True)
class Signalled(GroupObservation, kind="signal"):
    """A seat makes its team's secret signal: seen by the team alone (`seats`).

    Attributes:
        seats: the team: the seats that see the signal, in increasing order.
        seat: the seat that signals (its four cards are of one rank).
    """

    seat: int

    @property
    def text(self) -> str:
        """E.g. `South makes the team's secret signal: four of a kind.`"""
        return f"{self.name_of(self.seat)} makes the team's secret signal: four of a kind."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The seat's four cards are of one rank."""
        return (OneRank(self.seat),)


@dataclass(frozen=True, slots=True)
class Passed(SeatPassed, says="does not call."):
    """A seat makes no call in a call window: `East does not call.`"""


@dataclass(frozen=True, slots=True)
class Called(PublicAnnouncement, kind="call"):
    """A call and its outcome: "Kemps!" for a partner or "Stop Kemps" against an opponent
    (`stop`); when right, the target's four cards (`cards`) leave the game.

    Attributes:
        seat: the seat that calls.
        target: the seat called for (a partner) or against (an opponent).
        stop: whether it is "Stop Kemps" against an opponent (else "Kemps!" for a partner).
        cards: the target's four cards of one rank when the call is right (they leave the
            game); empty when it is wrong.
        scores: every seat's score after the call, in seat order (partners share their
            team's: +1 for each right call, -1 for each wrong one).
        reshuffled: whether the discard pile was shuffled into the deck (too few cards
            left there for the target's new hand).
        players: the number of seats, which the facts' holder codes of the piles follow
            (the table is code `players`, then the deck, the discard pile, out of the game).
    """

    seat: int
    target: int
    stop: bool
    cards: tuple[Card, ...]
    scores: tuple[int, ...]
    reshuffled: bool
    players: int

    @property
    def right(self) -> bool:
        """Whether the target held four of a kind."""
        return bool(self.cards)

    @property
    def text(self) -> str:
        """E.g. `North calls Kemps! for South: right, four 7s leave the game.`"""
        who, target = self.name_of(self.seat), self.name_of(self.target)
        call = f"Stop Kemps against {target}" if self.stop else f"Kemps! for {target}"
        team = self.scores[self.seat]
        if self.right:
            rank = self.cards[0].rank.text
            shuffle = " The discard pile is shuffled into the deck." if self.reshuffled else ""
            return (
                f"{who} calls {call}: right, four {rank}s leave the game "
                f"({who}'s team has {team}).{shuffle}"
            )
        return (
            f"{who} calls {call}: wrong, {target} has no four of a kind ({who}'s team has {team})."
        )

    @property
    def facts(self) -> tuple[Fact, ...]:
        """Right: the target held the cards, they go out of the game, the reshuffle if any;
        wrong: the target's hand is not four of a kind."""
        if not self.right:
            return (NoKemps(self.target),)
        return _leave(self.target, self.cards, self.reshuffled, self.players)


@dataclass(frozen=True, slots=True)
class Kemps(PublicAnnouncement, kind="kemps"):
    """A seat calls Kemps: its four cards of one rank leave the game, and it scores.

    Attributes:
        seat: the seat that calls Kemps.
        cards: its four cards of one rank, which leave the game.
        score: the seat's score (its number of Kemps) after this one.
        reshuffled: whether the discard pile was shuffled into the deck (too few cards
            left there for the seat's new hand).
        players: the number of seats, which the facts' holder codes of the piles follow
            (the table is code `players`, then the deck, the discard pile, out of the game).
    """

    seat: int
    cards: tuple[Card, ...]
    score: int
    reshuffled: bool
    players: int

    @property
    def text(self) -> str:
        """E.g. `North: Kemps! Four 7s leave the game (North has 2).`"""
        rank = self.cards[0].rank.text
        shuffle = " The discard pile is shuffled into the deck." if self.reshuffled else ""
        return (
            f"{self.name_of(self.seat)}: Kemps! Four {rank}s leave the game "
            f"({self.name_of(self.seat)} has {self.score}).{shuffle}"
        )

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The seat held the four cards; they go out of the game; the reshuffle if any
        (the deck is short of a new hand)."""
        return _leave(self.seat, self.cards, self.reshuffled, self.players)


@dataclass(frozen=True, slots=True)
class NewHand(PublicAnnouncement, kind="new_hand"):
    """After a Kemps, the seat draws a new hand face down from the deck.

    Attributes:
        seat: the seat that draws.
        n: how many cards it draws (4); which ones, only it sees (its `dealt` event).
        players: the number of seats, which the facts' holder codes of the piles follow
            (the table is code `players`, then the deck, the discard pile, out of the game).
    """

    seat: int
    n: int
    players: int

    @property
    def text(self) -> str:
        """E.g. `East draws a new hand of 4 from the deck.`"""
        return f"{self.name_of(self.seat)} draws a new hand of {self.n} from the deck."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The hidden draw."""
        return (Drew(self.seat, self.n, Places.of(self.players).deck),)


@dataclass(frozen=True, slots=True)
class TableCleared(PublicAnnouncement, kind="clear"):
    """Nobody changed the table for a while: it goes to the discard pile (and the pile
    into the deck when the deck is short of a new table).

    Attributes:
        cards: the table's cards, slot 1 first, which go to the discard pile.
        reshuffled: whether the discard pile was then shuffled into the deck.
        players: the number of seats, which the facts' holder codes of the piles follow
            (the table is code `players`, then the deck, the discard pile, out of the game).
    """

    cards: tuple[Card, ...]
    reshuffled: bool
    players: int

    @property
    def text(self) -> str:
        """E.g. `The table 6♥ 5♦ … goes to the discard pile.`"""
        shuffle = "; the discard pile is shuffled into the deck" if self.reshuffled else ""
        return f"The table {_cards(self.cards)} goes to the discard pile{shuffle}."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The table cards move to the discard pile; then the reshuffle if any."""
        at = Places.of(self.players)
        moves: tuple[Fact, ...] = tuple(Moved.of(c, at.table, at.discard) for c in self.cards)
        return (*moves, Reshuffled(at.discard, at.deck)) if self.reshuffled else moves


@dataclass(frozen=True, slots=True)
class TableDealt(PublicAnnouncement, kind="table"):
    """A new table is dealt face up from the deck.

    Attributes:
        cards: the new table's cards, slot 1 first.
        players: the number of seats, which the facts' holder codes of the piles follow
            (the table is code `players`, then the deck, the discard pile, out of the game).
    """

    cards: tuple[Card, ...]
    players: int

    @property
    def text(self) -> str:
        """E.g. `A new table: 3♥ 5♠ 4♦ 7♥ 3♦ 5♦.`"""
        return f"A new table: {_cards(self.cards)}."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """Each card moves from the deck to the table."""
        at = Places.of(self.players)
        return tuple(Moved.of(c, at.deck, at.table) for c in self.cards)


@dataclass(frozen=True, slots=True)
class GameOver(PublicAnnouncement, kind="end"):
    """The game ends: no cards left for a new hand, the target reached (team game) or the
    turn cap reached.

    Attributes:
        scores: every seat's score, in seat order (Kemps made; in the team game the
            team's calls, shared by the partners).
        capped: whether the game stopped at the turn cap (`max_turns`).
    """

    scores: tuple[int, ...]
    capped: bool

    @property
    def text(self) -> str:
        """E.g. `Game over: South 3, West 4, North 2.`"""
        scores = ", ".join(f"{self.name_of(s)} {n}" for s, n in enumerate(self.scores))
        why = " (turn cap reached)" if self.capped else ""
        return f"Game over{why}: {scores}."


#: Every event a Kemps game logs (`Game.event_types`).
EVENTS: tuple[type[Event], ...] = (
    Dealt,
    GameDealt,
    Swapped,
    TurnEnded,
    TeamTurnEnded,
    Signalled,
    Passed,
    Called,
    Kemps,
    NewHand,
    TableCleared,
    TableDealt,
    GameOver,
)

__all__ = [
    "EVENTS",
    "Called",
    "Dealt",
    "GameDealt",
    "GameOver",
    "Kemps",
    "NewHand",
    "NoKemps",
    "OneRank",
    "Passed",
    "Places",
    "Signalled",
    "Swapped",
    "TableCleared",
    "TableDealt",
    "TeamTurnEnded",
    "TurnEnded",
    "maker",
]


def maker(cls: type[E]) -> Callable[..., E]:
    """A function `make(*fields, names)` equal to `cls(*fields, names=names)`, without
    the frozen dataclass's `__init__` (each field set through `object.__setattr__`): the
    rules make an event for every move.

    The fields go in declared order, the seats' names last; it sets them through the
    slots' own setters (found along the class's bases), so the caller passes values
    `cls` would accept: the events here have no `__post_init__`.
    """
    names = [f.name for f in dataclasses.fields(cls) if f.name != "names"]
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    lines = [f"def make({', '.join([*names, 'names'])}):", "    obj = new(cls)"]
    for name in [*names, "names"]:
        scope[f"set_{name}"] = getattr(cls, name).__set__
        lines.append(f"    set_{name}(obj, {name})")
    lines.append("    return obj")
    exec("\n".join(lines), scope)  # the text is made above, from the field names
    make: Callable[..., E] = scope["make"]
    make.__qualname__ = f"maker.<{cls.__name__}>"
    return make
