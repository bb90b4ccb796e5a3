"""Errors raised by the card-location knowledge engine."""

from __future__ import annotations

from epigames.errors import InputError


class UnknownCardError(InputError):
    """A card or holder that the layout does not contain."""


class InconsistentCardsError(InputError):
    """Facts about card locations that no deal satisfies.

    The message names the card and/or holder involved when a single fact is to blame;
    when only the combination of facts is impossible it says so.
    """


class UnsupportedFactError(InputError):
    """A fact the engine cannot fold into its public information exactly.

    E.g. reshuffling a pile with unknown cards into one that is known to lack different
    cards: the merged pile would need a bound on how many of those cards it holds, which
    the engine's facts cannot state. The message names the fact and why.
    """
