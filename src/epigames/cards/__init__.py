"""Cards and holders, public card facts, and the card-location knowledge engine.

Typical use::

    layout = CardLayout.create(cards, ["North", "East", "South", "West"])
    public = PublicInfo.start(layout, [13, 13, 13, 13])
    public = public.at_least_one("East", hearts).move(ace_of_hearts, "West", "East")
    me = CardKnowledge.create(public, "North", my_hand)
    me.holder(queen_of_hearts), me.possible_holders(queen_of_hearts), me.worlds_count()
"""

from epigames.cards.counting import Rng
from epigames.cards.errors import InconsistentCardsError, UnknownCardError
from epigames.cards.formulas import CardFormula
from epigames.cards.knowledge import CardKnowledge
from epigames.cards.kripke import CardKripke, kripke_worlds, spectator_kripke
from epigames.cards.layout import CardLayout, HolderRef
from epigames.cards.public import REMOVED, UNKNOWN, PublicInfo

__all__ = [
    "REMOVED",
    "UNKNOWN",
    "CardFormula",
    "CardKnowledge",
    "CardKripke",
    "CardLayout",
    "HolderRef",
    "InconsistentCardsError",
    "PublicInfo",
    "Rng",
    "UnknownCardError",
    "kripke_worlds",
    "spectator_kripke",
]
