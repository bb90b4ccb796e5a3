"""Game states that draw the Kripke pictures of their subjects (`logic.picture.KripkePicture`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Protocol, TypeVar

from epigames.cards import CardKnowledge, spectator_picture
from epigames.cards.public import UNKNOWN
from epigames.errors import InputError
from epigames.logic.picture import KripkePicture

__all__ = [
    "CardState",
    "HasPictures",
    "KripkePicture",
    "held_card_picture",
    "subject_card",
    "true_deal",
]

CardT = TypeVar("CardT", bound=Hashable)


class HasPictures:
    """Mixin protocol for states that can draw their subjects' Kripke models.

    A game's `State` implements both methods; the web app and the CLI call them. With
    `seat` set, everything must be derived from that seat's own observations only.
    """

    def picture_subjects(self) -> list[str]:
        """The subjects that have a picture now, e.g. every card still in play."""
        raise NotImplementedError

    def picture(self, subject: str, seat: int | None = None) -> KripkePicture:
        """The picture of one subject; `seat` None is the spectator's (all-seeing) view.

        Raises:
            InputError: an unknown subject (the message lists a few valid ones).
        """
        raise NotImplementedError


class CardView(Protocol):
    """A seat's view whose knowledge is the card engine's (Kwartet, Klaverjas)."""

    @property
    def knowledge(self) -> CardKnowledge:
        """What the seat knows about where the cards are."""
        ...


class CardState(Protocol):
    """A card game's state, as far as `held_card_picture` reads it."""

    def hands(self) -> Sequence[Sequence[Hashable]]:
        """The true hands of all seats."""
        ...

    def observation(self, seat: int) -> CardView:
        """The seat's view."""
        ...


def held_card_picture(state: CardState, card: Hashable, seat: int | None) -> KripkePicture:
    """The picture of a card some seat holds, from `seat`'s view (None: a spectator's).

    A seat's picture is its knowledge's (`CardKnowledge.picture`): nothing else is read.
    A spectator's has every seat's uncertainty around the true holder
    (`cards.spectator_picture`).

    Raises:
        SeatError: no such seat.
    """
    if seat is not None:
        return state.observation(seat).knowledge.picture(str(card))
    knowledges = [state.observation(s).knowledge for s in range(len(state.hands()))]
    return spectator_picture(knowledges, card, true_deal(state, knowledges[0]))


def true_deal(state: object, knowledge: CardKnowledge) -> tuple[int, ...]:
    """The true holder index of every card (`REMOVED` for cards out of play), from the
    state's `hands()` and, for cards in no hand and no public place, its `location(card)`.

    Raises:
        InputError: a card whose holder the state does not tell.
    """
    layout = knowledge.layout
    deal = list(knowledge.public.location)
    hands = getattr(state, "hands", None)
    if callable(hands):
        for seat, hand in enumerate(hands()):
            for card in hand:
                deal[layout.card_index(card)] = seat
    locate = getattr(state, "location", None)
    for c, h in enumerate(deal):
        if h == UNKNOWN:
            if not callable(locate):
                raise InputError(f"the holder of {layout.card_name(c)} is not known")
            deal[c] = locate(layout.cards[c])
    return tuple(deal)


def subject_card(
    game: object, subject: str, in_play: Sequence[CardT], parse: Callable[[str], CardT], none: str
) -> CardT:
    """The card in play that the picture subject names, read by the game's `parse`.

    Raises:
        InputError: the subject is not a card in play; the message lists a few (`none`
            when there are none).
    """
    try:
        card: CardT | None = parse(subject)
    except InputError:  # the game's syntax error: not a card at all
        card = None
    if card is None or card not in in_play:
        few = ", ".join(str(c) for c in in_play[:6]) or none
        more = ", …" if len(in_play) > 6 else ""
        raise InputError(
            f"no picture {subject!r} in {game}; subjects are the cards in play: {few}{more}"
        )
    return card
