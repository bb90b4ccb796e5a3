"""Kwartet's public state as named arrays (`Game.public_parts`, `View.write_public`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from epigames.games.core import Game, View
from epigames.games.kwartet.cards import MEMBERS
from epigames.games.observation import Arrays, Axis, Part

if TYPE_CHECKING:
    from epigames.games.kwartet.rules import KwartetGame
    from epigames.games.kwartet.views import KwartetView


def public_parts(game: KwartetGame) -> tuple[Part, ...]:
    """The seat to move, hand sizes, points and the kinds laid down (by whom, in which order)."""
    seats = Axis.seats(game.seat_names)
    kinds = Axis.counting("kind", game.kinds)
    return (
        *Game.public_parts(game),
        Part("hand_sizes", (seats,), "cards in each hand", high=MEMBERS * game.kinds),
        Part("scores", (seats,), "each seat's points (kinds laid down)", high=game.kinds),
        Part(
            "laid_down",
            (seats, kinds),
            "the place of the kind in the order kinds were laid down (1: first), 0 if not "
            "by this seat",
            high=game.kinds,
        ),
    )


def write_public(view: KwartetView, arrays: Arrays) -> None:
    """Fill the parts of `public_parts` from the view."""
    View.write_public(view, arrays)
    arrays["hand_sizes"][:] = view.hand_sizes
    arrays["scores"][:] = view.scores
    laid = arrays["laid_down"]
    for place, (kind, seat) in enumerate(view.laid_down, start=1):
        laid[seat, kind - 1] = place
