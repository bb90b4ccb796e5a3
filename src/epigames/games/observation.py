"""What a seat observes, as named arrays of fixed shape that each game declares.

A game declares, from its parameters alone (so arrays and spaces are sized without
playing):

- `Game.private_axis`: every item `View.private_items()` may hold (its cards; the roll
  it saw under the cup);
- `Game.knowledge_axes`: the subjects of `view.knowledge` and the values each may take
  (cards and their holders; the cup and its 56 rolls), the axes of `Knowledge.matrices()`;
- `Game.public_parts()`: its public state as `Part`s, each a named array whose axes say
  what every position stands for (seats, cards, suits, …) and whose values lie in a
  declared range (0/1 flags by default; counts and points up to their most).

`View.public_state()` gives the seat's public state as those arrays, filled in by the
game's `View.write_public`. Everything here is in the game's own units (a count of 5
cards is 5); `epigames.adapters.encoding` scales each part to [0, 1] with its range.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

__all__ = ["Arrays", "Axis", "Part", "zeros"]

#: Named arrays of a seat's observation, keyed by part name.
Arrays = Mapping[str, npt.NDArray[np.float32]]


@dataclass(frozen=True)
class Axis:
    """One dimension of a part: the items its positions stand for, in order.

    Attributes:
        name: what the items are (`seat`, `card`, `suit`).
        items: the items (seat indices, `Card`s, …).
        labels: how each item is written (default: `str(item)`).
    """

    name: str
    items: tuple[Hashable, ...]
    labels: tuple[str, ...] = ()
    _index: dict[Hashable, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not self.labels:
            object.__setattr__(self, "labels", tuple(str(item) for item in self.items))
        if len(self.labels) != len(self.items):
            raise ValueError(
                f"axis {self.name!r}: {len(self.labels)} labels for {len(self.items)} items"
            )
        object.__setattr__(self, "_index", {item: i for i, item in enumerate(self.items)})

    def __len__(self) -> int:
        return len(self.items)

    def index(self, item: Hashable) -> int:
        """The position of an item.

        Raises:
            KeyError: not an item of this axis.
        """
        return self._index[item]

    @property
    def lookup(self) -> Callable[[Hashable], int]:
        """`index` as one bound lookup, for loops over many items."""
        return self._index.__getitem__

    @classmethod
    def seats(cls, names: tuple[str, ...]) -> Axis:
        """The seats 0 … n-1, labelled with their names."""
        return cls("seat", tuple(range(len(names))), names)

    @classmethod
    def counting(cls, name: str, n: int, first: int = 1) -> Axis:
        """Numbered positions `first` … `first + n - 1` (a trick's plays, a die of three)."""
        return cls(name, tuple(range(first, first + n)))


@dataclass(frozen=True)
class Part:
    """A named array of a seat's observation: its axes, its range and what it says.

    Attributes:
        name: the key of the array (`trump`, `hand_sizes`).
        axes: one `Axis` per dimension (none: a single number).
        help: what an entry holds, in a few words.
        high: the largest value an entry can take (1 for flags).
        low: the smallest (0 unless a score can fall below it).
        shape: the length of each axis (made from `axes`).
        size: how many entries the array has.
    """

    name: str
    axes: tuple[Axis, ...]
    help: str
    high: float = 1.0
    low: float = 0.0
    shape: tuple[int, ...] = field(init=False, compare=False)
    size: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        if not self.high > self.low:
            raise ValueError(f"part {self.name!r}: high {self.high} must exceed low {self.low}")
        shape = tuple(len(axis) for axis in self.axes)
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "size", int(np.prod(shape, dtype=np.int64)))

    @property
    def flags(self) -> bool:
        """Whether every entry is 0 or 1 (no scaling needed)."""
        return self.low == 0.0 and self.high == 1.0

    def zeros(self) -> npt.NDArray[np.float32]:
        """An array of this part's shape, all zero."""
        return np.zeros(self.shape, dtype=np.float32)


def zeros(parts: tuple[Part, ...]) -> dict[str, npt.NDArray[np.float32]]:
    """A zero array for each part, by name."""
    return {part.name: part.zeros() for part in parts}
