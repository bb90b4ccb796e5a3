"""Who may read an agent's thought: the seats for which it names no other seat's secrets.

An agent's thought is one sentence ("I hold ⟨8,1⟩, so I ask West for it") and may name
items only some seats can see. A seat's private items are read from its view's
`PRIVATE_FIELDS`; a seat may read a thought when it names none of another seat's items
(beyond what the move's own public events name anyway).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from epigames.games import State

#: View fields that hold a seat's private items (cards, dice); used to keep agents'
#: thoughts that mention them from other seats.
PRIVATE_FIELDS = ("hand", "cup", "dice", "roll")


def private_items(view: object) -> set[str]:
    """The private items (card or die texts) a seat's view holds: its `PRIVATE_FIELDS`.

    Read from the view's attributes (not `to_dict()`, which also lists legal actions:
    this runs once per seat for every decision of a game).
    """
    items: set[str] = set()
    for key in PRIVATE_FIELDS:
        value = getattr(view, key, None)
        if value is None or callable(value):
            continue
        if isinstance(value, list | tuple | set | frozenset):
            items.update(str(v) for v in value)
        else:
            items.add(str(value))
    return items


def mentions(text: str, item: str) -> bool:
    """Whether `text` names `item` as a whole word (`A` is not named by `Ann`)."""
    return re.search(rf"(?<!\w){re.escape(item)}(?!\w)", text) is not None


def seat_items(state: State) -> list[set[str]]:
    """Each seat's private items now (from its own view)."""
    n = state.game.num_players
    return [private_items(state.observation(s)) for s in range(n)]


def thought_readers(
    seat: int, thought: str, private: Sequence[set[str]], public_text: str
) -> frozenset[int]:
    """The seats that may read `seat`'s thought.

    A thought may name items that only some seats can see ("I hold ⟨8,1⟩"). A seat may
    read it only when it names no private item (`private`: per seat, before the move) of
    any *other* seat, except items the move's own public events name anyway
    (`public_text`).
    """
    everything = set().union(*private)
    # A plain substring test first: most items are not in the thought at all.
    named = {
        item
        for item in everything
        if item in thought and mentions(thought, item) and not mentions(public_text, item)
    }
    if not named:
        return frozenset(range(len(private)))
    readers = {seat}
    for viewer in range(len(private)):
        others = set().union(*(private[s] for s in range(len(private)) if s != viewer))
        if not named & others:
            readers.add(viewer)
    return frozenset(readers)
