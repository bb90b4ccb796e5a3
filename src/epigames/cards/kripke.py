"""The per-card S5 picture: one world per possible holder of a card, one partition per agent."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from epigames.cards.errors import InconsistentCardsError
from epigames.cards.formulas import holds_atom
from epigames.cards.layout import HolderRef
from epigames.logic.model import KripkeModel
from epigames.logic.picture import KripkePicture

if TYPE_CHECKING:
    # Only for types: `CardKnowledge.picture` is built here.
    from epigames.cards.knowledge import CardKnowledge

#: An agent's partition of the worlds: its blocks of indistinguishable worlds.
Partition = tuple[frozenset[int], ...]


@dataclass(frozen=True, slots=True)
class CardKripke:
    """A small S5 model about one card.

    Attributes:
        card: the card's index.
        worlds: the worlds, each named by the holder index that has the card there.
        partitions: ``(agent, partition)`` pairs, agents in increasing order.
        true_world: the actual holder when known to whoever built the model, else None.
    """

    card: int
    worlds: tuple[int, ...]
    partitions: tuple[tuple[int, Partition], ...]
    true_world: int | None = None

    def partition(self, agent: int) -> Partition:
        """The partition of ``agent``."""
        for who, blocks in self.partitions:
            if who == agent:
                return blocks
        raise KeyError(agent)


def _split(worlds: frozenset[int], agent: int) -> Partition:
    """Worlds an agent tells apart by whether it holds the card itself."""
    own = worlds & {agent}
    rest = worlds - own
    return tuple(block for block in (own, rest) if block)


def kripke_worlds(knowledge: CardKnowledge, card: Hashable) -> CardKripke:
    """The card's model as seen by the knowledge's agent (the true world is not marked).

    Worlds are the card's possible holders for this agent, who cannot tell them apart.
    Each other player ``b`` is modelled with public information and its own hand in each
    world: it knows whether it holds the card, so its blocks are ``{b}`` and the rest.
    """
    layout = knowledge.layout
    c = layout.card_index(card)
    worlds = knowledge.possible_holders(card)
    parts: list[tuple[int, Partition]] = []
    for player in sorted(layout.players):
        if player == knowledge.agent:
            parts.append((player, (worlds,) if worlds else ()))
        else:
            parts.append((player, _split(worlds, player)))
    return CardKripke(c, tuple(sorted(worlds)), tuple(parts))


def spectator_kripke(
    knowledges: Sequence[CardKnowledge], card: Hashable, true_holder: HolderRef
) -> CardKripke:
    """The card's model seen from outside: every agent's uncertainty, the true world marked.

    The worlds are the true holder and every holder some agent considers possible. Each
    agent's block around the true world is its set of possible holders; every other world
    is a singleton for it (what the agent would know there is not modelled).

    Raises:
        InconsistentCardsError: an agent rules out the true holder (its facts are false).
    """
    if not knowledges:
        raise InconsistentCardsError("spectator_kripke needs the knowledge of at least one agent")
    layout = knowledges[0].layout
    c = layout.card_index(card)
    truth = layout.holder_index(true_holder)
    everything = {truth}
    views = []
    for k in knowledges:
        if k.agent is None:
            raise InconsistentCardsError(
                "spectator_kripke needs agents' knowledge, not a public view"
            )
        seen = k.possible_holders(card)
        if truth not in seen:
            raise InconsistentCardsError(
                f"{layout.holders[k.agent]} rules out that {layout.holders[truth]} has card "
                f"{layout.card_name(c)}, yet it does"
            )
        everything |= seen
        views.append((k.agent, seen))
    worlds = frozenset(everything)
    parts = []
    for agent, seen in sorted(views, key=lambda v: v[0]):
        blocks = [seen, *(frozenset([w]) for w in sorted(worlds - seen))]
        parts.append((agent, tuple(blocks)))
    return CardKripke(c, tuple(sorted(worlds)), tuple(parts), truth)


def kripke_model(kripke: CardKripke, card: Hashable, names: Sequence[str]) -> KripkeModel:
    """The logic engine's model of a card's picture: worlds and agents named by holder."""
    worlds = [names[w] for w in kripke.worlds]
    return KripkeModel.build(
        worlds,
        {names[w]: [holds_atom(names[w], card)] for w in kripke.worlds},
        partitions={
            names[agent]: [[names[w] for w in sorted(block)] for block in blocks]
            for agent, blocks in kripke.partitions
        },
        designated=[] if kripke.true_world is None else [names[kripke.true_world]],
    )


def seat_picture(knowledge: CardKnowledge, card: Hashable) -> KripkePicture:
    """A card's picture from the knowledge's agent alone: its worlds and its probabilities.

    The true world is marked only when the agent knows the holder; every world is one the
    agent considers possible, so all are designated.
    """
    names = knowledge.layout.holders
    kripke = kripke_worlds(knowledge, card)
    known = knowledge.holder(card)
    if known is not None:
        kripke = dataclasses.replace(kripke, true_world=known)
    seat = knowledge.agent
    probabilities = (
        {}
        if seat is None
        else {names[seat]: {names[w]: float(knowledge.probability(card, w)) for w in kripke.worlds}}
    )
    true_world = None if known is None else names[known]
    model = kripke_model(kripke, card, names)
    if true_world is None:
        model = model.with_designated(range(model.size))
    return KripkePicture(str(card), model, true_world, probabilities, seat)


def spectator_picture(
    knowledges: Sequence[CardKnowledge], card: Hashable, true_holder: HolderRef
) -> KripkePicture:
    """A card's picture from outside (`spectator_kripke`) with every agent's probabilities.

    Worlds and agents are named by `layout.holders`; the true world is marked.

    Raises:
        InconsistentCardsError: no knowledge is given, or an agent rules out the true holder.
    """
    kripke = spectator_kripke(knowledges, card, true_holder)
    names = knowledges[0].layout.holders
    probabilities = {
        names[k.agent]: {names[w]: float(k.probability(card, w)) for w in kripke.worlds}
        for k in knowledges
        if k.agent is not None
    }
    true_world = None if kripke.true_world is None else names[kripke.true_world]
    model = kripke_model(kripke, card, names)
    return KripkePicture(str(card), model, true_world, probabilities, None)
