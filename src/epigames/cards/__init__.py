"""Cards and holders, public card facts, and the card-location knowledge engine.

Typical use::

    layout = CardLayout.create(cards, ["North", "East", "South", "West"])
    public = PublicInfo.start(layout, [13, 13, 13, 13])
    public = public.at_least_one("East", hearts).move(ace_of_hearts, "West", "East")
    me = CardKnowledge.create(public, "North", my_hand)
    me.holder(queen_of_hearts), me.possible_holders(queen_of_hearts), me.worlds_count()

Besides seats, holders may be locations (`TABLE`, `DECK`, `DISCARD`, `OUT`, or any
`Location`): `CardLayout.with_locations(cards, seats, [TABLE, DECK, DISCARD])`. Games
describe public events with typed facts (`Holds`, `Moved`, `Reshuffled`, …), which
`epigames.cards.facts.apply_facts` folds into a `PublicInfo`.

Playing cards as values (`Card.parse("J♥")`, `deck(ranks=8)` for the 32-card deck,
`Hand`, `deal_outcomes` for a chance node) and tricks (`Trick`, `RankOrder`, follow-suit
helpers) are in `epigames.cards.deck` and `epigames.cards.tricks`.
"""

from epigames.cards.counting import Rng
from epigames.cards.deck import (
    PIQUET_DECK,
    STANDARD_DECK,
    Card,
    CardParseError,
    DeckError,
    Hand,
    Rank,
    Suit,
    deal_outcomes,
    deck,
)
from epigames.cards.errors import (
    InconsistentCardsError,
    UnknownCardError,
    UnsupportedFactError,
)
from epigames.cards.fact_types import (
    CardFact,
    Count,
    Drew,
    Holds,
    HoldsAtLeastOne,
    Lacks,
    Moved,
    Removed,
    Reshuffled,
)
from epigames.cards.formulas import holds_atom
from epigames.cards.knowledge import CardKnowledge
from epigames.cards.kripke import (
    CardKripke,
    kripke_model,
    kripke_worlds,
    spectator_kripke,
    spectator_picture,
)
from epigames.cards.layout import DECK, DISCARD, OUT, TABLE, CardLayout, HolderRef, Location
from epigames.cards.public import REMOVED, UNKNOWN, PublicInfo
from epigames.cards.tricks import HIGH_CARD, KLAVERJAS, Play, RankOrder, Trick, TrickError

__all__ = [
    "DECK",
    "DISCARD",
    "HIGH_CARD",
    "KLAVERJAS",
    "OUT",
    "PIQUET_DECK",
    "REMOVED",
    "STANDARD_DECK",
    "TABLE",
    "UNKNOWN",
    "Card",
    "CardFact",
    "CardKnowledge",
    "CardKripke",
    "CardLayout",
    "CardParseError",
    "Count",
    "DeckError",
    "Drew",
    "Hand",
    "HolderRef",
    "Holds",
    "HoldsAtLeastOne",
    "InconsistentCardsError",
    "Lacks",
    "Location",
    "Moved",
    "Play",
    "PublicInfo",
    "Rank",
    "RankOrder",
    "Removed",
    "Reshuffled",
    "Rng",
    "Suit",
    "Trick",
    "TrickError",
    "UnknownCardError",
    "UnsupportedFactError",
    "deal_outcomes",
    "deck",
    "holds_atom",
    "kripke_model",
    "kripke_worlds",
    "spectator_kripke",
    "spectator_picture",
]
