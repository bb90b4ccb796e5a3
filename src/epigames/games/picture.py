"""Game states that draw the Kripke pictures of their subjects (`logic.picture.KripkePicture`)."""

from __future__ import annotations

from epigames.logic.picture import KripkePicture

__all__ = ["HasPictures", "KripkePicture"]


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
