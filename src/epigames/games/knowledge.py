"""The `Knowledge` protocol: what one seat knows about the hidden part of a game.

Every game's views offer it as `view.knowledge`, derived from the seat's observations
only. The hidden part is a set of *subjects* (a card, the cup), each with one *value* in
the true state (the card's holder, the roll under the cup). Card games implement it with
`epigames.cards.CardKnowledge` (subject: a card; value: a holder index), Blufpoker with
`CupKnowledge` (subject: `"cup"`; value: a `Roll`). The game declares the subjects and
values in order (`Game.knowledge_axes`); `matrices()` gives the whole knowledge as arrays
over them, for learners (`epigames.adapters`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from fractions import Fraction
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from epigames.logic.formula import Formula
from epigames.logic.picture import KripkePicture

S = TypeVar("S", contravariant=True)
V = TypeVar("V")


class Knowledge(Protocol[S, V]):
    """What one seat knows and believes: exact, and derived from its own view alone."""

    def holder(self, subject: S) -> V | None:
        """The subject's value if the seat knows it (the card's holder, the roll), else None."""
        ...

    def possible_holders(self, subject: S) -> frozenset[V]:
        """Every value some world the seat considers possible gives the subject."""
        ...

    def probability(self, subject: S, value: V) -> Fraction:
        """The exact chance the subject has `value`, possible worlds weighed by chance."""
        ...

    def matrices(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Two arrays of shape (subjects, values), in the order of the game's
        `Game.knowledge_axes`: 1 where a value is possible, then its exact probability
        (rounded to float; all zero while no probability is defined)."""
        ...

    def sample_world(self, rng: random.Random) -> Hashable:
        """One world drawn from the seat's belief (uniform over deals, by dice odds)."""
        ...

    def worlds_count(self) -> int:
        """How many worlds the seat considers possible."""
        ...

    def known_values(self) -> dict[str, str]:
        """Every subject whose value the seat knows, as text (card → holder name, cup → roll)."""
        ...

    def knows(self, formula: Formula) -> bool:
        """Whether the formula holds in every world the seat considers possible."""
        ...

    def picture(self, subject: str) -> KripkePicture:
        """The subject's Kripke model from this seat's view (true world only if known).

        Raises:
            InputError: no such subject.
        """
        ...


#: A seat's knowledge of any game, as `View.knowledge` declares it.
AnyKnowledge = Knowledge[Any, Any]
