"""A pointed S5 model of one subject, with probabilities: what a picture of a game shows.

A game state can show, for a *subject* (a card in a card game, the cup in Blufpoker), the
small S5 Kripke model behind it: one world per possibility, one partition per seat, the
true world marked when the viewer may see it, and each seat's probability per world.
Formulas can be asked about it with the logic engine (`picture.model.holds(...)`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from epigames.logic.model import KripkeModel


@dataclass(frozen=True, eq=False)
class KripkePicture:
    """A subject's Kripke model from one perspective.

    Attributes:
        subject: what the worlds are about, e.g. `"⟨8,4⟩"` or `"cup"`.
        model: the S5 model; agents are seat names, world names are the possibilities'
            labels (e.g. the holder's seat name, or a roll like `"653"`), and its atoms
            are the facts true in each world (e.g. `holds(West, ⟨8,4⟩)`).
        true_world: the actual world's name, or None when the perspective cannot know it
            (a seat that does not know the holder is never told it).
        probabilities: seat name → world name → that seat's probability of the world
            (exact, uniform over the deals or rolls it considers possible); seats whose
            probabilities the perspective may not see are left out.
        perspective: None for a spectator, else the seat whose view built the picture.
    """

    subject: str
    model: KripkeModel
    true_world: str | None
    probabilities: Mapping[str, Mapping[str, float]]
    perspective: int | None
