"""Russian cards (3-3-1): Anne and Bob tell each other their hands, Cath learns nothing."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from epigames.errors import ModelError
from epigames.logic.formula import And, Atom, C, Formula, K, Kw, Not, Or, conj, disj
from epigames.logic.model import KripkeModel
from epigames.logic.puzzles.common import frozen_mask
from epigames.logic.relations import Mask, Partition

RUSSIAN_AGENTS = ("anne", "bob", "cath")


def _hand(cards: str | Iterable[int]) -> tuple[int, ...]:
    """A hand from `"012"` or `(0, 1, 2)`, sorted."""
    values = [int(c) for c in cards]
    if len(set(values)) != len(values):
        raise ModelError(f"the hand {cards!r} repeats a card")
    return tuple(sorted(values))


def _hand_name(hand: Sequence[int]) -> str:
    return "".join(str(c) for c in hand)


def russian_cards_model(
    deal: tuple[str | Iterable[int], str | Iterable[int], str | Iterable[int]] = (
        "012",
        "345",
        "6",
    ),
) -> KripkeModel:
    """The Russian cards model: cards 0..6, Anne and Bob hold 3 each, Cath holds 1.

    One world per deal (140), named `"012|345|6"` (Anne's, Bob's, Cath's hand). Agents
    `"anne"`, `"bob"`, `"cath"` each see their own hand. Atoms `a<c>`, `b<c>`, `c<c>` say
    that Anne, Bob or Cath holds card c. The designated world is `deal`.
    """
    actual = tuple(_hand(h) for h in deal)
    cards = tuple(range(7))
    deals: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
    for anne in combinations(cards, 3):
        rest = [c for c in cards if c not in anne]
        for bob in combinations(rest, 3):
            cath = tuple(c for c in rest if c not in bob)
            deals.append((anne, bob, cath))
    if actual not in deals:
        raise ModelError(
            f"the deal {'|'.join(_hand_name(h) for h in actual)!r} is not a deal of cards "
            "0..6 with 3 for Anne, 3 for Bob and 1 for Cath"
        )
    n = len(deals)
    valuation: dict[str, Mask] = {}
    codes = np.zeros((3, n), dtype=np.int64)
    for p, prefix in enumerate("abc"):
        for c in cards:
            mask = np.array([c in d[p] for d in deals], dtype=bool)
            valuation[f"{prefix}{c}"] = frozen_mask(mask)
            codes[p] |= mask.astype(np.int64) << c
    relations = {agent: Partition.from_ids(codes[p]) for p, agent in enumerate(RUSSIAN_AGENTS)}
    worlds = tuple("|".join(_hand_name(h) for h in d) for d in deals)
    return KripkeModel(RUSSIAN_AGENTS, worlds, valuation, dict(relations), (deals.index(actual),))


def russian_informative() -> Formula:
    """Bob knows Anne's hand: `Kw_bob a0 & … & Kw_bob a6`."""
    return conj(*(Kw("bob", Atom(f"a{c}")) for c in range(7)))


def russian_safe() -> Formula:
    """Cath learns no card she does not hold: `(c0 | ~Kw_cath a0) & … & (c6 | ~Kw_cath a6)`.

    For a card Cath does not hold, Anne holds it exactly when Bob does not, so Cath not
    knowing whether Anne holds it also means she does not know whether Bob holds it.
    """
    return conj(*(Or((Atom(f"c{c}"), Not(Kw("cath", Atom(f"a{c}"))))) for c in range(7)))


@dataclass(frozen=True)
class RussianCards:
    """An announcement by Anne in the Russian cards problem, checked with the engine.

    Attributes:
        hands: the hands Anne says hers is one of.
        initial: the model before the announcement.
        after: the model after Anne's announcement `K_anne (hand1 | hand2 | …)`.
        informative: Bob knows Anne's hand in every world that remains.
        safe: Cath learns no card she does not hold, in every world that remains.
        common_knowledge: `C_{anne,bob,cath} (informative & safe)` at the actual deal.
    """

    hands: tuple[tuple[int, ...], ...]
    initial: KripkeModel
    after: KripkeModel
    informative: bool
    safe: bool
    common_knowledge: bool

    @property
    def good(self) -> bool:
        """Safe and informative in every remaining world (so commonly known)."""
        return self.informative and self.safe and self.common_knowledge

    def bob_reply(self) -> KripkeModel:
        """Bob announces Cath's card (`K_bob c<k>` for her actual card k).

        Raises ModelError when Bob does not know it at the actual deal.
        """
        # The initial model keeps every atom: `announce` drops those false in every world
        # left (Cath holds no card that is in every hand Anne named).
        actual = self.initial.designated[0]
        card = next(c for c in range(7) if self.initial.valuation[f"c{c}"][actual])
        return self.after.announce(K("bob", Atom(f"c{card}")))


def anne_says(hands: Iterable[str | Iterable[int]]) -> Formula:
    """Anne's announcement "my hand is one of these": `K_anne ((a0 & a1 & a2) | …)`."""
    options = [And(tuple(Atom(f"a{c}") for c in _hand(h))) for h in hands]
    return K("anne", disj(*options))


def russian_cards(
    hands: Iterable[str | Iterable[int]] = ("012", "034", "056", "135", "146", "236", "245"),
    deal: tuple[str | Iterable[int], str | Iterable[int], str | Iterable[int]] = (
        "012",
        "345",
        "6",
    ),
) -> RussianCards:
    """Check an announcement of Anne's in the Russian cards problem (3-3-1).

    Anne says her hand is one of `hands` (the default is the classic safe and informative
    seven-hand answer); the announcement must be true at the actual `deal`. The result
    says whether, afterwards, Bob knows Anne's hand everywhere (informative), Cath learns
    no card she does not hold anywhere (safe), and both are common knowledge.
    """
    chosen = tuple(_hand(h) for h in hands)
    model = russian_cards_model(deal)
    after = model.announce(anne_says(chosen))
    both = And((russian_informative(), russian_safe()))
    return RussianCards(
        hands=chosen,
        initial=model,
        after=after,
        informative=after.valid(russian_informative()),
        safe=after.valid(russian_safe()),
        common_knowledge=after.holds(C(RUSSIAN_AGENTS, both)),
    )
