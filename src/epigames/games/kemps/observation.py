"""Kemps's public state as named arrays (`Game.public_parts`, `View.write_public`)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from epigames.games.core import Game, View
from epigames.games.kemps.actions import HAND_SIZE
from epigames.games.observation import Arrays, Axis, Part

if TYPE_CHECKING:
    from epigames.games.kemps.rules import KempsGame
    from epigames.games.kemps.views import KempsView


def public_parts(game: KempsGame) -> tuple[Part, ...]:
    """The table, the counts of cards per hand and pile, the cards out, the scores, this
    turn's swaps; in the team game also the call window and the partner's signals."""
    seats = Axis.seats(game.seat_names)
    cards = _cards(game)
    n = len(cards)
    low, high = game.returns_range
    parts = (
        *Game.public_parts(game),
        Part("table", (Axis.counting("slot", game.table), cards), "1 for the card in each slot"),
        Part("put_down", (cards,), "1 for a card put down this turn (it may not be taken back)"),
        Part("swaps", (), "swaps made this turn", high=game.max_swaps),
        Part("hand_sizes", (seats,), "cards in each hand", high=HAND_SIZE),
        Part("deck", (), "cards in the deck", high=n),
        Part("discard", (), "cards in the discard pile", high=n),
        Part("out", (cards,), "the card's place in the order cards left play (1: first)", high=n),
        Part("scores", (seats,), "each seat's score", low=low, high=high),
        Part("turns", (), "turns completed", high=game.max_turns),
    )
    if not game.team_game:
        return parts
    return (
        *parts,
        Part("window", (seats,), "1 for each seat the call window under way still asks"),
        Part("signalled", (seats,), "1 for a seat whose signal told this seat what is still true"),
    )


def write_public(view: KempsView, arrays: Arrays) -> None:
    """Fill the parts of `public_parts` from the view."""
    View.write_public(view, arrays)
    cards = _cards(view.kemps_game)
    table = arrays["table"]
    for slot, card in enumerate(view.table):
        table[slot, cards.index(card)] = 1.0
    put_down = arrays["put_down"]
    for card in view.put_down:
        put_down[cards.index(card)] = 1.0
    arrays["swaps"][...] = view.swaps
    arrays["hand_sizes"][:] = view.hand_sizes
    arrays["deck"][...] = view.deck_size
    arrays["discard"][...] = view.discard_size
    out = arrays["out"]
    for place, card in enumerate(view.out, start=1):
        out[cards.index(card)] = place
    arrays["scores"][:] = view.scores
    arrays["turns"][...] = view.turns
    if view.kemps_game.team_game:
        arrays["window"][list(view.window)] = 1.0
        arrays["signalled"][[fact.seat for fact in view.told]] = 1.0


@functools.cache
def _cards(game: KempsGame) -> Axis:
    """The game's cards, as its private items and its knowledge's subjects list them."""
    return game.private_axis
