"""Klaverjas's public state as named arrays (`Game.public_parts`, `View.write_public`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from epigames.cards import Suit, Trick
from epigames.games.core import Game, View
from epigames.games.klaverjas.events import CardPlayed, DealDone, TrumpChosen
from epigames.games.klaverjas.play import PLAYERS, TEAM_NAMES, deck_points, max_roem
from epigames.games.observation import Arrays, Axis, Part

if TYPE_CHECKING:
    from epigames.games.klaverjas.rules import KlaverjasGame
    from epigames.games.klaverjas.views import KlaverjasView

#: The suits in `Suit` order: ♣ ♦ ♥ ♠.
SUITS = Axis("suit", tuple(Suit))


def public_parts(game: KlaverjasGame) -> tuple[Part, ...]:
    """The deal, trump and who named it, the trick on the table and the last one, every
    card played this deal by whom, and per team tricks, points, roem and match points."""
    seats = Axis.seats(game.seat_names)
    teams = Axis("team", (0, 1), TEAM_NAMES)
    cards = _cards(game)
    per_deal = deck_points(game.ranks) + 10
    return (
        *Game.public_parts(game),
        Part("deal", (), "the deal under way (1: the first; 0 before it)", high=game.deals),
        Part("dealer", (seats,), "1 for this deal's dealer"),
        Part("passes", (), "passes so far in this deal's bidding", high=PLAYERS),
        Part("trump", (SUITS,), "1 for the trump suit, once chosen"),
        Part("chooser", (seats,), "1 for the seat that named trump (none if drawn)"),
        Part("playing_team", (teams,), "1 for the playing team, once trump is chosen"),
        Part("leader", (seats,), "1 for the seat that leads the trick on the table"),
        Part("trick", (seats, cards), "1 where a seat played a card to the trick on the table"),
        Part("last_leader", (seats,), "1 for the seat that led the previous trick of this deal"),
        Part("last_trick", (seats, cards), "1 where a seat played a card to the previous trick"),
        Part("played", (seats, cards), "1 where a seat played a card in this deal"),
        Part("hand_sizes", (seats,), "cards in each hand", high=game.ranks),
        Part("tricks", (teams,), "tricks won this deal", high=game.ranks),
        Part(
            "points",
            (teams,),
            "card points won this deal, the last trick's 10 included",
            high=per_deal,
        ),
        Part("roem", (teams,), "roem won this deal", high=game.ranks * max_roem(game.four_kind)),
        Part("scores", (teams,), "match points after the deals scored", high=game.returns_range[1]),
    )


def write_public(view: KlaverjasView, arrays: Arrays) -> None:
    """Fill the parts of `public_parts` from the view."""
    View.write_public(view, arrays)
    table = view.table
    axis = _cards(view.game)
    position, n = axis.lookup, len(axis)
    arrays["deal"][...] = table.deal
    if table.dealer >= 0:
        arrays["dealer"][table.dealer] = 1.0
    arrays["passes"][...] = table.passes
    if table.trump is not None:
        arrays["trump"][SUITS.index(table.trump)] = 1.0
    if table.playing is not None:
        arrays["playing_team"][table.playing] = 1.0
    _trick(table.trick, arrays["leader"], arrays["trick"], position)
    _trick(table.last_trick, arrays["last_leader"], arrays["last_trick"], position)
    # One pass over this deal's public events (the records keep no plays by seat): every
    # observation of every step makes it, so not through the view's properties.
    # The plays are gathered as flat indices into `played` and written in one store.
    flat: list[int] = []
    left = [0] * len(arrays["hand_sizes"])
    after = 0  # the plays before the deal was done are not taken from its hand sizes
    for event in view.deal_events:
        if type(event) is CardPlayed:
            flat.append(event.seat * n + position(event.card))
        elif type(event) is DealDone:
            left, after = list(event.hand_sizes), len(flat)
        elif type(event) is TrumpChosen and event.chooser >= 0:
            arrays["chooser"][event.chooser] = 1.0
    arrays["played"].put(flat, 1.0)
    for at in flat[after:]:
        left[at // n] -= 1
    arrays["hand_sizes"][:] = left
    arrays["tricks"][:] = table.tricks
    arrays["points"][:] = table.points
    arrays["roem"][:] = table.roem
    arrays["scores"][:] = table.totals


@functools.cache
def _cards(game: KlaverjasGame) -> Axis:
    """The game's cards, as its private items and its knowledge's subjects list them."""
    return game.private_axis


def _trick(
    trick: Trick | None,
    leader: npt.NDArray[np.float32],
    plays: npt.NDArray[np.float32],
    index: Callable[[Hashable], int],
) -> None:
    if trick is None:
        return
    leader[trick.leader] = 1.0
    for play in trick.plays:
        plays[play.seat, index(play.card)] = 1.0
