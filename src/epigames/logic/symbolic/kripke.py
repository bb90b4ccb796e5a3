"""Translating an explicit S5 Kripke model into a knowledge structure that agrees with it.

The structure's variables are the model's atoms and, per agent, the bits of the number of
its block; the agent observes its own bits. Its states are the worlds' assignments, so two
worlds with the same atoms and the same block of every agent become one state; they are
bisimilar (each agent sees the same worlds from both), so no formula tells them apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from epigames.errors import ModelError
from epigames.logic.model import KripkeModel
from epigames.logic.symbolic.bdd import Manager
from epigames.logic.symbolic.structure import KnowledgeStructure, s5_blocks

__all__ = ["KripkeEncoding", "from_kripke"]


@dataclass(frozen=True)
class KripkeEncoding:
    """A model's knowledge structure and each world's state in it.

    Attributes:
        structure: the structure (the model's designated worlds designated).
        states: per world (by index), its value for every variable of the structure.
    """

    structure: KnowledgeStructure
    states: tuple[dict[str, bool], ...]


def from_kripke(model: KripkeModel, *, backend: str | None = None) -> KripkeEncoding:
    """The knowledge structure of an S5 model (every relation a partition).

    Raises:
        ModelError: an agent's relation is not a partition, or the model has no world.
    """
    if model.size == 0:
        raise ModelError("a model without worlds has no knowledge structure")
    blocks = s5_blocks(model.relations, model.agents, "relation")
    for agent, ids in blocks.items():
        # Number the blocks by their first world, so equal models give equal structures.
        first: dict[int, int] = {}
        blocks[agent] = [first.setdefault(i, len(first)) for i in ids]
    manager = Manager(backend)
    atoms = {a: manager.new_var() for a in model.atoms}
    bits: dict[str, list[str]] = {}
    for agent in model.agents:
        width = max(blocks[agent]).bit_length()
        bits[agent] = [manager.new_var() for _ in range(width)]
    states: list[dict[str, bool]] = []
    for w in range(model.size):
        true = model.world_atoms(w)
        values = {v: a in true for a, v in atoms.items()}
        for agent, names in bits.items():
            number = blocks[agent][w]
            values.update({b: bool(number >> k & 1) for k, b in enumerate(names)})
        states.append(values)
    law = manager.false
    for values in states:
        law = law | manager.cube(values)
    designated = None
    if model.designated:
        designated = manager.false
        for d in model.designated:
            designated = designated | manager.cube(states[d])
    variables = (*atoms.values(), *(b for names in bits.values() for b in names))
    observations = {agent: frozenset(names) for agent, names in bits.items()}
    structure = KnowledgeStructure(manager, atoms, variables, law, observations, designated)
    return KripkeEncoding(structure, tuple(states))
