"""The Klaverjas rules: the game and its parameters (states in `state.py`, views in `views.py`).

Four seats, partners opposite (North–South against East–West). A match is `deals`
deals; the dealer rotates clockwise. Each deal is dealt card by card as chance nodes,
clockwise from the seat after the dealer (the eldest hand). Then trump is chosen: by the
eldest hand (`trump=eldest`), by bidding (`trump=bidding`: from the eldest hand on,
each seat names a suit or passes; when all four pass the eldest hand must name one), or
drawn by chance (`trump=random`, the eldest hand's team plays). The team that chose is
the playing team. The eldest hand leads the first trick, the winner of a trick leads the
next; which cards are legal is `play.legal_cards`.

A deal is worth its card points (152 with 32 cards) plus 10 for the last trick, and the
roem of each trick goes to the team that takes it. The playing team must score more
than the defenders (points and roem), else it is nat: the defenders score every point
and all roem. A playing team that takes every trick gets 100 more (pit). Every seat's
return is its team's match total.

Reduced decks (`ranks` below 8) keep the top ranks of the trump order: `ranks=4` is
J 9 A 10, `ranks=3` is J 9 A, so the jack and the nine are still the best trumps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from epigames.cards import Card, CardLayout, Suit
from epigames.games.core import Game, Param, register_game
from epigames.games.events import Event
from epigames.games.klaverjas import events, observation
from epigames.games.klaverjas.actions import Bid, parse_action
from epigames.games.klaverjas.knowledge import layout_for
from epigames.games.klaverjas.play import (
    PLAYERS,
    RULES,
    SEAT_NAMES,
    TEAMS,
    UNDERTRUMP,
    deck_points,
    klaverjas_deck,
    max_roem,
)
from epigames.games.klaverjas.state import KlaverjasState as KlaverjasState
from epigames.games.observation import Part

#: What `preset=2017` fixes: the 2017 report's single deal with random trump, South
#: leading and North–South always the playing team, undertrumping free, Amsterdam rules.
PRESET_2017: dict[str, object] = {
    "rules": "amsterdam",
    "undertrump": "free",
    "trump": "random",
    "deals": 1,
    "target": 0,
}
_SOUTH, _EAST, _WEST = 2, 1, 3


@register_game
@dataclass(frozen=True)
class KlaverjasGame(Game):
    """Klaverjas: a Dutch trick-taking game for two teams of two."""

    name: ClassVar[str] = "klaverjas"
    event_types: ClassVar[tuple[type[Event], ...]] = events.EVENTS
    # One whole deal: 33 moves.
    showcase: ClassVar[str] = "klaverjas(deals=1)"
    showcase_agents: ClassVar[tuple[str, ...]] = ("tactics",)
    params: ClassVar[tuple[Param, ...]] = (
        Param("rules", str, "amsterdam", choices=RULES, help="when a player must trump"),
        Param(
            "undertrump",
            str,
            "forbid",
            choices=UNDERTRUMP,
            help="a player who cannot overtrump: may not, must, or may play a lower trump",
        ),
        Param(
            "trump",
            str,
            "eldest",
            choices=("eldest", "bidding", "random"),
            help="who chooses trump: the eldest hand, bidding, or chance",
        ),
        Param("deals", int, 16, min=1, max=1000, help="deals in a match (the most, with target)"),
        Param(
            "target",
            int,
            0,
            min=0,
            max=100_000,
            help="end once a team has this many points (0: off)",
        ),
        Param("four_kind", bool, True, help="roem for four of a kind (100, four jacks 200)"),
        Param("ranks", int, 8, min=3, max=8, help="ranks per suit: 8 is the 32-card deck"),
        Param(
            "preset",
            str,
            "none",
            choices=("none", "2017"),
            help="2017: one deal, random trump, South leads, North-South play, undertrump free",
        ),
    )
    rules: str = "amsterdam"
    undertrump: str = "forbid"
    trump: str = "eldest"
    deals: int = 16
    target: int = 0
    four_kind: bool = True
    ranks: int = 8
    preset: str = "none"

    def __post_init__(self) -> None:
        Game.__post_init__(self)
        if self.preset == "2017":
            # The preset wins over the fields it fixes, so str(game) shows what is played.
            for key, value in PRESET_2017.items():
                object.__setattr__(self, key, value)

    #: Four seats (a class attribute, not a property: every view built asks for it).
    num_players = PLAYERS

    @property
    def seat_names(self) -> tuple[str, ...]:
        """North, East, South, West (clockwise)."""
        return SEAT_NAMES

    @property
    def card_layout(self) -> CardLayout:
        """The seats and the trick on the table (face up)."""
        return layout_for(self.ranks)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """North–South and East–West: partners sit opposite."""
        return TEAMS

    @property
    def returns_range(self) -> tuple[float, float]:
        """From nothing to every deal won with pit and the most roem every trick."""
        per_deal = deck_points(self.ranks) + 10 + 100 + self.ranks * max_roem(self.four_kind)
        return (0, self.deals * per_deal)

    @property
    def max_game_length(self) -> int:
        """Every card of every deal, after the trump decisions: the eldest hand's call, up
        to four passes and a call when bidding, none when chance draws trump."""
        calls = {"eldest": 1, "bidding": PLAYERS + 1, "random": 0}[self.trump]
        return self.deals * (len(self.deck) + calls)

    @property
    def deck(self) -> tuple[Card, ...]:
        """Every card of this game, in deck order."""
        return klaverjas_deck(self.ranks)

    def distinct_actions(self) -> list[Bid | Card]:
        """A pass, a trump suit (chosen or bid) and every card to play."""
        return [Bid(None), *(Bid(suit) for suit in Suit), *self.deck]

    def distinct_chance_outcomes(self) -> list[Card | Bid]:
        """The card dealt next, or the trump drawn at random."""
        return [*self.deck, *(Bid(suit) for suit in Suit)]

    def public_parts(self) -> tuple[Part, ...]:
        """The deal, trump, the tricks, the cards played and the scores (`observation`)."""
        return observation.public_parts(self)

    @property
    def first_dealer(self) -> int:
        """Who deals first: West, so North leads (with the 2017 preset East, so South leads)."""
        return _EAST if self.preset == "2017" else _WEST

    @property
    def fixed_playing(self) -> int | None:
        """The team that always plays whoever chooses trump (North–South in 2017), or None."""
        return 0 if self.preset == "2017" else None

    def new_initial_state(self) -> KlaverjasState:
        """The state before the first deal."""
        return KlaverjasState(self)

    def parse_action(self, text: str) -> Card | Bid:
        """Read a card (`J♥`, `play J♥`, `JH`, Dutch `BH`), `trump ♥` or `pass`."""
        return parse_action(text)
