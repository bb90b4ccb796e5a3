"""Kripke pictures of Kwartet cards: who may hold a card, from a seat's or a spectator's view.

A card's picture has one world per possible holder (named by the seat), the atom
`holds(<Seat>, <card>)` true in that world only, and one partition per seat:

- from a seat's perspective everything comes from that seat's `knowledge` alone: the
  worlds are the holders it considers possible, it cannot tell them apart, and every
  other seat is modelled as telling apart only whether it holds the card itself
  (`epigames.cards.kripke_worlds`); the true world is marked only when the seat knows the
  holder, and only its own probabilities are given;
- a spectator sees every seat's uncertainty around the true world
  (`epigames.cards.spectator_kripke`), the true world marked and every seat's
  probabilities.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from epigames.games.core import CHANCE
from epigames.games.kwartet.cards import Card
from epigames.games.picture import KripkePicture, held_card_picture, subject_card

if TYPE_CHECKING:
    from epigames.games.kwartet.rules import KwartetState


def cards_in_play(state: KwartetState) -> list[Card]:
    """The cards not laid down yet, in deck order; none before the deal is over (public)."""
    if state.current_player == CHANCE:
        return []
    down = {kind for kind, _ in state.observation(0).laid_down}
    return [card for card in state.game.deck if card.kind not in down]


def picture_subjects(state: KwartetState) -> list[str]:
    """The cards still in play, as text (`⟨8,4⟩`)."""
    return [str(card) for card in cards_in_play(state)]


def card_picture(state: KwartetState, subject: str, seat: int | None = None) -> KripkePicture:
    """The picture of one card in play, from `seat`'s view (None: a spectator's).

    A seat's picture is its knowledge's (`CardKnowledge.picture`): nothing else is read.

    Raises:
        InputError: the subject is not a card in play (or the deal is not over).
        SeatError: no such seat.
    """
    card = subject_card(state.game, subject, cards_in_play(state), Card.parse, "none yet")
    return held_card_picture(state, card, seat)
