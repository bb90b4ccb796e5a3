"""A pointed S5 model of one subject, with probabilities: what a picture of a game shows.

A game state can show, for a *subject* (a card in a card game, the cup in Blufpoker), the
small S5 Kripke model behind it: one world per possibility, one partition per seat, the
true world marked when the viewer may see it, and each seat's probability per world.
The model's designated worlds are those the perspective considers possible, so a formula
is answered for the perspective by the logic engine (`picture.judge(formula)`).

A drawn world may stand for several worlds of the exact model (a card's holder, where what
the other seats know depends on how the other cards lie): the picture then carries that
exact model (`Exact`) and every formula is judged on it, so a question about what another
seat knows gets the exact answer, and a drawn world is *mixed* for a formula that is true
in some of its worlds and false in others. Where no exact model is small enough to build,
an `Oracle` (the game's own engine) gives the verdict and no world is judged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from epigames.errors import ModelError
from epigames.logic.bisimulation import join_classes
from epigames.logic.formula import Formula
from epigames.logic.model import KripkeModel
from epigames.logic.relations import Mask, Partition
from epigames.logic.svg import picture_svg

#: The game's verdict on a formula for a perspective, where no exact model is drawn:
#: ``"true"``, ``"false"`` or ``"unknown"`` (as `Judgement.verdict`).
Oracle = Callable[[Formula], str]


@dataclass(frozen=True, slots=True)
class Exact:
    """The exact model behind a picture whose drawn worlds merge some of its worlds.

    Attributes:
        model: the exact S5 model; its designated worlds are the perspective's.
        drawn: per world of `model`, the index of the drawn world it is merged into.
    """

    model: KripkeModel
    drawn: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Judgement:
    """A formula judged for a picture's perspective.

    Attributes:
        verdict: ``"true"`` in every world the perspective considers possible (at the
            true world when it knows it), ``"false"`` in none, else ``"unknown"``.
        true_worlds, false_worlds: the drawn worlds where the formula holds, or fails,
            in every exact world they stand for.
        mixed_worlds: drawn worlds that stand for exact worlds of both kinds.
    """

    verdict: str
    true_worlds: tuple[str, ...] = ()
    false_worlds: tuple[str, ...] = ()
    mixed_worlds: tuple[str, ...] = ()


def _verdict(at: Mask) -> str:
    return "true" if at.all() else "false" if not at.any() else "unknown"


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
    exact: Exact | Oracle | None = None

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

    @property
    def is_exact(self) -> bool:
        """Whether the drawn model is the exact one (formulas judged on the drawing)."""
        return self.exact is None

    def judge(self, formula: Formula) -> Judgement:
        """The formula's verdict for the perspective, and the drawn worlds by its truth.

        Atoms and agents are the model's own names (a game reads text into them).
        """
        exact = self.exact
        if exact is None or isinstance(exact, Exact):
            model = self.model if exact is None else exact.model
            truth = np.asarray(model.truth_set(formula))
            verdict = _verdict(truth[list(model.designated)])
            drawn = range(model.size) if exact is None else exact.drawn
            seen_true = np.zeros(self.model.size, dtype=bool)
            seen_false = np.zeros(self.model.size, dtype=bool)
            np.logical_or.at(seen_true, list(drawn), truth)
            np.logical_or.at(seen_false, list(drawn), ~truth)
            names = self.model.worlds
            return Judgement(
                verdict,
                tuple(names[w] for w in np.flatnonzero(seen_true & ~seen_false)),
                tuple(names[w] for w in np.flatnonzero(seen_false & ~seen_true)),
                tuple(names[w] for w in np.flatnonzero(seen_true & seen_false)),
            )
        return Judgement(exact(formula))

    def answer(self, formula: Formula) -> bool:
        """Whether the formula holds for the perspective: in every world it considers possible.

        At the true world when the perspective knows it; for a seat that does not, this is
        whether the seat knows the formula.
        """
        return self.judge(formula).verdict == "true"

    def _repr_svg_(self) -> str:
        """The picture drawn as SVG (`logic.svg.picture_svg`): Jupyter shows it so."""
        return picture_svg(self)


def merge_worlds(
    model: KripkeModel, labels: Sequence[str], order: Sequence[str] = ()
) -> tuple[KripkeModel, tuple[int, ...]]:
    """The model with the worlds of one label merged into one world named by it.

    The merged worlds come in the `order` given, then by first appearance.
    A merged world keeps the atoms true in all its worlds; an agent cannot tell two merged
    worlds apart when it cannot tell some of their worlds apart (joined until transitive,
    so each agent keeps a partition); the designated worlds are those of the designated.

    Returns:
        the merged model, and per world of `model` the index of its merged world.
    """
    first = dict.fromkeys(labels)
    names = [name for name in order if name in first] + [n for n in first if n not in order]
    index = {name: i for i, name in enumerate(names)}
    drawn = tuple(index[label] for label in labels)
    at = np.asarray(drawn, dtype=np.int64)
    valuation = {}
    for atom, mask in model.valuation.items():
        false_somewhere = np.zeros(len(names), dtype=bool)
        np.logical_or.at(false_somewhere, at, ~mask)
        if not false_somewhere.all():
            merged: Mask = ~false_somewhere
            merged.flags.writeable = False
            valuation[atom] = merged
    relations = {}
    for agent in model.agents:
        relation = model.relations[agent]
        if not isinstance(relation, Partition):
            raise ModelError(f"only S5 models merge their worlds; {agent}'s relation is not")
        relations[agent] = Partition.from_ids(join_classes(relation, at, len(names)))
    designated = tuple(sorted({drawn[d] for d in model.designated}))
    return KripkeModel(model.agents, tuple(names), valuation, relations, designated), drawn
