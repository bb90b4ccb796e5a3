"""Dealing helpers for card games' rules (Kwartet, Klaverjas)."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable
from typing import TypeVar

__all__ = ["redeal"]

CardT = TypeVar("CardT", bound=Hashable)


def redeal(
    origins: Iterable[tuple[CardT, int]], players: int, first: int, rng: random.Random
) -> list[CardT]:
    """The order to deal the cards in so that each goes to the seat `origins` gives it.

    The deal gives one card at a time, clockwise from seat `first`; each seat's cards come
    in a random order (`rng` shuffles the hands in seat order). `resample` uses it to
    rebuild a deal that leads to a sampled world.
    """
    hands: list[list[CardT]] = [[] for _ in range(players)]
    for card, seat in origins:
        hands[seat].append(card)
    for hand in hands:
        rng.shuffle(hand)
    total = sum(len(hand) for hand in hands)
    return [hands[(first + i) % players].pop() for i in range(total)]
