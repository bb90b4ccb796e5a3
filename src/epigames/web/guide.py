"""Plain words for the guided game: each event and each thought explained as it happens.

Built from typed data only: an event's `facts` (each fact says itself in plain words,
`NamedFact.words`) and a thought's `text` and `concluded` facts; no text is parsed.
Holders are named as the game names them (`Game.holder_labels`: the seats, then its
piles). `views.log_entries` adds an explanation to the entries a perspective may see, and
to nothing else, so a guided seat learns no more than its log already tells it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from epigames.cards import fact_types as ft
from epigames.games.core import Game
from epigames.games.events import Event, Fact, GroupObservation, PrivateObservation


def _run_key(fact: ft.Holds | ft.Lacks | ft.Moved) -> tuple[type, int, int]:
    """Facts with the same key read as one phrase over their cards."""
    if isinstance(fact, ft.Moved):
        return (ft.Moved, fact.src, fact.dst)
    return (type(fact), fact.holder, -1)


@dataclass(frozen=True, slots=True)
class Guide:
    """Explains events and thoughts of one game in plain words.

    Attributes:
        names: how plain words name each holder: the seats, then the game's piles
            (`Game.holder_labels`).
        seats: how many of them are seats (the rest are piles).
    """

    names: tuple[str, ...]
    seats: int

    @classmethod
    def of(cls, game: Game) -> Guide:
        """The guide of a game: its holders as it names them."""
        return cls(game.holder_labels, game.num_players)

    def who(self, holder: int) -> str:
        """A seat's name, or a pile's words (`the deck`)."""
        if 0 <= holder < len(self.names):
            return self.names[holder]
        return f"place {holder}"

    def hand(self, holder: int) -> str:
        """Where a holder keeps cards: `West's hand`, `the table`."""
        return f"{self.names[holder]}'s hand" if 0 <= holder < self.seats else self.who(holder)

    # --- facts ----------------------------------------------------------------------

    def fact(self, fact: Fact) -> str:
        """One fact in words (`Fact.words`)."""
        return fact.words(self)

    def facts(self, facts: Sequence[Fact]) -> str:
        """Facts in words; a run of cards one seat holds, lacks or moves reads as one phrase."""
        phrases: list[str] = []
        run: list[ft.Holds | ft.Lacks | ft.Moved] = []

        def flush() -> None:
            if len(run) > 1:
                cards = ft.items_text(f.card for f in run)
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
            who = (
                f"Only {ft.items_text(self.who(s) for s in sorted(event.seats))} see this and know"
            )
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
