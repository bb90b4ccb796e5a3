"""The events of a Blufpoker game: rolls, looks under the cup, bids, calls, the poker phase.

Facts (see `epigames.games.events`) are the typed dice facts below; a bid is a *claim*,
never a fact about the cup, except the opening bid, which the rules force to be true:

- `Rolled(seat, count)`: the seat rolled `count` dice under the cup.
- `Sees(seat, roll)`: the seat sees the cup holds `roll` (private).
- `Visible(seat, dice)`: the dice the seat did not roll lie outside the cup.
- `Claims(seat, roll)`: the seat bids `roll` (it may be a bluff).
- `Cup(roll)`: the cup holds `roll` (an opening bid, a lifted cup, open poker dice).
- `Believes(seat, bidder, roll)` / `Calls(seat, bidder, roll)`.
- `Penalty(seat, count)`: the seat now has `count` penalties.

Each has a positional form (`as_tuple`, e.g. `("rolled", 1, 3)`), which the event JSON
gives, and named fields (`to_dict`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from epigames.cards.fact_types import HolderNames, NamedFact
from epigames.games.blufpoker.dice import Dice, Roll, dice_text
from epigames.games.events import Event, Fact, PrivateObservation, PublicAnnouncement


@dataclass(frozen=True, slots=True)
class DiceFact(NamedFact):
    """Base of the dice facts: dice read ``6 5 3`` (a list in JSON), a roll its ``str()``.

    ``name`` and the fields give the positional form and the named fields (`NamedFact`).
    """

    def _field_text(self, key: str, value: Any) -> str:
        return dice_text(value) if isinstance(value, tuple) else str(value)

    def _field_json(self, key: str, value: Any) -> Any:
        if isinstance(value, tuple):
            return list(value)
        return value if isinstance(value, int) else str(value)


@dataclass(frozen=True, slots=True)
class Rolled(DiceFact, name="rolled"):
    """``seat`` rolled ``count`` dice under the cup."""

    seat: int
    count: int

    def words(self, names: HolderNames) -> str:
        dice = "1 die" if self.count == 1 else f"{self.count} dice"
        return f"{names.who(self.seat)} rolled {dice} under the cup (unseen by the others)"


@dataclass(frozen=True, slots=True)
class Sees(DiceFact, name="sees"):
    """``seat`` sees that the cup holds ``roll`` (a private observation)."""

    seat: int
    roll: Roll

    def words(self, names: HolderNames) -> str:
        return f"{names.who(self.seat)} has seen {self.roll} under the cup"


@dataclass(frozen=True, slots=True)
class Visible(DiceFact, name="visible"):
    """The ``dice`` that ``seat`` did not roll lie outside the cup."""

    seat: int
    dice: Dice

    def words(self, names: HolderNames) -> str:
        if not self.dice:
            return "no dice lie outside the cup"
        return f"{dice_text(self.dice)} lie outside the cup for all to see"


@dataclass(frozen=True, slots=True)
class Claims(DiceFact, name="claims"):
    """``seat`` bids ``roll``: a claim, which may be a bluff."""

    seat: int
    roll: Roll

    def words(self, names: HolderNames) -> str:
        return f"{names.who(self.seat)} claims the cup holds {self.roll}, which may be a bluff"


@dataclass(frozen=True, slots=True)
class Cup(DiceFact, name="cup"):
    """The cup holds ``roll`` (an opening bid, a lifted cup, open poker dice)."""

    roll: Roll

    def words(self, names: HolderNames) -> str:
        return f"the cup holds {self.roll}"


@dataclass(frozen=True, slots=True)
class Believes(DiceFact, name="believes"):
    """``seat`` believes ``bidder``'s bid ``roll`` (still only a claim)."""

    seat: int
    bidder: int
    roll: Roll

    def words(self, names: HolderNames) -> str:
        return f"{names.who(self.seat)} believes {names.who(self.bidder)}'s {self.roll}"


@dataclass(frozen=True, slots=True)
class Calls(DiceFact, name="calls"):
    """``seat`` calls ``bidder``'s bid ``roll``."""

    seat: int
    bidder: int
    roll: Roll

    def words(self, names: HolderNames) -> str:
        return f"{names.who(self.seat)} does not believe {names.who(self.bidder)}'s {self.roll}"


@dataclass(frozen=True, slots=True)
class Penalty(DiceFact, name="penalty"):
    """``seat`` now has ``count`` penalties."""

    seat: int
    count: int

    def words(self, names: HolderNames) -> str:
        penalties = "1 penalty" if self.count == 1 else f"{self.count} penalties"
        return f"{names.who(self.seat)} now has {penalties}"


def _penalty_text(loser: str, count: int, limit: int) -> str:
    return f"{loser} gets a penalty ({count} of {limit} penalt{'y' if limit == 1 else 'ies'})."


@dataclass(frozen=True, slots=True)
class CupSeen(PrivateObservation, kind="sees"):
    """The cup holder looks under the cup (after believing, or after rolling).

    Attributes:
        untouched: dice not rolled yet this turn.
        fresh: dice rolled this turn (their new faces).
    """

    untouched: Dice
    fresh: Dice

    @property
    def roll(self) -> Roll:
        """What the cup holds."""
        return Roll.of(self.untouched + self.fresh)

    @property
    def text(self) -> str:
        """E.g. `Bob sees 6 5 3 under the cup.`"""
        who = self.name_of(self.seat)
        cup = dice_text(self.roll.dice)
        if not self.fresh:
            return f"{who} sees {cup} under the cup."
        return f"{who} rolled {dice_text(self.fresh)}: the cup holds {cup}."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The seat sees the roll."""
        return (Sees(self.seat, self.roll),)


@dataclass(frozen=True, slots=True)
class Opened(PublicAnnouncement, kind="open"):
    """A round starts: its first player rolls all three dice and must bid what it rolled.

    Attributes:
        seat: the first player.
        round: the round number, from 1.
        roll: the opening bid, true by rule.
    """

    seat: int
    round: int
    roll: Roll

    @property
    def text(self) -> str:
        """E.g. `Round 2: Ann rolls all three dice and opens with 653 (true by rule).`"""
        who = self.name_of(self.seat)
        return (
            f"Round {self.round}: {who} rolls all three dice and opens with {self.roll} "
            "(true by rule)."
        )

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The seat rolled three dice, claims the roll, and the rules make it true."""
        return (
            Rolled(self.seat, 3),
            Claims(self.seat, self.roll),
            Cup(self.roll),
        )


@dataclass(frozen=True, slots=True)
class Called(PublicAnnouncement, kind="call"):
    """A player calls the bid: the cup is lifted and someone gets a penalty.

    Attributes:
        seat: the caller.
        bidder: whose bid is called.
        bid: the bid.
        roll: what the lifted cup shows.
        loser: the bidder if the roll is lower than the bid, else the caller.
        penalties: the loser's penalties now.
        limit: penalties that lose the game.
    """

    seat: int
    bidder: int
    bid: Roll
    roll: Roll
    loser: int
    penalties: int
    limit: int

    @property
    def text(self) -> str:
        """E.g. `Cas calls Bob's 654: the cup shows 6 4 2, lower: Bob gets a penalty (1 of 5).`"""
        caller, bidder = self.name_of(self.seat), self.name_of(self.bidder)
        verdict = "lower" if self.roll < self.bid else "at least that"
        return (
            f"{caller} calls {bidder}'s {self.bid}: the cup shows {dice_text(self.roll.dice)}, "
            f"{verdict}: {_penalty_text(self.name_of(self.loser), self.penalties, self.limit)}"
        )

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The call, the lifted cup and the penalty."""
        return (
            Calls(self.seat, self.bidder, self.bid),
            Cup(self.roll),
            Penalty(self.loser, self.penalties),
        )


@dataclass(frozen=True, slots=True)
class Believed(PublicAnnouncement, kind="believe"):
    """A player believes the bid and takes the cup (a poker bid starts the poker phase).

    Attributes:
        seat: the believer.
        bidder: whose bid it believes.
        bid: the bid.
    """

    seat: int
    bidder: int
    bid: Roll

    @property
    def text(self) -> str:
        """E.g. `Cas believes Bob's 654 and takes the cup.`"""
        who, bidder = self.name_of(self.seat), self.name_of(self.bidder)
        if self.bid.is_poker:
            return f"{who} believes {bidder}'s poker {self.bid}: three open rolls to reach it."
        return f"{who} believes {bidder}'s {self.bid} and takes the cup."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The seat believes the claim (still only a claim)."""
        return (Believes(self.seat, self.bidder, self.bid),)


@dataclass(frozen=True, slots=True)
class DiceRolled(PublicAnnouncement, kind="roll"):
    """The cup holder rolls some dice under the cup (others see how many, not the faces).

    Attributes:
        seat: the cup holder.
        count: how many dice.
    """

    seat: int
    count: int

    @property
    def text(self) -> str:
        """E.g. `Cas rolls 2 dice under the cup.`"""
        dice = "1 die" if self.count == 1 else f"{self.count} dice"
        return f"{self.name_of(self.seat)} rolls {dice} under the cup."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """How many dice were rolled."""
        return (Rolled(self.seat, self.count),)


@dataclass(frozen=True, slots=True)
class Stopped(PublicAnnouncement, kind="stop"):
    """The cup holder stops rolling; the dice it did not roll go outside the cup.

    Attributes:
        seat: the cup holder.
        visible: the faces outside the cup, high to low (none if all three were rolled).
    """

    seat: int
    visible: Dice

    @property
    def text(self) -> str:
        """E.g. `Cas stops: 6 5 outside the cup.`"""
        who = self.name_of(self.seat)
        if not self.visible:
            return f"{who} has rolled all three dice: none outside the cup."
        return f"{who} stops: {dice_text(self.visible)} outside the cup."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The visible dice (part of the cup: a public announcement)."""
        return (Visible(self.seat, self.visible),)


@dataclass(frozen=True, slots=True)
class BidMade(PublicAnnouncement, kind="bid"):
    """The cup holder bids (higher than the previous bid) and passes the cup on.

    Attributes:
        seat: the bidder.
        roll: the bid.
        over: the bid it had to beat.
    """

    seat: int
    roll: Roll
    over: Roll

    @property
    def text(self) -> str:
        """E.g. `Cas bids 655 (over 654).`"""
        return f"{self.name_of(self.seat)} bids {self.roll} (over {self.over})."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """A claim, not a fact about the cup."""
        return (Claims(self.seat, self.roll),)


@dataclass(frozen=True, slots=True)
class PokerThrow(PublicAnnouncement, kind="poker-roll"):
    """One open roll of the poker phase.

    Attributes:
        seat: who plays the poker phase.
        kept: the dice kept from the previous roll.
        dice: all three faces after the roll.
        number: which roll (1 to 3).
    """

    seat: int
    kept: Dice
    dice: Dice
    number: int

    @property
    def text(self) -> str:
        """E.g. `Cas keeps 5 5 and rolls openly: 5 5 2 (roll 2 of 3).`"""
        keeps = f"keeps {dice_text(self.kept)} and " if self.kept else ""
        return (
            f"{self.name_of(self.seat)} {keeps}rolls openly: {dice_text(self.dice)} "
            f"(roll {self.number} of 3)."
        )

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The open dice."""
        return (Cup(Roll.of(self.dice)),)


@dataclass(frozen=True, slots=True)
class PokerDone(PublicAnnouncement, kind="poker"):
    """The poker phase's outcome.

    Attributes:
        seat: who played it.
        bidder: who bid the poker.
        target: the poker bid.
        dice: the final open dice.
        loser: who gets a penalty, or -1 when the poker was equalled.
        penalties: the loser's penalties now (0 without a loser).
        limit: penalties that lose the game.
    """

    seat: int
    bidder: int
    target: Roll
    dice: Dice
    loser: int
    penalties: int
    limit: int

    @property
    def text(self) -> str:
        """E.g. `Cas's 5 5 5 beats the poker 444: Bob gets a penalty (1 of 5).`"""
        who = self.name_of(self.seat)
        roll = Roll.of(self.dice)
        if self.loser < 0:
            return f"{who}'s {dice_text(self.dice)} equals the poker {self.target}: no penalty."
        verdict = "beats" if roll > self.target else "does not reach"
        return (
            f"{who}'s {dice_text(self.dice)} {verdict} the poker {self.target}: "
            f"{_penalty_text(self.name_of(self.loser), self.penalties, self.limit)}"
        )

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The penalty, if any."""
        return () if self.loser < 0 else (Penalty(self.loser, self.penalties),)


@dataclass(frozen=True, slots=True)
class GameOver(PublicAnnouncement, kind="end"):
    """A player reached the penalty limit and loses; everyone else wins.

    Attributes:
        loser: the losing seat.
        penalties: every seat's penalties.
    """

    loser: int
    penalties: tuple[int, ...]

    @property
    def text(self) -> str:
        """E.g. `Game over: Ann 5, Bob 3, Cas 1 penalties. Ann loses.`"""
        counts = ", ".join(f"{self.name_of(s)} {n}" for s, n in enumerate(self.penalties))
        return f"Game over: {counts} penalties. {self.name_of(self.loser)} loses."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """Every seat's penalties."""
        return tuple(Penalty(s, n) for s, n in enumerate(self.penalties))


#: Every event a Blufpoker game logs (`Game.event_types`).
EVENTS: tuple[type[Event], ...] = (
    Opened,
    CupSeen,
    Called,
    Believed,
    DiceRolled,
    Stopped,
    BidMade,
    PokerThrow,
    PokerDone,
    GameOver,
)
