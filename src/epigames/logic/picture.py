"""A pointed S5 model of one subject, with probabilities: what a picture of a game shows.

A game state can show, for a *subject* (a card in a card game, the cup in Blufpoker), the
small S5 Kripke model behind it: one world per possibility, one partition per seat, the
true world marked when the viewer may see it, and each seat's probability per world.
The model's designated worlds are those the perspective considers possible, so a formula
is answered for the perspective by the logic engine (`picture.answer(formula)`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from epigames.errors import ModelError
from epigames.logic.formula import Formula
from epigames.logic.model import KripkeModel
from epigames.logic.svg import picture_svg


@dataclass(frozen=True, eq=False)
class KripkePicture:
    """A subject's Kripke model from one perspective.

    Attributes:
        subject: what the worlds are about, e.g. `"⟨8,4⟩"` or `"cup"`.
        model: the S5 model; agents are seat names, world names are the possibilities'
            labels (e.g. the holder's seat name, or a roll like `"653"`), and its atoms
            are the facts true in each world (e.g. `holds(West, ⟨8,4⟩)`). Its designated
            worlds are the ones the perspective considers possible: the true world alone
            when the perspective knows it (always for a spectator), else every world a
            seat's own observations leave (the model may hold more: what other seats
            consider possible from there).
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

    def __post_init__(self) -> None:
        designated = [self.model.worlds[w] for w in self.model.designated]
        if not designated:
            raise ModelError(f"the picture of {self.subject} designates no world")
        if self.true_world is not None and designated != [self.true_world]:
            raise ModelError(
                f"the picture of {self.subject} marks the true world {self.true_world} "
                f"but designates {designated}"
            )

    @property
    def considered(self) -> tuple[str, ...]:
        """The worlds the perspective considers possible (the designated ones)."""
        return tuple(self.model.worlds[w] for w in self.model.designated)

    def answer(self, formula: Formula) -> bool:
        """Whether the formula holds for the perspective: in every world it considers possible.

        At the true world when the perspective knows it; for a seat that does not, this is
        whether the seat knows the formula.
        """
        return self.model.holds(formula)

    def _repr_svg_(self) -> str:
        """The picture drawn as SVG (`logic.svg.picture_svg`): Jupyter shows it so."""
        return picture_svg(self)
