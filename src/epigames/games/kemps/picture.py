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

from collections.abc import Sequence

import numpy as np

from epigames.cards.formulas import holds_atom
from epigames.logic import formula as fm
from epigames.logic.formula import Formula
from epigames.logic.model import KripkeModel
from epigames.logic.picture import Exact, KripkePicture, Oracle, merge_worlds
from epigames.logic.relations import Mask

__all__ = ["NOBODY", "nobody_as_places", "report_picture"]

#: The world in which no player holds the card.
NOBODY = "nobody"


def nobody_as_places(formula: Formula, places: Sequence[str]) -> Formula:
    """The formula with each ``holds(nobody, c)`` written as "some place (no hand) holds c"."""
    prefix = f"holds({NOBODY}, "
    nobody = {
        atom: fm.disj(*(fm.Atom(holds_atom(p, atom[len(prefix) : -1])) for p in places))
        for atom in formula.atoms()
        if atom.startswith(prefix) and atom.endswith(")")
    }
    return fm.substitute(formula, nobody) if nobody else formula


def _with_atom(model: KripkeModel, atom: str, mask: Mask) -> KripkeModel:
    mask.flags.writeable = False
    valuation = {**model.valuation, atom: mask}
    return KripkeModel(model.agents, model.worlds, valuation, model.relations, model.designated)


def _nobody(worlds: Sequence[str]) -> Mask:
    """Which of the worlds are `NOBODY`'s (primed or not)."""
    return np.asarray([w.rstrip("′") == NOBODY for w in worlds])


def report_picture(picture: KripkePicture, players: Sequence[str]) -> KripkePicture:
    """The picture with every world that is no player's hand merged into `NOBODY`.

    Args:
        picture: a card's picture whose worlds are named by holder (seats and places).
        players: the seats' names, in seat order.
    """
    model = picture.model
    # A primed world (`West′`) is one the perspective rules out (`cards.kripke`): it stays so.
    labels = [
        w if w.rstrip("′") in players else NOBODY + w[len(w.rstrip("′")) :] for w in model.worlds
    ]
    merged, where = merge_worlds(model, labels, (NOBODY, *players))
    atom = holds_atom(NOBODY, picture.subject)
    # No hand atom is true in `nobody` (the report's s0); its own atom lets formulas name it.
    if _nobody(merged.worlds).any():
        merged = _with_atom(merged, atom, _nobody(merged.worlds))
    exact: Exact | Oracle | None
    inner = picture.exact
    if inner is None:
        nobody = _nobody(labels)
        exact = None if merged.size == model.size else Exact(_with_atom(model, atom, nobody), where)
    elif isinstance(inner, Exact):
        drawn = tuple(where[d] for d in inner.drawn)
        nobody = _nobody([merged.worlds[d] for d in drawn])
        exact = Exact(_with_atom(inner.model, atom, nobody), drawn)
    else:
        places = [w for w in model.worlds if w not in players]
        oracle = inner
        exact = lambda formula: oracle(nobody_as_places(formula, places))  # noqa: E731
    truth = None if picture.true_world is None else labels[model.worlds.index(picture.true_world)]
    if truth is None and merged.size == 1:
        truth = merged.worlds[0]  # e.g. known to lie in the deck or on the pile: nobody holds it
    probabilities: dict[str, dict[str, float]] = {}
    for seat, chances in picture.probabilities.items():
        summed = dict.fromkeys(merged.worlds, 0.0)
        for w, p in chances.items():
            summed[labels[model.worlds.index(w)]] += p
        probabilities[seat] = summed
    return KripkePicture(picture.subject, merged, truth, probabilities, picture.perspective, exact)
