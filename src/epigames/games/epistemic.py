"""Game events as action models: who observes an event decides how knowledge changes.

The logic engine reads an event of the game log as an action model (`epigames.logic.actions`)
once its facts are given as formulas (`formula_of`, e.g. `Holds(2, c)` as the atom
`holds(2, c)`); seat `i` is the agent `agents[i]`:

- a public event (`PublicAnnouncement`) is a public announcement of its facts: the worlds
  where they are false go, and they become common knowledge;
- an event seen by one seat (`PrivateObservation`) or by a set of seats (`GroupObservation`)
  is the same facts announced to that group (`ActionModel.private_announcement`): the group
  learns them, commonly within the group, and every other seat considers that nothing
  happened, so what it knows about the facts is unchanged. A group holding every seat is
  a public announcement (the product would be bisimilar to it, only larger).

This is what the card engine does, seat by seat. It folds the facts of public events into
the `PublicInfo` every seat starts from (`cards.facts.apply_facts`), and gives the facts of
a private or group event to the seats that saw it only: a seat's own hand, or extra
`holds` / `lacks` pairs (`CardKnowledge.create`). So for every seat, what it knows about
where the cards are is the same in both: `tests/games/test_group_events.py` checks this on
a small deal. The action model says more than the card engine keeps: about knowledge of
knowledge, e.g. that a seat outside the group does not know the group learned something.

An event whose occurrence everyone sees but whose content only some do ("West looks at
the card") is a semi-private announcement (`ActionModel.semi_private_announcement`); the
event kinds here do not express that, so build it directly. Facts that change where cards
are (`Moved`, `Removed`, `Reshuffled`) are not claims: they need postconditions
(`ActionModel.build`), and `formula_of` should refuse them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from epigames.games.events import Event, Fact
from epigames.logic import ActionModel, Formula, conj


def observers(event: Event, seats: int) -> frozenset[int]:
    """The seats, among `seats` in all, that observe the event."""
    if event.public:
        return frozenset(range(seats))
    return frozenset(s for s in range(seats) if event.visible_to(s))


def event_formula(event: Event, formula_of: Callable[[Fact], Formula]) -> Formula:
    """The event's facts as one formula: the conjunction of `formula_of(fact)` (⊤ if none)."""
    return conj(*(formula_of(fact) for fact in event.facts))


def event_action_model(
    event: Event, agents: Sequence[str], formula_of: Callable[[Fact], Formula]
) -> ActionModel:
    """The action model of an event: its facts announced to the seats that observe it.

    Args:
        event: the event; its facts are claims (see the module docstring).
        agents: the agent of each seat, in seat order (every seat of the game).
        formula_of: one fact as a formula over the model's atoms.

    Returns:
        A public announcement when every seat observes the event, else a private
        announcement to the observing seats' agents (for none: nobody learns anything).
    """
    formula = event_formula(event, formula_of)
    seen = observers(event, len(agents))
    if len(seen) == len(agents):
        return ActionModel.public_announcement(agents, formula)
    return ActionModel.private_announcement(agents, [agents[s] for s in sorted(seen)], formula)
