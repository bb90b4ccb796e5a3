"""Kripke pictures of Klaverjas cards: who may hold a card, from a seat's or a spectator's view.

A card's picture has one world per possible holder (named by the seat), the atom
`holds(<Seat>, <card>)` true in that world only, and one partition per seat. From a
seat's perspective everything comes from that seat's `knowledge` alone (the true world
is marked only when the seat knows the holder); a spectator sees every seat's
uncertainty around the true world, and every seat's probabilities.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from epigames.cards import Card, kripke_model, spectator_kripke
from epigames.errors import InputError
from epigames.games.klaverjas.actions import ActionSyntaxError, parse_card
from epigames.logic.picture import KripkePicture

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


def _subject_card(state: KlaverjasState, subject: str) -> Card:
    in_play = cards_in_play(state)
    try:
        card: Card | None = parse_card(subject)
    except ActionSyntaxError:
        card = None
    if card is None or card not in in_play:
        few = ", ".join(str(c) for c in in_play[:6]) or "none now"
        more = ", …" if len(in_play) > 6 else ""
        raise InputError(
            f"no picture {subject!r} in {state.game}; subjects are the cards in play: {few}{more}"
        )
    return card


def card_picture(state: KlaverjasState, subject: str, seat: int | None = None) -> KripkePicture:
    """The picture of one card in play, from `seat`'s view (None: a spectator's).

    Raises:
        InputError: the subject is not a card in play.
        SeatError: no such seat.
    """
    card = _subject_card(state, subject)
    if seat is not None:
        return state.observation(seat).knowledge.picture(str(card))
    names = state.game.seat_names
    holder = next(s for s, hand in enumerate(state.hands()) if card in hand)
    knowledges = [state.observation(s).knowledge for s in range(len(names))]
    kripke = spectator_kripke(knowledges, card, holder)
    probabilities = {
        names[k.agent]: {names[w]: float(k.probability(card, w)) for w in kripke.worlds}
        for k in knowledges
        if k.agent is not None
    }
    true_world = None if kripke.true_world is None else names[kripke.true_world]
    model = kripke_model(kripke, card, names)
    return KripkePicture(str(card), model, true_world, probabilities, seat)
