"""`knows` goes through the negation's DNF lazily, pruned by what some deal allows."""

from __future__ import annotations

import itertools
import random

import pytest

from epigames.cards import CardKnowledge, holds_atom
from epigames.cards.formulas import Term, dnf, dnf_terms, literal
from epigames.games import Match, load_game
from epigames.logic import And, Atom, Formula, Not, Or
from tests.cards.formulas import card_formula
from tests.cards.test_oracle import evaluate, new_game, random_formula


def _true_in(term: Term, world: dict[int, int]) -> bool:
    positives, negatives = term
    return all(world.get(c) == h for c, h in positives) and all(
        world.get(c) != h for c, h in negatives
    )


@pytest.mark.parametrize("seed", range(60))
def test_the_terms_are_the_formula_on_every_assignment(seed: int) -> None:
    """On every placement of the atoms' cards, some term is true exactly when the formula
    (or, negated, its negation) is."""
    rng = random.Random(seed)
    game = new_game(rng, 3, 2, 2)
    layout = game.layout
    spec = random_formula(rng, game, 3)
    formula = card_formula(spec)
    cards = sorted({literal(layout, name)[0] for name in formula.atoms()})
    for negate in (False, True):
        terms = dnf(layout, formula, negate)
        for holders in itertools.product(range(len(layout.holders)), repeat=len(cards)):
            world = dict(zip(cards, holders, strict=True))
            truth = evaluate(spec, game, world) != negate
            assert any(_true_in(t, world) for t in terms) == truth, (spec, negate, world)


def test_keep_prunes_every_part_and_stops_an_empty_product_at_once() -> None:
    layout = new_game(random.Random(0), 3, 3, 3).layout
    names = [holds_atom(holder, card) for card in layout.cards for holder in layout.holders[:3]]
    banned = literal(layout, names[0])
    seen: list[Term] = []

    def keep(term: Term) -> bool:
        seen.append(term)
        return banned not in term[0]

    # 2**8 combinations of the pairs, and-ed with the banned atom: nothing survives, and
    # the product is never walked.
    pairs = And(tuple(Or((Atom(names[i]), Atom(names[i + 1]))) for i in range(1, 17, 2)))
    assert list(dnf_terms(layout, And((pairs, Atom(names[0]))), keep=keep)) == []
    assert len(seen) <= 17
    assert all(banned not in t[0] for t in dnf_terms(layout, pairs, keep=keep))


def _pairs(know: CardKnowledge, count: int) -> Formula:
    """`count` pairs of atoms on cards the agent does not hold, or-ed: the negation's DNF
    has 2**count terms."""
    layout = know.layout
    others = [h for h in range(len(layout.holders)) if h != know.agent]
    cards = [c for c in layout.cards if know.holder(c) != know.agent]
    atoms = [
        Atom(holds_atom(layout.holders[others[i % len(others)]], cards[i % len(cards)]))
        for i in range(2 * count)
    ]
    return Or(tuple(And((atoms[2 * i], atoms[2 * i + 1])) for i in range(count)))


def test_a_formula_with_millions_of_terms_is_answered_without_making_them() -> None:
    """Twenty-four pairs: 2**24 terms in the negation's DNF, which `knows` once listed
    whole before checking the first."""
    game = load_game("kwartet(players=4,kinds=6)")
    match = Match(game, [game.default_strategy] * game.num_players, 3)
    for _ in range(6):
        match.run_chance()
        match.step()
    match.run_chance()
    know = match.state.observation(0).knowledge
    assert isinstance(know, CardKnowledge)
    big = _pairs(know, 24)
    layout = know.layout
    mine = next(c for c in layout.cards if know.holder(c) == 0)
    me, other = layout.holders[0], layout.holders[1]
    assert know.knows(Or((big, Atom(holds_atom(me, mine)))))
    assert not know.knows(And((big, Atom(holds_atom(other, mine)))))
    assert not know.knows(big)
    assert not know.knows(Or((big, Not(Atom(holds_atom(me, mine))))))
