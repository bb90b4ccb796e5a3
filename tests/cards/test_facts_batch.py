"""`apply_facts` folds a run of `Lacks` for one holder at once (`PublicInfo.lacks_all`),
and a run of `Moved` at once (`PublicInfo.move_all`); most events' facts as one step
on lists of masks (`facts._folded`).

The batch must be exactly the facts one at a time: the same `PublicInfo`, and the same
error (type and message) when a fact contradicts the others.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from epigames.cards import (
    CardLayout,
    Count,
    Holds,
    HoldsAtLeastOne,
    Lacks,
    Moved,
    PublicInfo,
    Removed,
)
from epigames.cards.errors import InconsistentCardsError, InputError
from epigames.cards.facts import _folded, apply_facts

CARDS = tuple(range(10))
HOLDERS = ("a", "b", "c")


def one_by_one(public: PublicInfo, facts: list[object]) -> PublicInfo:
    for fact in facts:
        public = apply_facts(public, [fact])
    return public


def outcome(fold: Callable[[], PublicInfo]) -> object:
    """The result, or the error's type and message."""
    try:
        return fold()
    except InconsistentCardsError as exc:
        return (type(exc), str(exc))


def random_public(rng: random.Random) -> PublicInfo:
    layout = CardLayout.create(CARDS, HOLDERS)
    counts = [3, 3, 4]
    public = PublicInfo.start(layout, counts)
    for _ in range(rng.randint(0, 6)):
        kind = rng.random()
        try:
            if kind < 0.4:
                public = public.lacks(rng.choice(CARDS), rng.randrange(3))
            elif kind < 0.6:
                public = public.holds(rng.choice(CARDS), rng.randrange(3))
            elif kind < 0.8:
                public = public.at_least_one(rng.randrange(3), rng.sample(CARDS, 3))
            else:
                src, dst = rng.sample(range(3), 2)
                public = public.move(rng.choice(CARDS), src, dst)
        except InconsistentCardsError:
            pass
    return public


@pytest.mark.parametrize("seed", range(400))
def test_a_run_of_lacks_is_the_facts_one_by_one(seed: int) -> None:
    rng = random.Random(seed)
    public = random_public(rng)
    holder = rng.randrange(3)
    facts: list[object] = [Lacks(holder, c) for c in rng.sample(CARDS, rng.randint(2, 7))]
    if rng.random() < 0.3:
        facts.insert(rng.randrange(len(facts)), Lacks((holder + 1) % 3, rng.choice(CARDS)))
    if rng.random() < 0.3:
        facts.append(HoldsAtLeastOne(holder, tuple(rng.sample(CARDS, 2))))
    if rng.random() < 0.3:
        facts.append(Moved(rng.choice(CARDS), holder, (holder + 1) % 3))
    assert outcome(lambda: apply_facts(public, facts)) == outcome(lambda: one_by_one(public, facts))


@pytest.mark.parametrize("seed", range(400))
def test_a_run_of_moves_is_the_facts_one_by_one(seed: int) -> None:
    rng = random.Random(seed)
    public = random_public(rng)
    facts: list[object] = []
    for _ in range(rng.randint(2, 6)):
        # Mostly cards where they may be (known with the source, or unknown), some not.
        src, dst = rng.sample(range(3), 2)
        placed = [c for c in CARDS if public.where(c) == src]
        card = rng.choice(placed) if placed and rng.random() < 0.5 else rng.choice(CARDS)
        facts.append(Moved(card, src, dst))
    if rng.random() < 0.2:
        facts.insert(rng.randrange(len(facts)), Lacks(rng.randrange(3), rng.choice(CARDS)))
    assert outcome(lambda: apply_facts(public, facts)) == outcome(lambda: one_by_one(public, facts))


def test_lacks_all_reports_the_first_contradiction() -> None:
    layout = CardLayout.create(CARDS, HOLDERS)
    public = PublicInfo.start(layout, [3, 3, 4]).holds(4, 0).at_least_one(1, [5, 6])
    with pytest.raises(InconsistentCardsError, match="card 4 and holder a: the holder is known"):
        public.lacks_all(0, [1, 4, 5])
    with pytest.raises(InconsistentCardsError, match="last card of a set"):
        public.lacks_all(1, [5, 2, 6])
    assert public.lacks_all(1, []) is public
    assert public.lacks_all(0, [0, 1]).lacking == public.lacks(0, 0).lacks(1, 0).lacking


def reference_move(public: PublicInfo, card: int, src: int, dst: int) -> PublicInfo:
    """`PublicInfo.move` as first written: every check through `_check_can_hold`."""
    public._check_can_hold(card, src, "move")
    bit = 1 << card
    holding = list(public.holding)
    holding[src] &= ~bit
    holding[dst] |= bit
    counts = list(public.counts)
    counts[src] -= 1
    counts[dst] += 1
    return PublicInfo(
        public.layout,
        tuple(counts),
        tuple(holding),
        public._unlack(card),
        public.removed,
        public._place(public.constraints, card, src),
        public.groups,
    )


@pytest.mark.parametrize("seed", range(300))
def test_move_checks_as_check_can_hold_does(seed: int) -> None:
    rng = random.Random(seed)
    public = random_public(rng)
    placed = [c for c in CARDS if public.where(c) >= 0]
    if placed and rng.random() < 0.3:
        card = rng.choice(placed)
        public = public.remove(card, public.where(card))
    for card, src, dst in [(rng.choice(CARDS), *rng.sample(range(3), 2)) for _ in range(5)]:
        mine = outcome(lambda c=card, s=src, d=dst: public.move(c, s, d))
        theirs = outcome(lambda c=card, s=src, d=dst: reference_move(public, c, s, d))
        assert mine == theirs


@pytest.mark.parametrize("seed", range(300))
def test_holds_then_moved_from_the_holder_is_the_facts_one_by_one(seed: int) -> None:
    """`apply_facts` skips such a `Holds` (the move alone gives the same value)."""
    rng = random.Random(seed)
    public = random_public(rng)
    card = rng.choice(CARDS)
    src, dst = rng.sample(range(3), 2)
    facts: list[object] = [Holds(src, card), Moved(card, src, dst)]
    batched, single = (
        outcome(lambda: apply_facts(public, facts)),
        outcome(lambda: one_by_one(public, facts)),
    )
    if isinstance(single, PublicInfo):
        assert batched == single
    else:  # the same contradiction, found by the move instead of the holds
        assert isinstance(batched, tuple)
        assert batched[0] is single[0]


def by_methods(public: PublicInfo, facts: list[object]) -> PublicInfo:
    """The facts applied one after another by `PublicInfo`'s own methods, as `apply_facts`
    reads each kind (a `Holds` that a move from the holder follows is skipped)."""
    for i, fact in enumerate(facts):
        if isinstance(fact, Lacks):
            public = public.lacks(fact.card, fact.holder)
        elif isinstance(fact, HoldsAtLeastOne):
            public = public.at_least_one(fact.holder, fact.cards)
        elif isinstance(fact, Holds):
            after = facts[i + 1] if i + 1 < len(facts) else None
            if not (
                isinstance(after, Moved) and after.card is fact.card and after.src == fact.holder
            ):
                public = public.holds(fact.card, fact.holder)
        elif isinstance(fact, Moved):
            public = public.move(fact.card, fact.src, fact.dst)
        elif isinstance(fact, Removed):
            for card in fact.cards:
                public = public.remove(card, public.where(public.layout.card_index(card)))
        elif isinstance(fact, Count) and public.counts[fact.holder] != fact.n:
            raise InconsistentCardsError(
                f"count: {public.layout.holders[fact.holder]} is said to hold {fact.n} "
                f"cards, but the public count is {public.counts[fact.holder]}"
            )
    return public


def any_outcome(fold: Callable[[], PublicInfo]) -> object:
    """The result, or the error's type and message (a bad card or holder too)."""
    try:
        return fold()
    except InputError as exc:
        return (type(exc), str(exc))


def random_event(seed: int) -> tuple[PublicInfo, list[object]]:
    """Public information with groups, and an event's facts: Kwartet's asks and laydowns
    (at-least-one, lacks, holds and a move, or holds ×4 and the cards removed), mixed and
    made up; some fit, some contradict it, some are no news."""
    rng = random.Random(seed)
    layout = CardLayout.create(CARDS, HOLDERS)
    groups = ((0, 1, 2), (3, 4, 5), (6, 7, 8, 9))
    public = PublicInfo.start(layout, [3, 3, 4], groups)
    for _ in range(rng.randint(0, 8)):
        step = rng.random()
        card, holder = rng.choice(CARDS), rng.randrange(3)
        try:
            if step < 0.3:
                public = public.lacks(card, holder)
            elif step < 0.5:
                public = public.holds(card, holder)
            elif step < 0.7:
                public = public.at_least_one(holder, rng.sample(CARDS, 3))
            elif step < 0.9:
                public = public.move(card, holder, (holder + 1) % 3)
            else:
                public = public.remove(card, public.where(card))
        except InputError:
            pass
    facts: list[object] = []
    for _ in range(rng.randint(1, 5)):
        step = rng.random()
        card, holder, other = rng.choice(CARDS), *rng.sample(range(3), 2)
        if step < 0.2:
            facts.append(HoldsAtLeastOne(holder, rng.choice(groups)))
        elif step < 0.4:
            facts.append(Lacks(holder, card))
        elif step < 0.6:
            facts += [Holds(other, card), Moved(card, other, holder)]
        elif step < 0.7:
            facts.append(Holds(holder, card))
        elif step < 0.8:
            facts.append(Moved(card, other, holder))
        elif step < 0.9:
            group = rng.choice(groups)
            facts += [*(Holds(holder, c) for c in group), Removed(group)]
        else:
            facts.append(Count(holder, public.counts[holder] + (rng.random() < 0.3)))
    return public, facts


@pytest.mark.parametrize("seed", range(500))
def test_an_events_facts_folded_as_one_step_are_the_methods_one_by_one(seed: int) -> None:
    public, facts = random_event(seed)
    folded = any_outcome(lambda: apply_facts(public, facts))
    assert folded == any_outcome(lambda: by_methods(public, facts))
    if _folded(public, facts) is public:
        assert folded is public  # no news: the same value


def test_most_events_are_folded_as_one_step() -> None:
    # `_folded` makes the value of the events that fit (the loop runs for the others).
    made = changed = 0
    for seed in range(500):
        public, facts = random_event(seed)
        value = _folded(public, facts)
        made += value is not None
        changed += value is not None and value is not public
    assert made > 150 and changed > 100, (made, changed)
