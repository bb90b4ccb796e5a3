"""The C counting (`_engine.c` `count_deals`) answers as the Python tables
(`counting.CountTable`) on the reduced problems it takes, and leaves the others to them:
the same total, the same count per free card and holder, and the probabilities rounded as
``n / total`` rounds them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from math import comb, factorial, prod
from typing import Any

import numpy as np
import pytest

from epigames import native
from epigames.cards import CardKnowledge, CardLayout, knowledge, problem
from epigames.cards.blocks import decompose
from epigames.cards.counting import CountTable
from epigames.cards.errors import InconsistentCardsError
from epigames.cards.problem import Problem
from epigames.games import Match
from epigames.games.core import CHANCE, TERMINAL
from tests.cards.test_engine_c import random_facts

# `count_deals`'s modes: the total; the probabilities as bytes; the counts.
TOTAL, FLOATS, COUNTS = 0, 1, 2
#: The count bound and the size of the dense state index (`_engine.c`).
MAX_DEALS = 1 << 128
MAX_STATES = 1 << 18
MAX_LEAVES = 1 << 20

Fields = tuple[tuple[int, ...], tuple[int, ...], int, tuple[tuple[int, int], ...],
               tuple[tuple[int, int], ...]]  # fmt: skip


def _engine() -> Any:
    c = native.c_module("epigames.cards._engine")
    if c is None:
        pytest.skip(f"the C engine is not built ({native.status()})")
    return c


def fields_of(p: Problem) -> Fields:
    return (p.caps, p.may, p.free, p.constraints, p.exclusions)


def python_counts(p: Problem) -> tuple[int, dict[int, tuple[int, ...]]]:
    """The Python tables' total and marginals; a total of 0 where they find no deal."""
    names = tuple(f"h{h}" for h in range(len(p.caps)))
    try:
        table = CountTable(decompose(p, names), len(p.caps))
    except InconsistentCardsError:
        return 0, {}
    return table.total, table.marginals() if table.total else {}


def check(c: Any, p: Problem) -> str:
    """Compares the C answers with the Python ones on ``p``: "answered", "no deal" (both
    find none) or "left" (the C code leaves it to Python)."""
    args = fields_of(p)
    got = c.count_deals(*args, COUNTS)
    if got is NotImplemented:
        assert c.count_deals(*args, TOTAL) is NotImplemented
        assert c.count_deals(*args, FLOATS) is NotImplemented
        return "left"
    total, counts = python_counts(p)
    if not total:
        assert got == (0,), p
        assert c.count_deals(*args, TOTAL) == c.count_deals(*args, FLOATS) == (0,)
        return "no deal"
    assert got == (total, counts), p
    assert c.count_deals(*args, TOTAL) == (total,)
    found, rows, cards = c.count_deals(*args, FLOATS)
    assert found == total
    matrix = np.frombuffer(rows, dtype=np.float64).reshape(-1, len(p.caps))
    order = np.frombuffer(cards, dtype=np.intp)
    assert sorted(order.tolist()) == sorted(counts)
    for card, row in zip(order.tolist(), matrix.tolist(), strict=True):
        assert row == [n / total for n in counts[card]], (p, card)
    return "answered"


def reduced(facts: tuple[Any, ...]) -> Problem | None:
    """The facts reduced (`reduce_facts`), or None where they contradict each other."""
    counts, holding, lacking, free, removed, constraints, groups, not_all = facts
    every = free | removed
    for h in holding:
        every |= h
    layout = CardLayout.create(range(every.bit_length()), [f"h{h}" for h in range(len(counts))])
    try:
        return problem.reduce_facts(
            layout, counts, holding, lacking, removed, constraints, groups, not_all
        )
    except InconsistentCardsError:
        return None


def made_up(rng: random.Random, p: Problem) -> Problem:
    """``p`` with at-least-one and not-all facts over its free cards that no deal need
    meet (they are not propagated: the counting alone finds what they leave)."""
    free = list(range(p.free.bit_length()))
    free = [c for c in free if p.free >> c & 1]
    holders = [h for h, cap in enumerate(p.caps) if cap]
    cons, excl = list(p.constraints), list(p.exclusions)
    for _ in range(rng.randint(1, 3)):
        h = rng.choice(holders)
        mask = sum(1 << c for c in rng.sample(free, min(len(free), rng.randint(2, 4))))
        mask &= p.may[h]
        if mask & (mask - 1):
            (cons if rng.random() < 0.6 else excl).append((h, mask))
    return Problem(p.caps, p.known, p.may, p.free, p.removed, tuple(cons), tuple(excl))


@pytest.mark.parametrize("seed", range(4))
def test_c_and_python_counts_agree_on_random_problems(seed: int) -> None:
    c = _engine()
    rng = random.Random(seed)
    outcomes = {"answered": 0, "no deal": 0, "left": 0}
    while sum(outcomes.values()) < 1000:
        problem_ = reduced(random_facts(rng, rng.randint(2, 14) if rng.random() < 0.8 else 20))
        if problem_ is None or not problem_.free:
            continue
        if rng.random() < 0.4:
            problem_ = made_up(rng, problem_)
        outcomes[check(c, problem_)] += 1
    # Deals and no deals are both compared; these sizes are all within the C limits.
    assert outcomes["answered"] > 800 and outcomes["no deal"] > 25, outcomes
    assert outcomes["left"] == 0, outcomes


def test_c_counts_problems_of_64_cards_and_leaves_larger_ones() -> None:
    c = _engine()
    rng = random.Random(5)
    answered = 0
    for n_cards in (64, 64, 64, 65, 70):
        for _ in range(40):
            facts = random_facts(rng, n_cards)
            got = reduced(facts)
            if got is None or not got.free:
                continue
            if got.free.bit_length() > 64:
                assert c.count_deals(*fields_of(got), COUNTS) is NotImplemented
            elif check(c, got) == "answered":
                answered += 1
    assert answered > 20


def _bound(caps: tuple[int, ...]) -> int:
    """The deals of ``sum(caps)`` cards over holders with these caps, without facts."""
    return factorial(sum(caps)) // prod(factorial(cap) for cap in caps)


def _open(caps: tuple[int, ...], lacks: tuple[tuple[int, int], ...] = ()) -> Problem:
    """Free cards 0 … sum(caps) - 1 that every holder may have but for ``lacks`` (card,
    holder): one class of most of them (the few lacks make small ones)."""
    n, nh = sum(caps), len(caps)
    every = (1 << n) - 1
    may = tuple(every & ~sum(1 << c for c, g in lacks if g == h) for h in range(nh))
    return Problem(caps, (0,) * nh, may, every, 0, (), ())


def _parts(n: int, k: int, most: int) -> Iterator[tuple[int, ...]]:
    """The ways to write ``n`` as ``k`` positive parts of at most ``most``, largest first."""
    if k == 1:
        if 1 <= n <= most:
            yield (n,)
        return
    for first in range(min(n - k + 1, most), 0, -1):
        for rest in _parts(n - first, k - 1, first):
            yield (first, *rest)


def test_c_counts_below_2_to_the_128_deals_and_leaves_more() -> None:
    c = _engine()
    # The caps of 64 cards over five holders closest to 2**128 on each side.
    splits = list(_parts(64, 5, 64))
    under = max((s for s in splits if _bound(s) < MAX_DEALS), key=_bound)
    over = min((s for s in splits if _bound(s) >= MAX_DEALS), key=_bound)
    assert _bound(under) >= 1 << 127
    lacks = ((0, 0), (1, 0), (1, 3), (2, 4))
    for caps in (under, over):
        for p in (_open(caps), _open(caps, lacks)):
            if caps == over:
                assert c.count_deals(*fields_of(p), COUNTS) is NotImplemented
            else:
                assert check(c, p) == "answered"
    # Without facts, the bound itself, and each card with each holder in its share.
    total, counts = c.count_deals(*fields_of(_open(under)), COUNTS)
    assert total == _bound(under)
    assert set(counts.values()) == {tuple(total * cap // 64 for cap in under)}


def test_c_counts_within_its_state_index_and_leaves_larger_ones() -> None:
    c = _engine()
    # The holder with the most room has no digit: 19 holders of room 1, 2**18 states.
    within = (1,) * 19
    assert 2 ** (len(within) - 1) == MAX_STATES
    for p in (_open(within), _open(within, ((0, 0), (3, 5), (3, 6)))):
        assert check(c, p) == "answered"
    past = (1,) * 20
    assert c.count_deals(*fields_of(_open(past)), TOTAL) is NotImplemented
    assert _bound(past) < MAX_DEALS  # the states, not the count, are too many


def test_c_enumerates_blocks_up_to_its_limit() -> None:
    c = _engine()
    # One at-least-one fact over n cards that two holders share: 2**n assignments.
    for n, answers in ((20, True), (21, False)):
        assert (2**n <= MAX_LEAVES) == answers
        caps = (n // 2, n - n // 2)
        every = (1 << n) - 1
        p = Problem(caps, (0, 0), (every, every), every, 0, ((0, every),), ())
        got = c.count_deals(*fields_of(p), TOTAL)
        if answers:
            assert got == (comb(n, caps[0]),)  # holder 0 always has one of them
        else:
            assert got is NotImplemented


def test_c_counting_reads_other_shapes_through_python() -> None:
    c = _engine()
    assert c.count_deals((1, 1), (3, 3), 3, ([0, 3],), (), COUNTS) is NotImplemented
    assert c.count_deals((1, 1), (3, 3), 3, ((0, 4),), (), COUNTS) is NotImplemented
    assert c.count_deals((1, -1), (3, 3), 3, (), (), COUNTS) is NotImplemented
    assert c.count_deals((1, 1), (3,), 3, (), (), COUNTS) is NotImplemented
    with pytest.raises(ValueError):
        c.count_deals((1, 1), (3, 3), 3, (), (), 3)
    # Up to 256 facts (at-least-one and not-all together).
    cons, excl = ((0, 0b11),) * 200, ((1, 0b11),) * 56
    assert c.count_deals((1, 1), (3, 3), 3, cons, excl, COUNTS) == (2, {0: (1, 1), 1: (1, 1)})
    assert c.count_deals((1, 1), (3, 3), 3, cons, (*excl, (1, 3)), COUNTS) is NotImplemented


def test_c_counting_runs_wherever_the_compiled_modules_do() -> None:
    # A build that compiled the Python modules but not the C one would quietly run slower.
    if native.status() != "compiled":
        pytest.skip(native.status())
    assert knowledge._C_COUNT is not None
    p = _open((3, 4, 5), ((0, 1), (2, 2)))
    assert _engine().count_deals(*fields_of(p), TOTAL) == (python_counts(p)[0],)


def _ratios() -> Iterator[tuple[int, int]]:
    rng = random.Random(11)
    for bits in range(1, 129):
        for _ in range(30):
            total = rng.getrandbits(bits) | 1 << (bits - 1)
            yield rng.randint(0, total), total
    # Halfway between two doubles, both ways to even, and a unit either side.
    for shift in (0, 6, 20, 60, 74):
        for j in (0, 1, 2, 3, 12345, 2**51 - 1):
            total = 1 << (54 + shift)
            n = (2**53 + 2 * j + 1) << shift
            yield from ((n - 1, total), (n, total), (n + 1, total))
            yield n * 3, total * 3  # the same fraction over a denominator not a power of 2


def test_c_ratios_round_as_python_divides() -> None:
    ratio: Callable[[int, int], float] = _engine().count_ratio
    for n, total in _ratios():
        if total < MAX_DEALS:
            assert ratio(n, total) == n / total, (n, total)


#: Seeded games of every setting asked for, with line-ups that read knowledge.
GAMES = [
    ("kwartet(players=4,kinds=13,ask_own=true)", ("greedy", "silent", "mixed", "random"), 0),
    ("kwartet(kinds=8,ask_own=false)", ("random", "owner", "defensive", "aggressive"), 1),
    ("klaverjas(preset=2017)", ("tactics",) * 4, 2),
    ("kemps", ("blocking", "blocking", "greedy"), 3),
]


def captured(game: str, lineup: tuple[str, ...], seed: int) -> list[Problem]:
    """Every seat's reduced problem at every decision of one game, once each."""
    found: dict[object, Problem] = {}
    match = Match(game, lineup, seed)
    state = match.state
    while state.current_player != TERMINAL:
        if state.current_player != CHANCE:
            for seat in range(len(lineup)):
                try:
                    got = state.observation(seat).knowledge
                except ValueError:
                    continue  # no card knowledge before the deal is over
                if isinstance(got, CardKnowledge):
                    p = got._reduced()
                    if p.free:
                        found.setdefault(p.key(), p)
        match.step_action()
    return list(found.values())


@pytest.mark.parametrize(("game", "lineup", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_c_and_python_counts_agree_on_played_problems(
    game: str, lineup: tuple[str, ...], seed: int
) -> None:
    c = _engine()
    problems = captured(game, lineup, seed)
    outcomes = [check(c, p) for p in problems]
    assert len(problems) > 10 and outcomes.count("answered") == len(problems), outcomes
