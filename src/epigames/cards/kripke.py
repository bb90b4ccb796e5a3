"""The per-card S5 picture: one world per possible holder of a card, one partition per agent.

A picture is drawn from the exact model of the card (`cards.quotient`: the deals consistent
with the public facts, cut down to what decides the card and what each seat can tell of
it, then contracted by bisimulation), seen from the perspective's worlds. Where two of its
worlds put the card with the same holder (what another seat knows depends on how other
cards lie), they are drawn as one and the exact model is kept to judge formulas
(`logic.picture.Exact`). Where no exact model is small enough, the card engine judges them
(an oracle) and the drawing shows each seat's uncertainty as far as it is known exactly.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from epigames.cards.errors import InconsistentCardsError
from epigames.cards.formulas import holds_atom
from epigames.cards.layout import HolderRef
from epigames.logic import formula as fm
from epigames.logic.bisimulation import contract
from epigames.logic.formula import Formula
from epigames.logic.model import KripkeModel
from epigames.logic.picture import Exact, KripkePicture, Oracle, merge_worlds
from epigames.logic.relations import Partition as Blocks

if TYPE_CHECKING:
    # Only for types: `CardKnowledge.picture` is built here.
    from epigames.cards.knowledge import CardKnowledge

#: The most worlds of a card's exact model before contraction: past it the card engine
#: judges formulas and the drawing keeps to what is known exactly (a picture is drawn for
#: every card of the knowledge matrix at once).
PICTURE_WORLDS = 5_000

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


def _exact_model(
    knowledge: CardKnowledge, card: int, deal: Sequence[int], seat: int | None
) -> KripkeModel | None:
    """The card's exact model (`cards.quotient.quotient`) from the deal's world, or from
    `seat`'s worlds around it, cut to the worlds reachable from there and contracted;
    None when no exact quotient is small enough."""
    # Imported here: the quotient reads the card structure, which `CardKnowledge` builds.
    from epigames.cards.quotient import quotient
    from epigames.cards.symbolic import CardStructure

    cards = CardStructure.from_knowledge(knowledge)
    model = quotient(cards, frozenset([card]), deal, most=PICTURE_WORLDS)
    if model is None:
        return None
    if seat is not None:
        block = model.relations[knowledge.layout.holders[seat]]
        assert isinstance(block, Blocks), "card models are S5"
        ids = block.block
        model = model.with_designated(np.flatnonzero(ids == ids[model.designated[0]]).tolist())
    return contract(model)


def _drawn(
    knowledge: CardKnowledge,
    card: int,
    deal: Sequence[int],
    seat: int | None,
    checked: Sequence[CardKnowledge],
) -> tuple[KripkeModel, Exact | None] | None:
    """The model to draw, one world per holder, and the exact one behind it where the two
    differ; None when there is no exact model small enough, or when it leaves one of the
    `checked` seats more possible holders than its knowledge does."""
    exact = _exact_model(knowledge, card, deal, seat)
    if exact is None:
        return None
    names = knowledge.layout.holders
    holder_of = {holds_atom(name, knowledge.layout.cards[card]): name for name in names}
    holders = [
        next(holder_of[a] for a in exact.world_atoms(w) if a in holder_of)
        for w in range(exact.size)
    ]
    # The public facts and the hands make the model: a seat told more in private (a team
    # signal) knows more than they say, and then the card engine answers instead.
    for k in checked:
        assert k.agent is not None
        relation = exact.relations[names[k.agent]]
        assert isinstance(relation, Blocks), "card models are S5"
        here = relation.block[exact.designated[0]]
        sees = {holders[w] for w in np.flatnonzero(relation.block == here)}
        if sees != {names[h] for h in k.possible_holders(knowledge.layout.cards[card])}:
            return None
    # A world a seat considers possible is never merged with one it rules out (that would
    # draw it as unsure where it is sure): those get the holder's name primed. A spectator
    # has no relation of its own: its drawing has one world per holder.
    considered = {holders[w] for w in exact.designated} if seat is not None else set()
    labels = [
        f"{h}′" if h in considered and w not in exact.designated else h
        for w, h in enumerate(holders)
    ]
    drawn, where = merge_worlds(exact, labels, names)
    return drawn, None if drawn.size == exact.size else Exact(exact, where)


def _seat_oracle(knowledge: CardKnowledge) -> Oracle:
    """The seat's verdict by the card engine (`CardKnowledge.knows`)."""

    def verdict(formula: Formula) -> str:
        if knowledge.knows(formula):
            return "true"
        return "false" if knowledge.knows(fm.Not(formula)) else "unknown"

    return verdict


def _truth_oracle(knowledge: CardKnowledge, deal: Sequence[int]) -> Oracle:
    """The truth at the deal, by the card structure or a quotient (`cards.quotient.evaluator`)."""

    def verdict(formula: Formula) -> str:
        from epigames.cards.quotient import evaluator
        from epigames.cards.symbolic import MAX_COMBINATIONS, CardStructure

        cards = CardStructure.from_knowledge(knowledge)
        truth = evaluator(cards, formula, deal, MAX_COMBINATIONS)
        return "true" if truth(formula) else "false"

    return verdict


def seat_picture(knowledge: CardKnowledge, card: Hashable) -> KripkePicture:
    """A card's picture from the knowledge's agent alone: its worlds and its probabilities.

    The worlds the agent considers possible are designated; the drawing also holds the
    worlds other seats consider possible from there. The true world is marked only when
    the agent knows the holder. Nothing but the agent's knowledge is read: the exact model
    is taken around a deal drawn from it, and is the same around any such deal.
    """
    names = knowledge.layout.holders
    c = knowledge.layout.card_index(card)
    seat = knowledge.agent
    known = knowledge.holder(card)
    true_world = None if known is None else names[known]
    found = None
    if seat is not None:
        found = _drawn(knowledge, c, knowledge.sample_world(random.Random(0)), seat, [knowledge])
    exact: Exact | Oracle | None
    if found is None:
        kripke = kripke_worlds(knowledge, card)
        model = kripke_model(kripke, card, names)
        model = model.with_designated(
            [model.worlds.index(true_world)] if true_world else range(model.size)
        )
        exact = _seat_oracle(knowledge)
    else:
        model, exact = found
    considered = [model.worlds[w] for w in model.designated]
    probabilities = (
        {}
        if seat is None
        else {names[seat]: {w: float(knowledge.probability(card, w)) for w in considered}}
    )
    return KripkePicture(str(card), model, true_world, probabilities, seat, exact)


def spectator_picture(
    knowledges: Sequence[CardKnowledge], card: Hashable, deal: Sequence[int]
) -> KripkePicture:
    """A card's picture from outside, the true `deal` (a holder index per card) marked,
    with every agent's probabilities.

    Worlds and agents are named by `layout.holders`.

    Raises:
        InconsistentCardsError: no knowledge is given, or an agent rules out the true holder.
    """
    if not knowledges:
        raise InconsistentCardsError("spectator_picture needs the knowledge of at least one agent")
    layout = knowledges[0].layout
    names = layout.holders
    c = layout.card_index(card)
    truth = deal[c]
    for k in knowledges:
        if k.agent is not None and truth not in k.possible_holders(card):
            raise InconsistentCardsError(
                f"{names[k.agent]} rules out that {names[truth]} has card "
                f"{layout.card_name(c)}, yet it does"
            )
    seats = [k for k in knowledges if k.agent is not None]
    found = _drawn(knowledges[0], c, deal, None, seats)
    exact: Exact | Oracle | None
    if found is None:
        model = kripke_model(spectator_kripke(knowledges, card, truth), card, names)
        exact = _truth_oracle(knowledges[0], deal)
    else:
        model, exact = found
    # A seat's chance of a holder goes to the holder's world; a primed one (the same holder
    # as the true world, elsewhere in the other cards) gets none of its own.
    probabilities = {
        names[k.agent]: {w: float(k.probability(card, w)) for w in model.worlds if w in names}
        for k in knowledges
        if k.agent is not None
    }
    return KripkePicture(str(card), model, names[truth], probabilities, None, exact)
