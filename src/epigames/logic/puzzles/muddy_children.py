"""The muddy children: n children, some muddy, a father who asks who knows."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from epigames.errors import ModelError
from epigames.logic.formula import Atom, Formula, Kw, Not, conj, disj
from epigames.logic.model import KripkeModel
from epigames.logic.puzzles.common import atom_per_agent, chosen_agents, frozen_mask
from epigames.logic.relations import Partition
from epigames.logic.symbolic import KnowledgeStructure


def _check_children(n: int, muddy: Iterable[int]) -> frozenset[int]:
    return chosen_agents(
        n,
        muddy,
        too_few="muddy children needs at least one child",
        chosen_name="muddy children",
        agents="children",
    )


def muddy_children(n: int, muddy: Iterable[int]) -> KripkeModel:
    """The muddy children model for `n` children, before the father speaks.

    The agents are the children `"1"` … `"n"` (so formulas read `K_1 m1`); atom `m<i>` says
    child i is muddy. There is one world per set of muddy children (2^n worlds); a world's
    name is a string of 0/1 whose i-th character is child i's state (`"110"`: children 1
    and 2 muddy). Child i sees every forehead but its own, so it cannot tell apart two
    worlds that differ only in `m<i>`. The designated world is the given muddy set.

    Args:
        n: the number of children (2^n worlds: keep n ≤ 20 or so).
        muddy: the muddy children, numbered 1..n (may be empty).
    """
    chosen = _check_children(n, muddy)
    ids = np.arange(1 << n, dtype=np.int64)
    agents = tuple(str(i) for i in range(1, n + 1))
    worlds = tuple(format(w, f"0{n}b")[::-1] for w in range(1 << n))
    valuation = {f"m{i}": frozen_mask(((ids >> (i - 1)) & 1).astype(bool)) for i in range(1, n + 1)}
    relations = {str(i): Partition.from_ids(ids & ~(1 << (i - 1))) for i in range(1, n + 1)}
    actual = sum(1 << (i - 1) for i in chosen)
    return KripkeModel(agents, worlds, valuation, dict(relations), (actual,))


def someone_muddy(n: int) -> Formula:
    """The father's announcement: at least one child is muddy, `m1 | … | mn`."""
    return disj(*(Atom(f"m{i}") for i in range(1, n + 1)))


def nobody_knows(n: int) -> Formula:
    """No child knows whether it is muddy: `~Kw_1 m1 & … & ~Kw_n mn`."""
    return conj(*(Not(Kw(str(i), Atom(f"m{i}"))) for i in range(1, n + 1)))


def _knowers(model: KripkeModel, n: int) -> frozenset[int]:
    return frozenset(i for i in range(1, n + 1) if model.holds(Kw(str(i), Atom(f"m{i}"))))


@dataclass(frozen=True)
class MuddyRound:
    """One announcement of the muddy children story.

    Attributes:
        announcement: the formula announced (the father's, then "nobody knows").
        worlds: the number of worlds left after it.
        knowers: the children who then know whether they are muddy (at the actual world).
    """

    announcement: Formula
    worlds: int
    knowers: frozenset[int]


@dataclass(frozen=True)
class MuddyStory:
    """The muddy children story played out: every announcement and the last model.

    Attributes:
        n: number of children.
        muddy: the muddy children.
        rounds: the father's announcement first, then each "nobody knows", until someone
            knows. With m ≥ 1 muddy children there are m rounds and the last one's knowers
            are exactly the muddy children.
        model: the model after the last announcement.
    """

    n: int
    muddy: frozenset[int]
    rounds: tuple[MuddyRound, ...]
    model: KripkeModel


def play_muddy_children(model: KripkeModel) -> MuddyStory:
    """Play the story on a model from `muddy_children`.

    The father announces `someone_muddy(n)`; then, while no child knows whether it is
    muddy, `nobody_knows(n)` is announced. Raises ModelError when nobody is muddy (the
    father's announcement is then false).
    """
    n = len(model.agents)
    if len(model.designated) != 1:
        raise ModelError("play_muddy_children needs a model with one designated world")
    actual = model.designated[0]
    muddy = frozenset(i for i in range(1, n + 1) if model.valuation[f"m{i}"][actual])
    rounds: list[MuddyRound] = []
    announcement = someone_muddy(n)
    while True:
        model = model.announce(announcement)
        knowers = _knowers(model, n)
        rounds.append(MuddyRound(announcement, model.size, knowers))
        if knowers:
            break
        announcement = nobody_knows(n)
    return MuddyStory(n, muddy, tuple(rounds), model)


def muddy_children_story(n: int, muddy: Iterable[int]) -> MuddyStory:
    """Build the model for `n` children with the given muddy ones and play the story."""
    return play_muddy_children(muddy_children(n, muddy))


# --- the symbolic version: any number of children -------------------------------------


def symbolic_muddy_children(
    n: int, muddy: Iterable[int], *, backend: str | None = None
) -> KnowledgeStructure:
    """The muddy children as a knowledge structure: n variables instead of 2^n worlds.

    Same names as `muddy_children`: atoms `m1` … `mn`, agents `"1"` … `"n"`; child i
    observes every `m<j>` but its own. The muddy set is the designated state.
    """
    chosen = _check_children(n, muddy)
    return atom_per_agent("m", n, chosen, sees_own=False, backend=backend)


@dataclass(frozen=True)
class SymbolicMuddyStory:
    """The muddy children story played on a knowledge structure.

    Attributes:
        n: number of children.
        muddy: the muddy children.
        rounds: as `MuddyStory.rounds` (`worlds` counts the structure's states).
        structure: the structure after the last announcement.
    """

    n: int
    muddy: frozenset[int]
    rounds: tuple[MuddyRound, ...]
    structure: KnowledgeStructure


def play_symbolic_muddy_children(n: int, muddy: Iterable[int], *, backend: str | None = None,
                                 ) -> SymbolicMuddyStory:  # fmt: skip
    """The story of `play_muddy_children`, announced on `symbolic_muddy_children(n, muddy)`.

    Raises ModelError when nobody is muddy (the father's announcement is then false).
    """
    chosen = _check_children(n, muddy)
    structure = symbolic_muddy_children(n, chosen, backend=backend)
    knows = [Kw(str(i), Atom(f"m{i}")) for i in range(1, n + 1)]
    rounds: list[MuddyRound] = []
    announcement = someone_muddy(n)
    while True:
        structure = structure.announce(announcement)
        knowers = frozenset(i for i, f in enumerate(knows, 1) if structure.holds(f))
        rounds.append(MuddyRound(announcement, structure.count_states(), knowers))
        if knowers:
            break
        announcement = nobody_knows(n)
    return SymbolicMuddyStory(n, chosen, tuple(rounds), structure)
