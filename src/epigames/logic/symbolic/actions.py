"""Product update of a knowledge structure with an S5 action model (a knowledge transformer).

SMCDEL's knowledge transformers, built from our `ActionModel`: the new structure's states
are the pairs (state s, event e) where e's precondition holds at s. Fresh variables hold
the event (its number, observed by nobody, and per agent the number of its block of
events, observed by that agent) and the new value of every atom a postcondition sets; the
old variables keep the old values, so an agent still observes what it observed before,
as the product update says: (s, e) and (t, f) look alike to it when s and t did and e
and f do.
"""

from __future__ import annotations

from epigames.errors import ModelError
from epigames.logic.actions import ActionModel
from epigames.logic.symbolic.bdd import Node
from epigames.logic.symbolic.structure import KnowledgeStructure, s5_blocks

__all__ = ["product_update"]


def _bits(count: int) -> int:
    """How many bits number `count` things."""
    return max(count - 1, 0).bit_length()


def product_update(structure: KnowledgeStructure, action: ActionModel) -> KnowledgeStructure:
    """The structure after the action, like `epigames.logic.product_update` on the model.

    Raises:
        ModelError: the agents differ, an agent's event relation is not a partition (the
            structure is S5), no event can happen in any state, or none of the designated
            events at a designated state.
    """
    if set(structure.agents) != set(action.agents):
        raise ModelError(
            f"the structure's agents {sorted(structure.agents)} differ from the action "
            f"model's {sorted(action.agents)}"
        )
    blocks = s5_blocks(action.relations, structure.agents, "event relation")
    mgr = structure.manager
    n_events = len(action.events)
    event_bits = [mgr.new_var() for _ in range(_bits(n_events))]
    agent_bits = {a: [mgr.new_var() for _ in range(_bits(max(bs) + 1))] for a, bs in blocks.items()}
    changed = sorted({p for post in action.post for p in post})
    new_value = {p: mgr.new_var() for p in changed}

    def number(names: list[str], value: int) -> Node:
        return mgr.cube({v: bool(value >> k & 1) for k, v in enumerate(names)})

    def old(p: str) -> Node:
        var = structure.atoms.get(p)
        return mgr.false if var is None else mgr.var(var)

    happens = mgr.false
    for e in range(n_events):
        here = number(event_bits, e) & structure.truth(action.pre[e])
        for agent, names in agent_bits.items():
            here = here & number(names, blocks[agent][e])
        for p in changed:
            value = structure.truth(action.post[e][p]) if p in action.post[e] else old(p)
            here = here & mgr.var(new_value[p]).equiv(value)
        happens = happens | here
    law = structure.law & happens
    if law == mgr.false:
        raise ModelError("no event of the action model can happen in any state")
    designated = None
    if structure.designated is not None and action.designated:
        chosen = mgr.false
        for e in action.designated:
            chosen = chosen | number(event_bits, e)
        designated = structure.designated & chosen & law
        if designated == mgr.false:
            raise ModelError("no designated event can happen at a designated state")
    atoms = dict(structure.atoms)
    atoms.update(new_value)
    observations = {
        a: structure.observations[a] | frozenset(agent_bits[a]) for a in structure.agents
    }
    variables = (
        *structure.variables,
        *event_bits,
        *(b for names in agent_bits.values() for b in names),
        *new_value.values(),
    )
    return KnowledgeStructure(
        mgr, atoms, variables, law, observations, designated, structure.bdd_quantifiers
    )
