"""Kemps actions: a swap with the table, the end of a turn, the team game's signal and
calls; the deck of a game."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Protocol

from epigames.cards import Card, Rank, Suit
from epigames.errors import InputError
from epigames.games.words import WordAction

HAND_SIZE = 4
#: A rank's cards: four of a kind is a Kemps.
OF_A_KIND = 4


class KempsActionError(InputError):
    """Text that is not a Kemps action (`swap 3 7♥`, `done`, `signal`, `kemps 2`, …) or card."""


@functools.cache
def kemps_deck(ranks: int) -> tuple[Card, ...]:
    """The `ranks` lowest ranks (2 up; 13 is the 52-card deck), rank by rank."""
    chosen = sorted(Rank, key=lambda r: r.value)[:ranks]
    return tuple(Card(rank, suit) for rank in chosen for suit in Suit)


@dataclass(frozen=True, slots=True)
class Swap:
    """Take the table card in `slot` (0-based) and put `card` from the hand in its place.

    Written with the slot counted from 1: `swap 3 7♥` takes the third table card.
    """

    slot: int
    card: Card

    def __str__(self) -> str:
        return f"swap {self.slot + 1} {self.card}"

    @classmethod
    def parse(cls, text: str) -> Swap:
        """Read `swap 3 7♥` (slot from 1, then the hand card to put down).

        Raises:
            KempsActionError: not of that form.
        """
        words = text.split()
        if len(words) != 3 or words[0].lower() != "swap" or not words[1].isdigit():
            raise KempsActionError(
                f"cannot read action {text!r}; expected 'swap SLOT CARD' (e.g. 'swap 3 7♥', "
                "slots counted from 1) or 'done'"
            )
        slot = int(words[1])
        if slot < 1:
            raise KempsActionError(f"cannot read action {text!r}: slots count from 1")
        try:
            card = Card.parse(words[2])
        except InputError as error:
            raise KempsActionError(f"cannot read action {text!r}: {error}") from None
        return cls(slot - 1, card)


@dataclass(frozen=True, slots=True)
class Done(WordAction, word="done"):
    """End the turn (with or without swaps)."""


DONE = Done()


@dataclass(frozen=True, slots=True)
class Signal(WordAction, word="signal"):
    """End the turn and make the team's secret signal (team game: the hand is four of a kind)."""


SIGNAL = Signal()


@dataclass(frozen=True, slots=True)
class Pass(WordAction, word="pass"):
    """Make no call in a call window (team game)."""


PASS = Pass()


@dataclass(frozen=True, slots=True)
class Call:
    """Call "Kemps!" for one's partner `seat`, or "Stop Kemps" against opponent `seat` (`stop`)."""

    seat: int
    stop: bool

    def __str__(self) -> str:
        return f"{'stop' if self.stop else 'kemps'} {self.seat}"


#: An action of either game.
KempsAction = Swap | Done | Signal | Pass | Call

#: Every swap made so far, by slot and card: the legal moves of every turn list them.
_SWAPS: dict[tuple[int, Card], Swap] = {}


def swap(slot: int, card: Card) -> Swap:
    """`Swap(slot, card)`, one value per slot and card (a frozen dataclass is slow to make)."""
    made = _SWAPS.get((slot, card))
    if made is None:
        made = _SWAPS[slot, card] = Swap(slot, card)
    return made


def legal_moves(
    game: KempsGameLike,
    seat: int,
    hand: tuple[Card, ...],
    table: tuple[Card, ...],
    put_down: frozenset[Card],
    swaps: int,
    window: tuple[int, ...],
) -> tuple[KempsAction, ...]:
    """The legal moves of `seat` at its turn, for the state and the views alike.

    `done`, then every swap of a table card (not one put down this turn) for a hand card;
    in the team game `signal` after `done` when the hand is four of a kind, and in a call
    window `pass`, Kemps! for the partner and Stop Kemps against each opponent.
    """
    if window:
        partner = game.partner(seat)
        mine = game.team_of(seat)
        stops = [Call(s, True) for s in range(game.players) if game.team_of(s) != mine]
        return (PASS, Call(partner, False), *stops)
    moves = [
        swap(slot, card)
        for slot, taken in enumerate(table)
        if taken not in put_down
        for card in hand
    ]
    if not game.team_game:
        return (DONE, *moves)
    four = len(hand) == OF_A_KIND and len({c.rank for c in hand}) == 1
    signal = (SIGNAL,) if four else ()
    return (DONE, *signal, *(moves if swaps < game.max_swaps else ()))


class KempsGameLike(Protocol):
    """What `legal_moves` reads of the game (the rules import this module)."""

    @property
    def players(self) -> int: ...

    @property
    def team_game(self) -> bool: ...

    @property
    def max_swaps(self) -> int: ...

    def partner(self, seat: int) -> int: ...

    def team_of(self, seat: int) -> int: ...


def parse_action(text: str, teams: bool = False) -> KempsAction | Card:
    """Read `swap 3 7♥`, `done`, or a card drawn by chance (`7♥`); in the team game also
    `signal`, `pass` (no call) and the calls `kemps SEAT` and `stop SEAT`. In the 2023 game
    `pass` ends the turn, as `done` does.

    Raises:
        KempsActionError: none of these.
    """
    stripped = text.strip()
    lower = stripped.lower()
    words = lower.split()
    if teams and lower == "pass":
        return PASS
    if teams and lower == "signal":
        return SIGNAL
    if teams and len(words) == 2 and words[0] in ("kemps", "stop"):
        if not words[1].isdigit():
            raise KempsActionError(
                f"cannot read action {text!r}; expected '{words[0]} SEAT' with a seat number"
            )
        return Call(int(words[1]), words[0] == "stop")
    if lower in ("done", "pass"):
        return DONE
    if lower.startswith("swap"):
        return Swap.parse(stripped)
    try:
        return Card.parse(stripped)
    except InputError:
        extra = ", 'signal', 'pass', 'kemps SEAT', 'stop SEAT'" if teams else ""
        raise KempsActionError(
            f"cannot read action {text!r}; expected 'swap SLOT CARD' (e.g. 'swap 3 7♥'), "
            f"'done'{extra}, or a card drawn by chance"
        ) from None
