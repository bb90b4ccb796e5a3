"""What a knowledge-based strategy reads from its view, worked out once per decision.

Compiled with mypyc (`epigames.native`) with the reports' strategies and `expert`: a
`Reading` is then a native object whose answers are C fields filled on first use.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from epigames.cards import CardKnowledge, Holds
from epigames.cards.slots import rebuilt, slot_maker
from epigames.games.core import View
from epigames.games.kwartet.cards import ASKS, CARDS, MEMBERS, Card
from epigames.games.kwartet.rules import KwartetGame
from epigames.games.kwartet.views import KwartetView
from epigames.games.strategy import Decision, Thought


class Reading:
    """A seat's view as a strategy reads it: needed cards, known holders, probabilities.

    Every question is answered lazily and once, so a strategy pays only for the knowledge
    it uses (e.g. known holders need the possible-holders solve, probabilities need
    counting).

    Attributes:
        view: the seat's view (it is the seat's turn).
        game: the game (its parameters).
        seat: the seat.
        names: display names of the seats.
        missing: the cards the seat may ask for and does not hold, by kind (ascending).
    """

    def __init__(self, view: View) -> None:
        assert isinstance(view, KwartetView)
        self.view: KwartetView = view
        game = view.game
        assert isinstance(game, KwartetGame)
        self.game = game
        self.seat: int = view.seat
        self.names: tuple[str, ...] = view.game.seat_names
        own = view.hand_mask
        self.missing: tuple[Card, ...] = tuple(
            [c for c in view.askable_cards if not own >> c.index & 1]
        )
        # Each answer is worked out on first use (a strategy pays only for what it reads).
        self._knowledge: CardKnowledge | None = None
        self._known: tuple[tuple[Card, int], ...] | None = None
        self._missing_by_kind: dict[int, tuple[Card, ...]] | None = None
        self._complete_kinds: tuple[int, ...] | None = None
        self._needed: dict[int, int] | None = None

    @property
    def knowledge(self) -> CardKnowledge:
        """The seat's exact card knowledge."""
        got = self._knowledge
        if got is None:
            got = self._knowledge = self.view.knowledge
        return got

    @property
    def known(self) -> tuple[tuple[Card, int], ...]:
        """`(card, holder)` for every missing card whose holder the seat knows."""
        got = self._known
        if got is None:
            got = self._known = self._known_pairs()
        return got

    def _known_pairs(self) -> tuple[tuple[Card, int], ...]:
        # Card indices are the layout's indices (the layout is built from the deck in order).
        if not self.missing:
            return ()
        where = self.knowledge.known_holders()
        return tuple([(card, where[card.index]) for card in self.missing if where[card.index] >= 0])

    @property
    def missing_by_kind(self) -> dict[int, tuple[Card, ...]]:
        """The missing cards of each kind the seat holds (kind -> cards)."""
        got = self._missing_by_kind
        if got is None:
            kinds: dict[int, list[Card]] = {}
            for card in self.missing:
                kinds.setdefault(card.kind, []).append(card)
            got = self._missing_by_kind = {k: tuple(v) for k, v in kinds.items()}
        return got

    @property
    def complete_kinds(self) -> tuple[int, ...]:
        """Kinds whose every missing card has a known holder (asking them all completes it)."""
        got = self._complete_kinds
        if got is None:
            known = 0  # card indices: a set of cards would hash each in Python
            for card, _ in self.known:
                known |= 1 << card.index
            got = self._complete_kinds = tuple(
                [
                    k
                    for k, cards in self.missing_by_kind.items()
                    if all([known >> c.index & 1 for c in cards])
                ]
            )
        return got

    def possible(self, card: Card) -> tuple[int, ...]:
        """The seats that may hold `card`, as far as this seat knows (ascending)."""
        return tuple(sorted(self.knowledge.possible_holders(card)))

    @property
    def needed(self) -> dict[int, int]:
        """How many cards each kind the seat holds still needs to be complete."""
        got = self._needed
        if got is None:
            held: dict[int, int] = {}
            for c in self.view.hand_indices:
                kind = c // MEMBERS + 1
                held[kind] = held.get(kind, 0) + 1
            got = self._needed = {k: MEMBERS - n for k, n in held.items()}
        return got

    # -- decisions ---------------------------------------------------------------------

    def ask(self, target: int, card: Card, thought: str, *args: object) -> Decision:
        """The decision to ask `target` for `card`, concluding `Holds` when it knows so.

        The thought is a template over `args` (see `Thought`).
        """
        c = card.index
        concluded: tuple[Holds, ...] = ()
        if self.knowledge.known_holders()[c] == target:
            key = target * len(CARDS) + c
            sure = _HOLDS.get(key)
            if sure is None:
                sure = _HOLDS[key] = (Holds(target, card),)
            concluded = sure
        return _new_decision(Decision, (ASKS[target][c], _thought(thought, concluded, args)))

    def why_known(self, card: Card, holder: int) -> KnownHolder:
        """Why the seat knows `holder` has `card`: a phrase, made into words when read."""
        seen = bool(self.knowledge.public.holding[holder] >> card.index & 1)
        return _known_holder(self.names[holder], card, seen)

    def ask_known(self, rng: random.Random, pairs: Sequence[tuple[Card, int]]) -> Decision:
        """Ask for a random one of `pairs`, cards whose holder is known."""
        card, holder = pairs[int(rng.random() * len(pairs))]
        return self.ask(holder, card, "{}; I ask for it.", self.why_known(card, holder))

    def ask_random(self, rng: random.Random, why: str = "") -> Decision:
        """A uniformly random legal ask (any opponent with cards, any askable card)."""
        view = self.view
        targets, cards = view.targets, view.askable_cards
        target = targets[int(rng.random() * len(targets))]
        card = cards[int(rng.random() * len(cards))]
        lead = f"{why}; " if why else ""
        return self.ask(target, card, lead + "I ask {} for {} at random.", self.names[target], card)


#: `(Holds(target, card),)` by `target * len(CARDS) + card.index`: a fact is a value, and
#: a sure ask's thought concludes one (made in Python, a frozen dataclass costs a call).
_HOLDS: dict[int, tuple[Holds]] = {}


@dataclass(frozen=True, slots=True)
class KnownHolder:
    """Why a seat knows who holds a card: `str()` gives it in a few words.

    A value rather than a sentence, so that a thought is put into words only when read.

    Attributes:
        name: the holder's display name.
        card: the card.
        seen: the holder got the card in an ask everyone saw (else the other seats are
            ruled out).
    """

    name: str
    card: Card
    seen: bool

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)

    def __str__(self) -> str:
        name, card = self.name, self.card
        if self.seen:
            return f"I know {name} holds {card}: {name} got it in an ask everyone saw"
        return (
            f"I know {name} holds {card}: no other seat can have it "
            "(failed asks, hand sizes and my own hand rule them out)"
        )


#: The values a decision is made of, made without their Python-level constructors (a
#: frozen dataclass's `__init__`, a named tuple's `__new__`), which would cost as much as
#: the rest of a simple decision.
_thought: Final = slot_maker(Thought)
_known_holder: Final = slot_maker(KnownHolder)
_new_decision: Final = tuple.__new__

T = TypeVar("T")


def pick(rng: random.Random, items: Sequence[T]) -> T:
    """A uniformly random element (`int(random() * n)`: one draw, same in every process)."""
    return items[int(rng.random() * len(items))]
