"""Plain words for the guided game: each event and each thought explained as it happens.

Built from typed data only: an event's `facts` (`cards.fact_types`, the dice facts of
Blufpoker, Kemps' `NoKemps`) and a thought's `text` and `concluded` facts; no text is
parsed. `views.log_entries` adds an explanation to the entries a perspective may see, and
to nothing else, so a guided seat learns no more than its log already tells it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from epigames.cards import fact_types as ft
from epigames.games.blufpoker.dice import dice_text
from epigames.games.blufpoker.events import (
    Believes,
    Calls,
    Claims,
    Cup,
    Penalty,
    Rolled,
    Sees,
    Visible,
)
from epigames.games.events import Event, Fact, GroupObservation, PrivateObservation
from epigames.games.kemps.events import NoKemps, Places


def _items(values: Iterable[object]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    texts = [str(v) for v in values]
    if len(texts) <= 1:
        return "".join(texts) or "nothing"
    return f"{', '.join(texts[:-1])} and {texts[-1]}"


def _run_key(fact: ft.Holds | ft.Lacks | ft.Moved) -> tuple[type, int, int]:
    """Facts with the same key read as one phrase over their cards."""
    if isinstance(fact, ft.Moved):
        return (ft.Moved, fact.src, fact.dst)
    return (type(fact), fact.holder, -1)


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


@dataclass(frozen=True, slots=True)
class Guide:
    """Explains events and thoughts of one game in plain words.

    Attributes:
        names: the seats' display names; holders past the seats are the locations of
            card games, in the order `kemps.events.Places` gives (the table first, as
            Klaverjas's trick too).
    """

    names: tuple[str, ...]

    def who(self, holder: int) -> str:
        """A seat's name, or the location a holder index stands for."""
        if 0 <= holder < len(self.names):
            return self.names[holder]
        places = Places.of(len(self.names))
        where = {
            places.table: "the table",
            places.deck: "the deck",
            places.discard: "the discard pile",
            places.out: "the pile out of play",
        }
        return where.get(holder, f"place {holder}")

    def hand(self, holder: int) -> str:
        """Where a holder keeps cards: `West's hand`, `the table`."""
        return f"{self.names[holder]}'s hand" if 0 <= holder < len(self.names) else self.who(holder)

    # --- facts ----------------------------------------------------------------------

    def fact(self, fact: object) -> str:
        """One fact in words; a fact of a kind this guide does not know reads as its `str()`."""
        who, hand = self.who, self.hand
        match fact:
            case ft.Holds(holder=holder, card=card):
                return f"{who(holder)} holds {card}"
            case ft.Lacks(holder=holder, card=card):
                return f"{who(holder)} does not hold {card}"
            case ft.HoldsAtLeastOne(holder=holder, cards=cards):
                # Kwartet's cards have a kind: "a card of kind 8" says it without naming the
                # cards, which are not placed by it.
                kinds = {getattr(card, "kind", None) for card in cards}
                if len(kinds) == 1 and None not in kinds:
                    return f"{who(holder)} holds a card of kind {kinds.pop()}"
                return f"{who(holder)} holds at least one of {_items(cards)}"
            case ft.Count(holder=holder, n=n):
                return f"{who(holder)} has {_cards(n)}"
            case ft.Moved(card=card, src=src, dst=dst):
                return f"{card} goes from {hand(src)} to {hand(dst)}"
            case ft.Removed(cards=cards):
                return f"{_items(cards)} leave the game"
            case ft.Reshuffled(src=src, dst=dst):
                return f"the cards of {who(src)} are shuffled into {who(dst)}"
            case ft.Drew(holder=holder, n=n, src=src):
                return f"{who(holder)} draws {_cards(n)} face down from {who(src)}"
            case NoKemps(holder=holder):
                return f"{who(holder)}'s four cards are not four of a kind"
            case Rolled(seat=seat, count=count):
                dice = "1 die" if count == 1 else f"{count} dice"
                return f"{who(seat)} rolled {dice} under the cup (unseen by the others)"
            case Sees(seat=seat, roll=roll):
                return f"{who(seat)} has seen {roll} under the cup"
            case Visible(dice=()):
                return "no dice lie outside the cup"
            case Visible(dice=dice):
                return f"{dice_text(dice)} lie outside the cup for all to see"
            case Claims(seat=seat, roll=roll):
                return f"{who(seat)} claims the cup holds {roll}, which may be a bluff"
            case Cup(roll=roll):
                return f"the cup holds {roll}"
            case Believes(seat=seat, bidder=bidder, roll=roll):
                return f"{who(seat)} believes {who(bidder)}'s {roll}"
            case Calls(seat=seat, bidder=bidder, roll=roll):
                return f"{who(seat)} does not believe {who(bidder)}'s {roll}"
            case Penalty(seat=seat, count=count):
                penalties = "1 penalty" if count == 1 else f"{count} penalties"
                return f"{who(seat)} now has {penalties}"
        return str(fact)

    def facts(self, facts: Sequence[Fact]) -> str:
        """Facts in words; a run of cards one seat holds, lacks or moves reads as one phrase."""
        phrases: list[str] = []
        run: list[ft.Holds | ft.Lacks | ft.Moved] = []

        def flush() -> None:
            if len(run) > 1:
                cards = _items(f.card for f in run)
                first = run[0]
                if isinstance(first, ft.Moved):
                    phrases.append(
                        f"{cards} go from {self.hand(first.src)} to {self.hand(first.dst)}"
                    )
                else:
                    verb = "holds" if isinstance(first, ft.Holds) else "does not hold"
                    phrases.append(f"{self.who(first.holder)} {verb} {cards}")
            elif run:
                phrases.append(self.fact(run[0]))
            run.clear()

        for fact in facts:
            if not isinstance(fact, ft.Holds | ft.Lacks | ft.Moved):
                flush()
                phrases.append(self.fact(fact))
                continue
            if run and _run_key(run[0]) != _run_key(fact):
                flush()
            run.append(fact)
        flush()
        return "; ".join(phrases)

    # --- events and thoughts ----------------------------------------------------------

    def event(self, event: Event) -> str:
        """What an event shows, and to whom: everyone learns a public one's facts."""
        told = self.facts(event.facts)
        if event.public:
            who = "Now everyone knows"
        elif isinstance(event, PrivateObservation):
            who = f"Only {self.who(event.seat)} sees this and knows"
        elif isinstance(event, GroupObservation):
            who = f"Only {_items(self.who(s) for s in sorted(event.seats))} see this and know"
        else:
            who = "Some seats see this and know"
        return f"{event.text} {who}: {told}." if told else event.text

    def thought(
        self,
        seat: int,
        action: str | None,
        text: str,
        concluded: Sequence[Fact],
        *,
        human: bool,
    ) -> str:
        """Why a seat made its move, as far as this perspective may know it.

        Args:
            seat: who moved.
            action: the move's text; None when the move is another seat's, whose label
                and reasons stay its own (the events it caused say what it did).
            text: the thought's sentence.
            concluded: the facts the strategy concluded and acted on.
            human: the move was a person's.
        """
        name = self.who(seat)
        if action is None:
            return f"{name} moved; what you saw of the move follows. Its reasons stay its own."
        if human:
            return f"{name} (you) chose {action}."
        if not text:  # a replayed game keeps no thoughts
            return f"{name} chose {action}."
        said = f" It thinks: “{text}”"
        knew = f" What it concluded and acted on: {self.facts(concluded)}." if concluded else ""
        return f"{name} chose {action}.{said}{knew}"
