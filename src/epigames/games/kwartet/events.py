"""The events of a Kwartet game: the deal, asks, laid-down quartets, the end."""

from __future__ import annotations

from dataclasses import dataclass

from epigames.cards.fact_types import Count, Holds, HoldsAtLeastOne, Lacks, Moved, Removed
from epigames.games.card_events import Dealt as Dealt  # shared with the other card games
from epigames.games.events import Event, Fact, PublicAnnouncement
from epigames.games.kwartet.cards import Card, kind_cards


@dataclass(frozen=True, slots=True)
class DealDone(PublicAnnouncement, kind="deal"):
    """The deal is over; everyone sees how many cards each seat got.

    Attributes:
        hand_sizes: every seat's number of cards, in seat order.
    """

    hand_sizes: tuple[int, ...]

    @property
    def text(self) -> str:
        """E.g. `The cards are dealt: South 13, West 13, North 13, East 13.`"""
        sizes = ", ".join(f"{self.name_of(s)} {n}" for s, n in enumerate(self.hand_sizes))
        return f"The cards are dealt: {sizes}."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """Each seat's card count."""
        return tuple(Count(s, n) for s, n in enumerate(self.hand_sizes))


@dataclass(frozen=True, slots=True)
class Asked(PublicAnnouncement, kind="ask"):
    """A request and its answer, both public.

    Attributes:
        asker: the seat that asks.
        target: the seat asked.
        card: the card asked for.
        success: whether the target had it (then it moved to the asker).
        own_allowed: whether the rules let a player ask for a card it holds; when not,
            the request itself shows that the asker lacks the card.
    """

    asker: int
    target: int
    card: Card
    success: bool
    own_allowed: bool = True

    @property
    def text(self) -> str:
        """E.g. `South asks West for ⟨8,4⟩: West hands it over.`"""
        target = self.name_of(self.target)
        answer = f"{target} hands it over" if self.success else f"{target} does not have it"
        return f"{self.name_of(self.asker)} asks {target} for {self.card}: {answer}."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The asker holds a card of the kind; the answer; the move if any."""
        # Facts are values, and the same ask recurs in a game and across games: each is
        # made once (every seat's knowledge reads every ask's facts).
        key = (self.asker, self.target, self.card.index, self.success, self.own_allowed)
        made = _ASK_FACTS.get(key)
        if made is None:
            made = _ASK_FACTS[key] = _ask_facts(self)
        return made


def _ask_facts(ask: Asked) -> tuple[Fact, ...]:
    asker, target, card = ask.asker, ask.target, ask.card
    facts: list[Fact] = [HoldsAtLeastOne(asker, kind_cards(card.kind))]
    if not ask.own_allowed:
        facts.append(Lacks(asker, card))
    if ask.success:
        facts.append(Holds(target, card))
        facts.append(Moved.of(card, target, asker))
    else:
        facts.append(Lacks(target, card))
    return tuple(facts)


#: `Asked.facts` by the ask (card index): at most 6² seat pairs × 52 cards × 4 answers.
_ASK_FACTS: dict[tuple[int, int, int, bool, bool], tuple[Fact, ...]] = {}


@dataclass(frozen=True, slots=True)
class LaidDown(PublicAnnouncement, kind="quartet"):
    """A seat completed a kind and laid its four cards down for a point.

    Attributes:
        seat: who laid it down.
        card_kind: the kind (1-based).
        points: the seat's points after this.
    """

    seat: int
    card_kind: int
    points: int

    @property
    def cards(self) -> tuple[Card, ...]:
        """The four cards laid down."""
        return kind_cards(self.card_kind)

    @property
    def text(self) -> str:
        """E.g. `South lays down kind 8 and has 2 points.`"""
        plural = "point" if self.points == 1 else "points"
        return (
            f"{self.name_of(self.seat)} lays down kind {self.card_kind} "
            f"and has {self.points} {plural}."
        )

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The seat held all four; they leave play."""
        key = (self.seat, self.card_kind)
        made = _LAID_FACTS.get(key)
        if made is None:
            cards = self.cards
            held: tuple[Fact, ...] = tuple([Holds(self.seat, c) for c in cards])
            made = _LAID_FACTS[key] = (*held, Removed(cards))
        return made


#: `LaidDown.facts` by seat and kind, made once as `Asked.facts` are.
_LAID_FACTS: dict[tuple[int, int], tuple[Fact, ...]] = {}


@dataclass(frozen=True, slots=True)
class OutOfCards(PublicAnnouncement, kind="out"):
    """A seat's hand is empty: it stops playing.

    Attributes:
        seat: the seat out of cards; it is not asked again and asks no more.
    """

    seat: int

    @property
    def text(self) -> str:
        """E.g. `West has no cards left and stops playing.`"""
        return f"{self.name_of(self.seat)} has no cards left and stops playing."

    @property
    def facts(self) -> tuple[Fact, ...]:
        """The seat holds no card."""
        return (Count(self.seat, 0),)


@dataclass(frozen=True, slots=True)
class GameOver(PublicAnnouncement, kind="end"):
    """Every kind is down; the final scores.

    Attributes:
        scores: every seat's points (kinds laid down), in seat order; the most win.
    """

    scores: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the most points."""
        best = max(self.scores)
        return tuple(s for s, n in enumerate(self.scores) if n == best)

    @property
    def text(self) -> str:
        """E.g. `Game over: South 4, West 3, North 3, East 3. South wins.`"""
        scores = ", ".join(f"{self.name_of(s)} {n}" for s, n in enumerate(self.scores))
        names = [self.name_of(s) for s in self.winners]
        verdict = f"{names[0]} wins" if len(names) == 1 else "Tie between " + " and ".join(names)
        return f"Game over: {scores}. {verdict}."


#: Every event a Kwartet game logs (`Game.event_types`).
EVENTS: tuple[type[Event], ...] = (Dealt, DealDone, Asked, LaidDown, OutOfCards, GameOver)
