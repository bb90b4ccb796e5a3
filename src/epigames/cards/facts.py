"""Replay the games' public fact tuples (see `epigames.games.events`) onto `PublicInfo`."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from epigames.cards.errors import InconsistentCardsError
from epigames.cards.layout import CardLayout
from epigames.cards.public import PublicInfo


def apply_facts(public: PublicInfo, facts: Iterable[Sequence[Hashable]]) -> PublicInfo:
    """The public information after a public event's facts, in their order.

    Seats are holder indices; cards are the layout's card values. `("count", seat, n)` is
    checked, not added: counts follow from the deal and the moves.

    Raises:
        InconsistentCardsError: a fact contradicts what is already public.
        ValueError: a fact of an unknown kind.
    """
    for fact in facts:
        kind = fact[0]
        if kind == "at_least_one":
            public = public.at_least_one(_holder(fact[1]), _cards(fact[2]))
        elif kind == "holds":
            public = public.holds(fact[2], _holder(fact[1]))
        elif kind == "lacks":
            public = public.lacks(fact[2], _holder(fact[1]))
        elif kind == "moved":
            public = public.move(fact[1], _holder(fact[2]), _holder(fact[3]))
        elif kind == "removed":
            for card in _cards(fact[1]):
                public = public.remove(card, public.where(public.layout.card_index(card)))
        elif kind == "count":
            seat, n = _holder(fact[1]), fact[2]
            if public.counts[seat] != n:
                raise InconsistentCardsError(
                    f"count: {public.layout.holders[seat]} is said to hold {n} cards, "
                    f"but the public count is {public.counts[seat]}"
                )
        else:
            raise ValueError(f"unknown fact {fact!r}")
    return public


def start_from_counts(
    layout: CardLayout,
    facts: Iterable[Sequence[Hashable]],
    groups: Iterable[Iterable[Hashable]] = (),
) -> PublicInfo:
    """The public information right after a deal announced as `("count", seat, n)` facts.

    ``groups`` are the game's card sets that no holder holds completely while in play (see
    `PublicInfo.start`).
    """
    counts = [0] * layout.n_holders
    for fact in facts:
        if fact[0] != "count":
            raise ValueError(f"a deal is announced by count facts, not {fact!r}")
        counts[_holder(fact[1])] = int(fact[2])  # type: ignore[call-overload]
    return PublicInfo.start(layout, counts, groups)


def _holder(value: Hashable) -> int:
    if not isinstance(value, int):
        raise ValueError(f"a fact names seats by index, not {value!r}")
    return value


def _cards(value: Hashable) -> tuple[Hashable, ...]:
    if not isinstance(value, tuple):
        raise ValueError(f"a fact lists cards as a tuple, not {value!r}")
    return value
