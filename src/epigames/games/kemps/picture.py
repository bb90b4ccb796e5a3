"""A Kemps card's Kripke picture as the 2023 report formalises it: nobody, or player i, holds it.

The report gives each card four worlds: `s0` (no player holds it: it lies on the table,
in the deck, on the discard pile or out of the game) and `s_i` (player i holds it), and
the atoms `hand_i` (here `holds(i, card)`) true in `s_i` only (and `holds(nobody, card)`
in `s0`, so that formulas can name it). The card engine's picture
has one world per place the card may be; `report_picture` merges the places that are no
hand into the world `nobody`. An agent that told two merged places apart, or one of them
from a hand, keeps what it can still tell: a block of its partition is the union of the
merged worlds its blocks share (it cannot know more about "nobody holds it" than the
places do). Probabilities add up over the merged places.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from epigames.cards.formulas import holds_atom
from epigames.logic.model import KripkeModel
from epigames.logic.picture import KripkePicture
from epigames.logic.relations import Partition

__all__ = ["NOBODY", "report_picture"]

#: The world in which no player holds the card.
NOBODY = "nobody"


def _merged_blocks(blocks: list[set[str]]) -> list[set[str]]:
    """The finest partition coarser than every block: blocks that share a world joined."""
    merged: list[set[str]] = []
    for block in blocks:
        joined = set(block)
        for other in [m for m in merged if m & joined]:
            joined |= other
            merged.remove(other)
        merged.append(joined)
    return merged


def report_picture(picture: KripkePicture, players: Sequence[str]) -> KripkePicture:
    """The picture with every world that is no player's hand merged into `NOBODY`.

    Args:
        picture: a card's picture whose worlds are named by holder (seats and places).
        players: the seats' names, in seat order.
    """
    model = picture.model
    target = {w: w if w in players else NOBODY for w in model.worlds}
    worlds = [w for w in (NOBODY, *players) if w in target.values()]
    valuation: dict[str | int, Iterable[str]] = {
        target[w]: model.world_atoms(i) for i, w in enumerate(model.worlds) if w in players
    }
    # No hand atom is true in `nobody` (the report's s0); its own atom lets formulas name it.
    if NOBODY in worlds:
        valuation[NOBODY] = [holds_atom(NOBODY, picture.subject)]
    partitions: dict[str, list[set[str]]] = {}
    for agent in model.agents:
        relation = model.relations[agent]
        assert isinstance(relation, Partition), "card pictures are S5"
        blocks: dict[int, set[str]] = {}
        for i, w in enumerate(model.worlds):
            blocks.setdefault(int(relation.block[i]), set()).add(target[w])
        partitions[agent] = _merged_blocks(list(blocks.values()))
    truth = None if picture.true_world is None else target[picture.true_world]
    if truth is None and len(worlds) == 1:
        truth = worlds[0]  # e.g. known to lie in the deck or on the pile: nobody holds it
    order: dict[str | int, int] = {w: i for i, w in enumerate(worlds)}
    # The worlds the perspective considers possible stay designated, merged.
    seen = {target[model.worlds[d]] for d in model.designated}
    considered = [truth] if truth else [w for w in worlds if w in seen]
    merged = KripkeModel.build(
        worlds,
        valuation,
        partitions={
            a: [sorted(b, key=order.__getitem__) for b in bs] for a, bs in partitions.items()
        },
        designated=considered,
    )
    probabilities: dict[str, dict[str, float]] = {}
    for seat, chances in picture.probabilities.items():
        summed = dict.fromkeys(worlds, 0.0)
        for w, p in chances.items():
            summed[target[w]] += p
        probabilities[seat] = summed
    return KripkePicture(picture.subject, merged, truth, probabilities, picture.perspective)
