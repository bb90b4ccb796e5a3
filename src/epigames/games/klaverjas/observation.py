"""Klaverjas's public state as named arrays (`Game.public_parts`, `View.write_public`)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from epigames.cards import Play, Suit, Trick
from epigames.games.core import Game, View
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
    cards = game.private_axis
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
    flat, cell = _index(view.game)
    arrays["deal"][...] = table.deal
    if table.dealer >= 0:
        arrays["dealer"][table.dealer] = 1.0
    arrays["passes"][...] = table.passes
    if table.trump is not None:
        arrays["trump"][SUITS.index(table.trump)] = 1.0
    if table.playing is not None:
        arrays["playing_team"][table.playing] = 1.0
    if table.chooser is not None:
        arrays["chooser"][table.chooser] = 1.0
    _trick(table.trick, arrays["leader"], arrays["trick"], cell)
    _trick(table.last_trick, arrays["last_leader"], arrays["last_trick"], cell)
    # Every observation of every step writes these: one store each, indices found in C.
    if table.plays:
        arrays["played"].put(list(map(flat.__getitem__, table.plays)), 1.0)
    # The short parts entry by entry: numpy turns a tuple into an array for a slice store,
    # which costs about three times as much as two stores of one entry each.
    if table.sizes:
        sizes = arrays["hand_sizes"]
        sizes[0], sizes[1], sizes[2], sizes[3] = table.sizes
    part = arrays["tricks"]
    part[0], part[1] = table.tricks
    part = arrays["points"]
    part[0], part[1] = table.points
    part = arrays["roem"]
    part[0], part[1] = table.roem
    part = arrays["scores"]
    part[0], part[1] = table.totals


#: Where a play goes in a (seats × cards) part such as `played`: its flat index, and its
#: (seat, card) cell.
_Index = tuple[dict[Play, int], dict[Play, tuple[int, int]]]
#: The last game `_index` was asked for, with its answer: one game is asked for on every
#: observation, and a game's hash is computed in Python.
_last: tuple[object, _Index] = (None, ({}, {}))


def _index(game: KlaverjasGame) -> _Index:
    """Where each possible play of `game` goes in a (seats × cards) part."""
    global _last
    if _last[0] is not game:
        _last = (game, _plays_index(game))
    return _last[1]


@functools.cache
def _plays_index(game: KlaverjasGame) -> _Index:
    cards = game.private_axis.items
    cell = {
        Play(seat, card): (seat, i)  # type: ignore[arg-type]  # the axis holds cards
        for seat in range(PLAYERS)
        for i, card in enumerate(cards)
    }
    return {play: seat * len(cards) + i for play, (seat, i) in cell.items()}, cell


def _trick(
    trick: Trick | None,
    leader: npt.NDArray[np.float32],
    plays: npt.NDArray[np.float32],
    cell: dict[Play, tuple[int, int]],
) -> None:
    if trick is None:
        return
    leader[trick.leader] = 1.0
    for play in trick.plays:
        plays[cell[play]] = 1.0
