"""Events of the game log: public announcements, private and group observations.

Who observes an event: every seat (`PublicAnnouncement`, which becomes common knowledge),
one seat (`PrivateObservation`) or a set of seats (`GroupObservation`: a partner's signal,
a card passed face down to some players). `epigames.games.epistemic` turns each kind into
the matching action model of the logic engine.

Every event is a frozen, slotted dataclass with structured fields, a human `text` and a
formula-ready `facts` tuple. Facts are typed values (see `Fact`): card games use those of
`epigames.cards.fact_types`, whose holders are seat (or location) indices:

- `Holds(seat, card)`: the seat holds the card (at this point of the event).
- `Lacks(seat, card)`: the seat does not hold the card.
- `HoldsAtLeastOne(seat, cards)`: the seat holds at least one of the cards.
- `Count(seat, n)`: the seat holds exactly `n` cards.
- `Moved(card, src, dst)`: the card moved from holder `src` to holder `dst`.
- `Removed(cards)`: the cards left play (e.g. a completed kind was laid down).
- `Reshuffled(src, dst)`: a pile's cards go to another and are shuffled.
- `Drew(seat, n, src)`: the seat, holding nothing, draws `n` cards face down from `src`.

Other games define their own (Blufpoker's dice facts in `games/blufpoker/events.py`).
Consumers dispatch on the type; the JSON of an event gives each fact in its positional
form (`Fact.as_tuple`, e.g. `["holds", 2, "⟨8,4⟩"]`).

Facts are listed in the order they happen: claims first, then the changes they describe,
so a logic engine can replay them as announcements followed by updates.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from epigames.cards.fact_types import HolderNames
from epigames.class_keywords import set_given


class Fact(Protocol):
    """One formula-ready fact, e.g. `Lacks(2, Card(8, 4))`: a frozen value with a readable `str()`.

    Card facts are in `epigames.cards.fact_types`; games may add their own (Blufpoker's
    dice facts), most simply on `NamedFact` there, which renders a fact from its fields.
    """

    def words(self, names: HolderNames) -> str:
        """The fact in plain words, holders named by `names` (the guided game's sentences)."""
        ...

    def as_tuple(self) -> tuple[Hashable, ...]:
        """The positional form, e.g. `("lacks", 2, Card(8, 4))`; the event JSON uses it."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """Named JSON fields, with `"fact"` the fact's name."""
        ...


def to_jsonable(value: object) -> Any:
    """Turn event data into JSON values: tuples become lists, value objects their `str()`."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list | frozenset | set):
        items = sorted(value, key=str) if isinstance(value, frozenset | set) else value
        return [to_jsonable(v) for v in items]
    return str(value)


@dataclass(frozen=True, slots=True)
class Event:
    """An entry of the game log; a game subclasses one of the observation kinds below.

    The kinds say who observes the event: `PublicAnnouncement`, `PrivateObservation`,
    `GroupObservation`.

    Attributes:
        names: the seats' display names, used only to render `text`; not part of the
            event's identity.
    """

    kind: ClassVar[str] = "event"
    #: Whether every seat observes this event (a class constant: read on every move).
    public: ClassVar[bool] = False
    names: tuple[str, ...] = field(default=(), compare=False, repr=False, kw_only=True)

    def __init_subclass__(cls, *, kind: str = "", public: bool | None = None) -> None:
        """Set the class constants given as class keywords: ``class Asked(Event, kind="ask")``."""
        set_given(cls, kind=kind, public=public)

    def visible_to(self, seat: int) -> bool:
        """Whether `seat` observes this event."""
        raise NotImplementedError

    def audience(self) -> int:
        """The seats that observe this event as a bit mask (bit `s` for seat `s`).

        A public event sees every seat, however many the game has: -1, all bits set.
        """
        raise NotImplementedError

    @property
    def text(self) -> str:
        """One human sentence describing the event."""
        raise NotImplementedError

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The formula-ready description (see the module docstring)."""
        return ()

    def name_of(self, seat: int) -> str:
        """The display name of a seat, or `seat N` when the event carries no names."""
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def to_dict(self) -> dict[str, Any]:
        """All content as JSON values: kind, public, the fields, text and facts."""
        data: dict[str, Any] = {"kind": self.kind, "public": self.public}
        for f in dataclasses.fields(self):
            if f.name != "names":
                data[f.name] = to_jsonable(getattr(self, f.name))
        data["text"] = self.text
        # The positional form keeps the JSON what it was when facts were plain tuples.
        data["facts"] = [to_jsonable(fact.as_tuple()) for fact in self.facts]
        return data


@dataclass(frozen=True, slots=True)
class PublicAnnouncement(Event, kind="announcement", public=True):
    """An event every seat observes; it becomes common knowledge."""

    def visible_to(self, seat: int) -> bool:
        """Every seat sees it."""
        return True

    def audience(self) -> int:
        """Every seat: all bits set."""
        return -1


@dataclass(frozen=True, slots=True)
class Passed(PublicAnnouncement, kind="pass"):
    """A seat lets its chance go by (no trump in bidding, no call in a call window).

    A game subclasses it only to say it in its own words: ``says="does not call."``.

    Attributes:
        seat: the seat that passes.
    """

    #: What the seat is said to do, after its name.
    says: ClassVar[str] = "passes."
    seat: int

    def __init_subclass__(cls, *, says: str = "", **constants: Any) -> None:
        # The explicit base: zero-argument super() fails in slotted dataclasses.
        super(Passed, cls).__init_subclass__(**constants)
        set_given(cls, says=says)

    @property
    def text(self) -> str:
        """E.g. `East passes.`"""
        return f"{self.name_of(self.seat)} {self.says}"


@dataclass(frozen=True, slots=True)
class PrivateObservation(Event, kind="observation"):
    """An event only `seat` observes (e.g. its own hand after the deal).

    Attributes:
        seat: the seat that observes it, the only one.
    """

    seat: int

    def visible_to(self, seat: int) -> bool:
        """Only the observing seat sees it."""
        return seat == self.seat

    def audience(self) -> int:
        """The observing seat's bit."""
        return 1 << self.seat


@dataclass(frozen=True, slots=True)
class GroupObservation(Event, kind="group"):
    """An event only the seats in `seats` observe (a partner's signal, a card shown to some).

    The members also know who else is in the group, so within it the event becomes common
    knowledge; the other seats do not see that it happened. `public` stays False even when
    the group holds every seat: an event does not know how many seats the game has.

    Attributes:
        seats: the seats that observe it, in increasing order in JSON.
    """

    seats: frozenset[int]

    def __post_init__(self) -> None:
        # A set or list given here would make the frozen event unhashable or order-dependent.
        object.__setattr__(self, "seats", frozenset(self.seats))

    def visible_to(self, seat: int) -> bool:
        """Only the seats of the group see it."""
        return seat in self.seats

    def audience(self) -> int:
        """The group's bits."""
        mask = 0
        for seat in self.seats:
            mask |= 1 << seat
        return mask

    def to_dict(self) -> dict[str, Any]:
        """As `Event.to_dict`, with `seats` in increasing order (not as text: seat 10 after 9)."""
        # Zero-argument super() fails in slotted dataclasses, hence the explicit base.
        data = Event.to_dict(self)
        data["seats"] = sorted(self.seats)
        return data
