"""The engine against brute-force enumeration of deals, over random public histories.

The oracle enumerates every current deal of the cards in play (with the agent's hand
fixed) and keeps those that survive replaying the whole history backwards: each event is
checked against the deal as it was at that moment. It shares no bookkeeping with the
engine.

With ``groups``, the kinds are the no-complete-group invariant of `PublicInfo`: a kind
that comes together in one hand (at the deal or by a move) leaves play at once, and the
oracle keeps only the deals in which no holder holds a whole kind still in play.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from epigames.cards import REMOVED, CardKnowledge, CardLayout, PublicInfo
from tests.cards.formulas import card_formula


@dataclass(frozen=True, slots=True)
class Card:
    kind: int
    value: int

    def __str__(self) -> str:
        return f"<{self.kind},{self.value}>"


Event = tuple[Any, ...]


@dataclass
class Game:
    """A random history: the layout, the true current deal and the event log."""

    layout: CardLayout
    players: int
    counts: list[int]
    deal: dict[int, int]  # card index -> holder, cards in play only
    events: list[Event]
    public: PublicInfo
    groups: bool = False


def new_game(
    rng: random.Random, players: int, kinds: int, values: int, table: int = 0, groups: bool = False
) -> Game:
    cards = [Card(k, v) for k in range(kinds) for v in range(values)]
    names = [f"P{i}" for i in range(players)] + (["table"] if table else [])
    layout = CardLayout.create(cards, names, range(players))
    order = list(range(len(cards)))
    rng.shuffle(order)
    counts = [0] * len(names)
    deal = {}
    for n, c in enumerate(order):
        h = players if n < table else n % players
        deal[c] = h
        counts[h] += 1
    kinds_cards = [[card for card in cards if card.kind == k] for k in range(kinds)]
    public = PublicInfo.start(layout, counts, kinds_cards if groups else ())
    game = Game(layout, players, counts, deal, [], public, groups)
    lay_down_complete(game)
    return game


def lay_down_complete(game: Game) -> None:
    """With groups, a kind that is all in one hand leaves play at once (as in Kwartet)."""
    if not game.groups:
        return
    kinds: dict[int, list[int]] = {}
    for c in game.deal:
        kinds.setdefault(game.layout.cards[c].kind, []).append(c)  # type: ignore[attr-defined]
    for same in kinds.values():
        holders = {game.deal[c] for c in same}
        if len(holders) == 1:
            h = holders.pop()
            for c in same:
                apply(game, ("remove", c, h))


def no_complete_group(game: Game, deal: dict[int, int]) -> bool:
    """Whether no holder holds every card of a kind still wholly in play."""
    if not game.groups:
        return True
    lay = game.layout
    holders: dict[int, set[int]] = {}
    whole: dict[int, bool] = {}
    for c in range(lay.n_cards):
        kind = lay.cards[c].kind  # type: ignore[attr-defined]
        whole[kind] = whole.get(kind, True) and c in deal
        if c in deal:
            holders.setdefault(kind, set()).add(deal[c])
    return all(len(holders[k]) > 1 for k, w in whole.items() if w)


def apply(game: Game, event: Event) -> None:
    game.events.append(event)
    op, *args = event
    lay = game.layout
    if op == "holds":
        game.public = game.public.holds(lay.cards[args[0]], args[1])
    elif op == "lacks":
        game.public = game.public.lacks(lay.cards[args[0]], args[1])
    elif op == "alo":
        game.public = game.public.at_least_one(args[0], [lay.cards[c] for c in args[1]])
    elif op == "move":
        c, s, d = args
        game.public = game.public.move(lay.cards[c], s, d)
        game.deal[c] = d
        game.counts[s] -= 1
        game.counts[d] += 1
    elif op == "remove":
        c, s = args
        game.public = game.public.remove(lay.cards[c], s)
        del game.deal[c]
        game.counts[s] -= 1


def random_step(game: Game, rng: random.Random, wild: bool) -> None:
    """One random true public step, then any kind completed leaves play (with groups)."""
    one_step(game, rng, wild)
    lay_down_complete(game)


def one_step(game: Game, rng: random.Random, wild: bool) -> None:
    """One random true event; mostly Kwartet asks, sometimes other facts."""
    lay, deal = game.layout, game.deal
    in_play = sorted(deal)
    if not in_play:
        return
    roll = rng.random()
    if roll < 0.6 or not wild:
        asker_cards = [c for c in in_play if deal[c] < game.players]
        if not asker_cards:
            return
        p = deal[rng.choice(asker_cards)]
        kinds = sorted({lay.cards[c].kind for c in in_play if deal[c] == p})  # type: ignore[attr-defined]
        kind = rng.choice(kinds)
        same = [c for c in in_play if lay.cards[c].kind == kind]  # type: ignore[attr-defined]
        apply(game, ("alo", p, same))
        c = rng.choice(same)
        q = rng.choice([i for i in range(game.players) if i != p])
        if deal[c] == q:
            apply(game, ("move", c, q, p))
        else:
            apply(game, ("lacks", c, q))
        if all(deal[x] == p for x in same):
            for x in same:
                apply(game, ("remove", x, p))
        return
    c = rng.choice(in_play)
    holders = len(lay.holders)
    if roll < 0.7:
        apply(game, ("holds", c, deal[c]))
    elif roll < 0.82:
        others = [h for h in range(holders) if h != deal[c]]
        apply(game, ("lacks", c, rng.choice(others)))
    elif roll < 0.9:
        h = deal[c]
        pool = [x for x in in_play if x != c]
        extra = rng.sample(pool, min(len(pool), rng.randint(1, 2)))
        apply(game, ("alo", h, [c, *extra]))
    else:
        dst = rng.choice([h for h in range(holders) if h != deal[c]])
        apply(game, ("move", c, deal[c], dst))


def current_deals(game: Game, agent: int | None, hand: set[int]) -> Iterator[dict[int, int]]:
    """Every deal of the cards in play with the current counts (the agent's hand fixed).

    Cards whose last event was a public move or removal sit where it put them; that is
    read straight from the log, not from the engine.
    """
    placed: dict[int, int] = {}
    for op, *args in game.events:
        if op == "move":
            placed[args[0]] = args[2]
    fixed = {c: placed[c] for c in game.deal if c in placed}
    if agent is not None:
        fixed.update({c: agent for c in hand})
    counts = list(game.counts)
    for h in fixed.values():
        counts[h] -= 1
    if min(counts) < 0:
        return
    rest = [c for c in sorted(game.deal) if c not in fixed]

    def go(i: int) -> Iterator[dict[int, int]]:
        if i == len(rest):
            yield dict(fixed)
            return
        c = rest[i]
        for h in range(len(counts)):
            if counts[h] and (agent is None or h != agent):
                counts[h] -= 1
                for d in go(i + 1):
                    d[c] = h
                    yield d
                counts[h] += 1

    yield from go(0)


def consistent(game: Game, deal: dict[int, int], private: list[Event]) -> bool:
    for op, c, h in private:
        if (deal.get(c) == h) != (op == "holds"):
            return False
    state = dict(deal)
    for op, *args in reversed(game.events):
        if op == "move":
            c, s, d = args
            if state[c] != d:
                return False
            state[c] = s
        elif op == "remove":
            state[args[0]] = args[1]
        elif op == "holds":
            if state[args[0]] != args[1]:
                return False
        elif op == "lacks":
            if state[args[0]] == args[1]:
                return False
        elif op == "alo" and not any(state[c] == args[0] for c in args[1]):
            return False
    return True


def random_formula(rng: random.Random, game: Game, depth: int) -> Any:
    lay = game.layout
    if depth == 0 or rng.random() < 0.3:
        card = lay.cards[rng.randrange(lay.n_cards)]
        index = rng.randrange(lay.n_holders)
        holder: int | str = lay.holders[index] if rng.random() < 0.5 else index
        return ("holds", holder, str(card) if rng.random() < 0.5 else card)
    op = rng.choice(["and", "or", "not", "implies", "iff"])
    if op == "not":
        return ("not", random_formula(rng, game, depth - 1))
    n = 2 if op in ("implies", "iff") else rng.randint(2, 3)
    return (op, *(random_formula(rng, game, depth - 1) for _ in range(n)))


def evaluate(formula: Any, game: Game, deal: dict[int, int]) -> bool:
    if isinstance(formula, bool):
        return formula
    op, *args = formula
    if op == "holds":
        lay = game.layout
        h = args[0] if isinstance(args[0], int) else lay.holder_index(args[0])
        c = lay.parse_card(args[1]) if isinstance(args[1], str) else lay.card_index(args[1])
        return deal.get(c) == h
    vals = [evaluate(a, game, deal) for a in args]
    if op == "not":
        return not vals[0]
    if op == "and":
        return all(vals)
    if op == "or":
        return any(vals)
    if op == "implies":
        return not vals[0] or vals[1]
    return vals[0] == vals[1]


def check(game: Game, rng: random.Random, agent: int | None) -> None:
    """Compare one agent's (or the public) knowledge with the enumeration."""
    lay = game.layout
    hand = {c for c, h in game.deal.items() if h == agent}
    private: list[Event] = []
    if agent is not None:
        for _ in range(rng.randint(0, 2) if game.deal else 0):
            c = rng.choice(sorted(game.deal))
            if rng.random() < 0.5:
                private.append(("holds", c, game.deal[c]))
            else:
                h = rng.choice([h for h in range(lay.n_holders) if h != game.deal[c]])
                private.append(("lacks", c, h))
        know = CardKnowledge.create(
            game.public,
            agent,
            [lay.cards[c] for c in hand],
            holds=[(lay.cards[c], h) for op, c, h in private if op == "holds"],
            lacks=[(lay.cards[c], h) for op, c, h in private if op == "lacks"],
        )
    else:
        know = CardKnowledge.public_view(game.public)
    worlds = [
        d
        for d in current_deals(game, agent, hand)
        if consistent(game, d, private) and no_complete_group(game, d)
    ]
    assert game.deal in worlds
    tally: dict[int, Counter[int]] = {c: Counter() for c in range(lay.n_cards)}
    for d in worlds:
        for c, h in d.items():
            tally[c][h] += 1
    fixed = sum(1 for c in game.deal if len(tally[c]) == 1)
    assert know.worlds_count() == len(worlds)
    matrix = know.marginals()
    for c in range(lay.n_cards):
        card = lay.cards[c]
        assert know.possible_holders(card) == frozenset(tally[c]), (c, game.events)
        expected_holder = next(iter(tally[c])) if len(tally[c]) == 1 else None
        assert know.holder(card) == expected_holder
        assert know.is_removed(card) == (c not in game.deal)
        for h in range(lay.n_holders):
            p = Fraction(tally[c][h], len(worlds))
            assert know.probability(card, h) == p
            assert matrix[c, h] == pytest.approx(float(p), abs=1e-12)
            assert know.knows_holds(card, h) == (p == 1)
            assert know.knows_lacks(card, h) == (p == 0)
    assert fixed <= lay.n_cards
    everything = range(lay.n_cards)
    for h in range(lay.n_holders):
        # A holder's column, no matrix made: each exact fraction correctly rounded, as in it.
        chances = know.chances(h, everything)
        assert chances == [float(Fraction(tally[c][h], len(worlds))) for c in everything]
        assert chances == matrix[:, h].tolist()
    for _ in range(3):
        formula = random_formula(rng, game, 2)
        expected = all(evaluate(formula, game, d) for d in worlds)
        assert know.knows(card_formula(formula)) == expected, formula
    world = know.sample_world(rng)
    as_deal = {c: h for c, h in enumerate(world) if h != REMOVED}
    assert as_deal in worlds


def play_and_check(
    seed: int,
    players: int,
    kinds: int,
    values: int,
    steps: int,
    table: int,
    wild: bool,
    groups: bool = False,
) -> None:
    rng = random.Random(seed)
    game = new_game(rng, players, kinds, values, table, groups)
    checkpoints = {steps // 2, steps}
    for step in range(1, steps + 1):
        random_step(game, rng, wild)
        if step in checkpoints:
            check(game, rng, rng.randrange(players))
    if players == 3 and len(game.deal) <= 9:
        check(game, rng, None)


FAST = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@FAST
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 14), wild=st.booleans())
def test_three_players_nine_cards(seed: int, steps: int, wild: bool) -> None:
    play_and_check(seed, 3, 3, 3, steps, 0, wild)


@FAST
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 18), wild=st.booleans())
def test_three_players_twelve_cards(seed: int, steps: int, wild: bool) -> None:
    play_and_check(seed, 3, 4, 3, steps, 0, wild)


@FAST
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 20), wild=st.booleans())
def test_three_players_and_a_table(seed: int, steps: int, wild: bool) -> None:
    play_and_check(seed, 3, 3, 3, steps, 2, wild)


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 24), wild=st.booleans())
def test_four_players_three_kinds_of_four(seed: int, steps: int, wild: bool) -> None:
    play_and_check(seed, 4, 3, 4, steps, 0, wild)


@pytest.mark.parametrize("seed", range(8))
def test_four_players_four_kinds_of_four(seed: int) -> None:
    play_and_check(1000 + seed, 4, 4, 4, 10 + 3 * seed, 0, True)


@FAST
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 14), wild=st.booleans())
def test_groups_three_players_nine_cards(seed: int, steps: int, wild: bool) -> None:
    play_and_check(seed, 3, 3, 3, steps, 0, wild, groups=True)


@FAST
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 18), wild=st.booleans())
def test_groups_three_players_twelve_cards(seed: int, steps: int, wild: bool) -> None:
    play_and_check(seed, 3, 4, 3, steps, 0, wild, groups=True)


@FAST
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 20), wild=st.booleans())
def test_groups_three_players_and_a_table(seed: int, steps: int, wild: bool) -> None:
    play_and_check(seed, 3, 3, 3, steps, 2, wild, groups=True)


@FAST
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 12), wild=st.booleans())
def test_groups_three_players_pairs(seed: int, steps: int, wild: bool) -> None:
    """Groups of two: a known card of a pair in a hand rules the other one out there."""
    play_and_check(seed, 3, 5, 2, steps, 0, wild, groups=True)


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 24), wild=st.booleans())
def test_groups_four_players_three_kinds_of_four(seed: int, steps: int, wild: bool) -> None:
    play_and_check(seed, 4, 3, 4, steps, 0, wild, groups=True)


@pytest.mark.parametrize("seed", range(6))
def test_groups_four_players_four_kinds_of_four(seed: int) -> None:
    play_and_check(2000 + seed, 4, 4, 4, 8 + 3 * seed, 0, True, groups=True)


@pytest.mark.parametrize(("use_numpy", "groups"), [(False, False), (True, False), (False, True)])
def test_sample_world_is_uniform(use_numpy: bool, groups: bool) -> None:
    rng = random.Random(7)
    game = new_game(rng, 3, 4, 3, groups=groups)
    while True:
        if len(game.events) > 60 or not game.deal:  # laydowns may empty the hands: redeal
            game = new_game(rng, 3, 4, 3, groups=groups)
        random_step(game, rng, True)
        know = CardKnowledge.create(
            game.public, 0, [game.layout.cards[c] for c, h in game.deal.items() if h == 0]
        )
        if 8 <= know.worlds_count() <= 40 and game.public.constraints:
            break
    hand = {c for c, h in game.deal.items() if h == 0}
    worlds = [
        d
        for d in current_deals(game, 0, hand)
        if consistent(game, d, []) and no_complete_group(game, d)
    ]
    assert len(worlds) == know.worlds_count()
    source: random.Random | np.random.Generator = (
        np.random.default_rng(11) if use_numpy else random.Random(11)
    )
    draws = 400 * len(worlds)
    seen = Counter(know.sample_world(source) for _ in range(draws))
    keys = {tuple(d.get(c, REMOVED) for c in range(game.layout.n_cards)) for d in worlds}
    assert set(seen) == keys
    expected = draws / len(worlds)
    chi2 = sum((n - expected) ** 2 / expected for n in seen.values())
    # Mean len(worlds) - 1; a loose bound that a biased sampler still fails.
    assert chi2 < 3 * len(worlds) + 30
