"""Observations as fixed-size arrays, built from a seat's `View` alone.

Two kinds, the same size for every seat of a game:

- `"hand"`: the seat (one-hot) and its private items (`View.private_items()`: its cards,
  or the roll it saw under the cup) as a 0/1 vector over every such item of the game.
- `"knowledge"`: the hand, then the seat's exact knowledge from `view.knowledge`: for
  each subject (a card; the cup) and each value (a holder; a roll) whether the seat
  considers it possible and its exact probability. Card games give the
  (cards × holders) matrices of `CardKnowledge`, Blufpoker the distribution over the 56
  rolls.

The subjects and values come from the knowledge's type (the `Knowledge` protocol has no
list of them), read from the first decision of a game played with a fixed seed.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable
from typing import Literal

import numpy as np
import numpy.typing as npt

from epigames.cards import CardKnowledge
from epigames.errors import InputError
from epigames.games import CHANCE, TERMINAL, Game, View, load_game
from epigames.games.blufpoker import CupKnowledge, UndefinedBeliefError
from epigames.games.blufpoker.dice import ROLLS
from epigames.games.knowledge import AnyKnowledge

ObservationKind = Literal["hand", "knowledge"]
OBSERVATIONS: tuple[ObservationKind, ...] = ("hand", "knowledge")
Vector = npt.NDArray[np.float32]


class UnknownObservationError(InputError):
    """An observation kind other than `hand` or `knowledge`, or a game that cannot give it."""


def check_observation(kind: str) -> ObservationKind:
    """The kind itself if it is `hand` or `knowledge`.

    Raises:
        UnknownObservationError: anything else.
    """
    for known in OBSERVATIONS:
        if kind == known:
            return known
    raise UnknownObservationError(
        f"unknown observation {kind!r}; choose one of: {', '.join(OBSERVATIONS)}"
    )


def first_decision_view(game: Game, seed: int = 0) -> View:
    """The view of the first seat to decide, chance drawn from `random.Random(seed)`."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        state.apply(outcomes[rng.randrange(len(outcomes))][0])
    if state.current_player == TERMINAL:
        return state.observation(0)
    return state.observation(state.current_player)


class Encoder:
    """Turns a game's views into vectors of fixed size.

    Attributes:
        game: the game.
        kind: `hand` or `knowledge`.
        items: every private item a seat may hold, in vector order.
        subjects: the knowledge's subjects (cards, or the cup), in order.
        values: the values a subject may take (holder indices, or rolls), in order.
        size: the length of every vector.
    """

    def __init__(self, game: Game, kind: ObservationKind) -> None:
        self.game = game
        self.kind = kind
        knowledge = first_decision_view(game).knowledge
        self.subjects: tuple[Hashable, ...]
        self.values: tuple[Hashable, ...]
        if isinstance(knowledge, CardKnowledge):
            self.items = knowledge.layout.cards
            self.subjects = self.items
            self.values = tuple(range(knowledge.layout.n_holders))
        elif isinstance(knowledge, CupKnowledge):
            self.items = ROLLS
            self.subjects = ("cup",)
            self.values = ROLLS
        else:
            raise UnknownObservationError(
                f"{game.name}: no array encoding for knowledge of type {type(knowledge).__name__}"
            )
        self._item_index = {item: i for i, item in enumerate(self.items)}
        self._value_index = {value: i for i, value in enumerate(self.values)}
        self.hand_size = game.num_players + len(self.items)
        self.knowledge_size = 2 * len(self.subjects) * len(self.values)
        self.size = self.hand_size + (self.knowledge_size if kind == "knowledge" else 0)

    def encode(self, view: View) -> Vector:
        """The observation vector of a view."""
        vector = np.zeros(self.size, dtype=np.float32)
        vector[view.seat] = 1.0
        offset = self.game.num_players
        for item in view.private_items():
            vector[offset + self._item_index[item]] = 1.0
        if self.kind == "knowledge":
            try:
                knowledge = view.knowledge
            except ValueError:
                return vector  # before the first deal there is no knowledge yet: zeros
            vector[self.hand_size :] = self.knowledge_arrays(knowledge).ravel()
        return vector

    def knowledge_arrays(self, knowledge: AnyKnowledge) -> npt.NDArray[np.float32]:
        """Shape (2, subjects, values): 1 where a value is possible, then its probability."""
        arrays = np.zeros((2, len(self.subjects), len(self.values)), dtype=np.float32)
        if isinstance(knowledge, CardKnowledge):
            for holder, cards in enumerate(knowledge.possible_masks()):
                for card in range(len(self.subjects)):
                    arrays[0, card, holder] = cards >> card & 1
            arrays[1] = knowledge.marginals()
            return arrays
        for s, subject in enumerate(self.subjects):
            for value in knowledge.possible_holders(subject):
                arrays[0, s, self._value_index[value]] = 1.0
            try:
                for value in knowledge.possible_holders(subject):
                    v = self._value_index[value]
                    arrays[1, s, v] = float(knowledge.probability(subject, value))
            except UndefinedBeliefError:
                pass  # no belief while the cup is being rolled: probabilities stay zero
        return arrays


@functools.lru_cache(maxsize=64)
def encoder(game: Game | str, kind: ObservationKind) -> Encoder:
    """The (cached) encoder of a game and observation kind."""
    return Encoder(load_game(game), kind)
