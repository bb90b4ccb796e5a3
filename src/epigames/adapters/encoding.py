"""Observations as fixed-size arrays, built from a seat's `View` alone.

A vector is the concatenation of named parts, each a fixed-size array read row-major:

- `seat`: the seat (one-hot);
- `private`: the seat's private items (`View.private_items()`: its cards, or the roll it
  saw under the cup), 1 for each over every such item of the game (`Game.private_axis`);
- the game's public parts (`Game.public_parts()`, filled by `View.write_public`): the
  seat to move and whatever else the game declares (trump, the trick and who played
  what, bids, scores, phase, cards per holder, the table), each scaled to [0, 1] by its
  declared range;
- with `"knowledge"` only, `possible` and `probability`: the seat's exact knowledge
  (`Knowledge.matrices()`), for each subject (a card; the cup) and each value (a holder;
  a roll) of `Game.knowledge_axes` whether the seat considers it possible, then its
  exact probability.

So `"hand"` is every part but the knowledge, and both kinds are the same length for every
seat. Everything is sized from the game's declarations, without playing, and nothing
here knows a concrete game: `Encoder.labels()` names every index, `Encoder.table()` lists
the parts with their index ranges (docs/adapters.md shows it for each game).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Hashable
from typing import Literal

import numpy as np
import numpy.typing as npt

from epigames.errors import InputError
from epigames.games import Game, View, load_game
from epigames.games.knowledge import AnyKnowledge
from epigames.games.observation import Axis, Part

ObservationKind = Literal["hand", "knowledge"]
OBSERVATIONS: tuple[ObservationKind, ...] = ("hand", "knowledge")
Vector = npt.NDArray[np.float32]

#: The parts every vector starts with, and the knowledge's: a game's public parts must
#: be named otherwise.
RESERVED = ("seat", "private", "possible", "probability")
#: An axis with more labels than this is shown by its first and last few in `table`.
_SHOWN = 8


#: A part's name, start, end and shape in the vector.
_Slice = tuple[str, int, int, tuple[int, ...]]


class UnknownObservationError(InputError):
    """An observation kind other than `hand` or `knowledge`."""


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


class Encoder:
    """Turns a game's views into vectors of fixed size, and names every index.

    Attributes:
        game: the game.
        kind: `hand` or `knowledge`.
        parts: the vector's parts in order: `seat`, `private`, the game's public parts,
            then (`knowledge`) `possible` and `probability`.
        starts: where each part starts in the vector, by name.
        items: every private item a seat may hold, in vector order.
        subjects: the knowledge's subjects (cards, or the cup), in order.
        values: the values a subject may take (holder indices, or rolls), in order.
        hand_size: the length of the vector without the knowledge (all of a `hand` one).
        knowledge_size: the length of the knowledge (`possible` and `probability`).
        size: the length of every vector.
    """

    def __init__(self, game: Game, kind: ObservationKind) -> None:
        self.game = game
        self.kind = kind
        seats = Axis.seats(game.seat_names)
        private = game.private_axis
        subjects, values = game.knowledge_axes
        public = game.public_parts()
        clash = [p.name for p in public if p.name in RESERVED]
        if clash or len({p.name for p in public}) != len(public):
            names = [p.name for p in public]
            raise ValueError(
                f"{game.name}: public parts {names} repeat a name or take one of {RESERVED}"
            )
        parts = [
            Part("seat", (seats,), "1 for this seat"),
            Part(
                "private", (private,), "1 for each item only this seat sees (its cards, its look)"
            ),
            *public,
        ]
        knowledge = (
            Part("possible", (subjects, values), "1 where this seat considers the value possible"),
            Part("probability", (subjects, values), "the value's exact probability"),
        )
        if kind == "knowledge":
            parts.extend(knowledge)
        self.parts: tuple[Part, ...] = tuple(parts)
        self.starts: dict[str, int] = {}
        at = 0
        for part in self.parts:
            self.starts[part.name] = at
            at += part.size
        self.size = at
        # Where each part lies: `views` shapes them, `_scratch` the public ones for the game.
        self._slices = tuple(
            (p.name, self.starts[p.name], self.starts[p.name] + p.size, p.shape) for p in self.parts
        )
        self._public_slices = tuple(s for s in self._slices if s[0] not in RESERVED)
        self._local = threading.local()
        self.items = private.items
        self.subjects, self.values = subjects.items, values.items
        self._item_index = {item: i for i, item in enumerate(self.items)}
        self._private_at = self.starts["private"]
        self._public_at = self._private_at + len(private)
        self.hand_size = self._public_at + sum(p.size for p in public)
        self.knowledge_size = sum(p.size for p in knowledge)
        self._knowledge_shape = (len(subjects), len(values))
        # Public parts in their own units, scaled in place to [0, 1] after the view wrote.
        low = np.concatenate([np.full(p.size, p.low) for p in public] or [np.zeros(0)])
        span = np.concatenate([np.full(p.size, p.high - p.low) for p in public] or [np.zeros(0)])
        self._scaled = not all(p.flags for p in public)
        self._shifted = bool(low.any())  # else scaling is one multiplication
        self._low = low.astype(np.float32)
        self._inverse_span = (1.0 / span).astype(np.float32)

    def encode(self, view: View) -> Vector:
        """The observation vector of a view."""
        vector = np.zeros(self.size, dtype=np.float32)
        vector[view.seat] = 1.0
        at = self._private_at
        for item in view.private_items():
            vector[at + self._item_index[item]] = 1.0
        scratch, arrays = self._scratch()
        scratch.fill(0.0)
        view.write_public(arrays)
        public = vector[self._public_at : self.hand_size]
        if self._shifted:
            np.subtract(scratch, self._low, out=public)
            public *= self._inverse_span
        elif self._scaled:
            np.multiply(scratch, self._inverse_span, out=public)
        else:
            public[:] = scratch
        if self.kind == "knowledge":
            try:
                knowledge = view.knowledge
            except ValueError:
                return vector  # before the first deal there is no knowledge yet: zeros
            possible, probability = self._matrices(knowledge)
            half = self.hand_size + possible.size
            vector[self.hand_size : half] = possible.ravel()  # cast in place: no stacked copy
            vector[half:] = probability.ravel()
        return vector

    def _scratch(self) -> tuple[Vector, dict[str, Vector]]:
        """This thread's buffer for the public parts, and its arrays by name.

        Made once per thread: the game writes into the same arrays every time, which costs
        less than making a view of each part of every new vector.
        """
        local = self._local
        try:
            return local.buffer, local.arrays
        except AttributeError:
            buffer = np.zeros(self.hand_size - self._public_at, dtype=np.float32)
            at = self._public_at
            moved = tuple((n, a - at, b - at, shape) for n, a, b, shape in self._public_slices)
            local.buffer, local.arrays = buffer, self._views(buffer, moved)
            return local.buffer, local.arrays

    def views(self, vector: Vector) -> dict[str, Vector]:
        """Every part of `vector` by name, shaped as declared (views: no copy)."""
        return self._views(vector, self._slices)

    def _views(self, vector: Vector, slices: tuple[_Slice, ...]) -> dict[str, Vector]:
        return {name: vector[start:stop].reshape(shape) for name, start, stop, shape in slices}

    def knowledge_arrays(self, knowledge: AnyKnowledge) -> npt.NDArray[np.float32]:
        """Shape (2, subjects, values): 1 where a value is possible, then its probability.

        Raises:
            ValueError: the knowledge's matrices are not of the shape the game declares.
        """
        possible, probability = self._matrices(knowledge)
        return np.stack([possible, probability]).astype(np.float32)

    def _matrices(
        self, knowledge: AnyKnowledge
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The knowledge's matrices, checked against the shape the game declares."""
        possible, probability = knowledge.matrices()
        if possible.shape != self._knowledge_shape or probability.shape != possible.shape:
            raise ValueError(
                f"{self.game.name}: knowledge matrices of shape {possible.shape} and "
                f"{probability.shape}; the game declares {self._knowledge_shape}"
            )
        return possible, probability

    # --- the index map ------------------------------------------------------------

    def part_at(self, index: int) -> Part:
        """The part that holds an index of the vector.

        Raises:
            IndexError: outside the vector.
        """
        if not 0 <= index < self.size:
            raise IndexError(f"index {index} outside the vector of {self.size}")
        for part in reversed(self.parts):
            if self.starts[part.name] <= index:
                return part
        raise AssertionError("the first part starts at 0")

    def label(self, index: int) -> str:
        """What one index holds: the part and its position, e.g. `trick[North, J♥]`.

        Raises:
            IndexError: outside the vector.
        """
        part = self.part_at(index)
        if not part.axes:
            return part.name
        position = np.unravel_index(index - self.starts[part.name], part.shape)
        labels = ", ".join(axis.labels[int(i)] for axis, i in zip(part.axes, position, strict=True))
        return f"{part.name}[{labels}]"

    def labels(self) -> tuple[str, ...]:
        """The label of every index, in order."""
        return tuple(self.label(i) for i in range(self.size))

    def index(self, name: str, *items: Hashable) -> int:
        """The index of an entry: a part's name and one item (or label) per axis.

        `enc.index("trump", Suit.HEARTS)` or `enc.index("trick", 0, "J♥")`.

        Raises:
            KeyError: no such part, or an item not on its axis.
        """
        part = next((p for p in self.parts if p.name == name), None)
        if part is None:
            raise KeyError(f"no part {name!r}; parts: {', '.join(p.name for p in self.parts)}")
        if len(items) != len(part.axes):
            raise KeyError(f"part {name!r} has {len(part.axes)} axes, not {len(items)}")
        position = tuple(_position(axis, item) for axis, item in zip(part.axes, items, strict=True))
        offset = int(np.ravel_multi_index(position, part.shape)) if position else 0
        return self.starts[name] + offset

    def table(self) -> str:
        """The index map as a Markdown table: each part's indices, axes, values and meaning."""
        rows = [
            "| indices | part | axes | value | holds |",
            "|---|---|---|---|---|",
        ]
        for part in self.parts:
            start = self.starts[part.name]
            span = f"{start}" if part.size == 1 else f"{start}–{start + part.size - 1}"
            axes = " × ".join(_axis_text(axis) for axis in part.axes) or "—"
            rows.append(f"| {span} | `{part.name}` | {axes} | {_value_text(part)} | {part.help} |")
        return "\n".join(rows)


def _position(axis: Axis, item: Hashable) -> int:
    try:
        return axis.index(item)
    except KeyError:
        if isinstance(item, str) and item in axis.labels:
            return axis.labels.index(item)
        raise KeyError(f"{item!r} is not on axis {axis.name!r}") from None


def _axis_text(axis: Axis) -> str:
    labels = axis.labels
    if len(labels) > _SHOWN:
        labels = (*labels[:3], "…", *labels[-2:])
    return f"{axis.name} ({len(axis)}: {' '.join(labels)})"


def _value_text(part: Part) -> str:
    if part.flags:
        return "0/1" if part.name != "probability" else "0–1"
    high = f"{part.high:g}"
    if part.low == 0:
        return f"n ÷ {high}"
    shift = f"+ {-part.low:g}" if part.low < 0 else f"− {part.low:g}"
    return f"(n {shift}) ÷ {part.high - part.low:g}"


@functools.lru_cache(maxsize=64)
def encoder(game: Game | str, kind: ObservationKind) -> Encoder:
    """The (cached) encoder of a game and observation kind."""
    return Encoder(load_game(game), kind)
