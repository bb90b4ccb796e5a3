"""Kripke pictures of Klaverjas cards: who may hold a card, from a seat's or a spectator's view.

A card's picture has one world per possible holder (named by the seat), the atom
`holds(<Seat>, <card>)` true in that world only, and one partition per seat. From a
seat's perspective everything comes from that seat's `knowledge` alone (the true world
is marked only when the seat knows the holder); a spectator sees every seat's
uncertainty around the true world, and every seat's probabilities.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from epigames.cards import Card
from epigames.games.klaverjas.actions import parse_card
from epigames.games.picture import KripkePicture, held_card_picture, subject_card

if TYPE_CHECKING:
    from epigames.games.klaverjas.rules import KlaverjasState


def cards_in_play(state: KlaverjasState) -> list[Card]:
    """This deal's cards not played yet, in deck order; none while dealing (public)."""
    table = state.observation(0).table
    if table.deal_start < 0 or table.played == frozenset(state.game.deck):
        return []
    return [card for card in state.game.deck if card not in table.played]


def picture_subjects(state: KlaverjasState) -> list[str]:
    """The cards in play, as text (`J♥`)."""
    return [str(card) for card in cards_in_play(state)]


def card_picture(state: KlaverjasState, subject: str, seat: int | None = None) -> KripkePicture:
    """The picture of one card in play, from `seat`'s view (None: a spectator's).

    Raises:
        InputError: the subject is not a card in play.
        SeatError: no such seat.
    """
    card = subject_card(state.game, subject, cards_in_play(state), parse_card, "none now")
    return held_card_picture(state, card, seat)
