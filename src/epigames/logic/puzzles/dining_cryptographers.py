"""The dining cryptographers (Chaum), n at a round table, on a knowledge structure.

One of them paid for dinner, or the NSA did. Each neighbouring pair shares a coin that only
the two see; each cryptographer says whether its two coins differ, saying the opposite if
it paid. The parity of what they say tells everyone whether one of them paid, and the
payer stays anonymous to the others.
"""

from __future__ import annotations

from dataclasses import dataclass

from epigames.errors import ModelError
from epigames.logic.formula import Atom, Formula, K, Kw, Not, OneOf, Or, Xor, conj, disj
from epigames.logic.symbolic import KnowledgeStructure


def _paid(i: int) -> Atom:
    return Atom(f"p{i}")


def _coin(i: int) -> Atom:
    # Coin i lies between cryptographer i and i + 1 (the last shares coin n with the first).
    return Atom(f"c{i}")


def says(n: int, i: int) -> Formula:
    """What cryptographer i announces the value of: `p<i> xor c<i-1> xor c<i>`."""
    left = n if i == 1 else i - 1
    return Xor((_paid(i), _coin(left), _coin(i)))


def dining_structure(n: int, paid: int, coins: tuple[bool, ...]) -> KnowledgeStructure:
    """Atoms `p1…pn` (i paid), `c1…cn` (coin i shows heads); at most one paid.

    Cryptographer i observes `p<i>` and its two coins. The designated state: `paid` paid
    (0 for the NSA) and the coins as given.
    """
    if n < 3:
        raise ModelError(f"the dining cryptographers need at least 3 at the table, got n={n}")
    if not 0 <= paid <= n:
        raise ModelError(f"the payer must be 0 (the NSA) or a cryptographer 1..{n}, got {paid}")
    if len(coins) != n:
        raise ModelError(f"{n} cryptographers share {n} coins, got {len(coins)}")
    payers = [_paid(i) for i in range(1, n + 1)]
    law = Or((conj(*(Not(p) for p in payers)), OneOf(tuple(payers))))
    atoms = [a.name for a in payers] + [f"c{i}" for i in range(1, n + 1)]
    observations = {
        str(i): [f"p{i}", f"c{n if i == 1 else i - 1}", f"c{i}"] for i in range(1, n + 1)
    }
    structure = KnowledgeStructure.build(atoms, law, observations)
    state = [f"c{i}" for i in range(1, n + 1) if coins[i - 1]]
    if paid:
        state.append(f"p{paid}")
    return structure.with_designated([state])


@dataclass(frozen=True)
class DiningStory:
    """What each cryptographer said and what everyone knows afterwards.

    Attributes:
        n: cryptographers at the table.
        paid: who paid (0: the NSA).
        said: per cryptographer, in turn, the value it announced (True: "different").
        states: states left after all announcements.
        everyone_knows_whether: every cryptographer knows whether one of them paid.
        anonymous: if one of them paid, no other knows who (True when the NSA paid).
        payer_known_to: the cryptographers who know who paid, at the end.
    """

    n: int
    paid: int
    said: tuple[bool, ...]
    states: int
    everyone_knows_whether: bool
    anonymous: bool
    payer_known_to: frozenset[int]


def dining_cryptographers(n: int, paid: int, coins: tuple[bool, ...] | None = None) -> DiningStory:
    """Play the protocol: each announces its value publicly; then ask who knows what."""
    flips = coins if coins is not None else tuple(i % 2 == 0 for i in range(n))
    structure = dining_structure(n, paid, flips)
    said: list[bool] = []
    for i in range(1, n + 1):
        value = structure.holds(says(n, i))
        said.append(value)
        structure = structure.announce(says(n, i) if value else Not(says(n, i)))
    someone = disj(*(_paid(i) for i in range(1, n + 1)))
    everyone = all(structure.holds(Kw(str(i), someone)) for i in range(1, n + 1))
    knows_payer = frozenset(
        i
        for i in range(1, n + 1)
        if any(structure.holds(K(str(i), _paid(j))) for j in range(1, n + 1))
    )
    anonymous = paid == 0 or knows_payer <= {paid}
    return DiningStory(
        n, paid, tuple(said), structure.count_states(), everyone, anonymous, knows_payer
    )
