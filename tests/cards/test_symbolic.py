"""`CardStructure` against brute force: explicit Kripke models of the consistent deals.

The oracle lists every deal of the cards in play that the public facts allow (counts,
known holders, lacks, at-least-one facts, groups, not-all facts), read straight from the
`PublicInfo` fields, and builds the S5 model in which each seat cannot tell apart deals
that give it the same hand; the logic engine's explicit model checker then answers
nested formulas at the true deal.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from epigames.cards import REMOVED, CardKnowledge, PublicInfo
from epigames.cards.errors import UnknownCardError
from epigames.cards.public import iter_bits
from epigames.cards.symbolic import CardStructure, card_formula
from epigames.errors import UnknownAgentError
from epigames.games import CHANCE, Match, State, load_game
from epigames.games.ask import true_deal
from epigames.logic import KripkeModel, formula as fm
from epigames.logic.formula import Formula

pytest.importorskip("dd")


#: Small settings of every card game: their deals can be listed.
SMALL_GAMES = [
    "kwartet(players=3,kinds=3)",
    "klaverjas(ranks=3,deals=1)",
    "kemps(players=2,table=2,ranks=3,max_turns=12)",
]


def consistent_deals(
    public: PublicInfo, not_all: tuple[tuple[int, int], ...]
) -> Iterator[tuple[int, ...]]:
    """Every deal (one holder per card, `REMOVED` for cards out of play) the facts allow."""
    layout = public.layout
    n = layout.n_cards
    cards = [c for c in range(n) if not public.removed >> c & 1]
    left = list(public.counts)

    def options(c: int) -> list[int]:
        where = [h for h in range(layout.n_holders) if public.holding[h] >> c & 1]
        if where:
            return where
        return [
            h
            for h in range(layout.n_holders)
            if not public.lacking[h] >> c & 1 and h not in layout.public
        ]

    deal = [REMOVED] * n

    def go(i: int) -> Iterator[tuple[int, ...]]:
        if i == len(cards):
            if all(x == 0 for x in left):
                yield tuple(deal)
            return
        c = cards[i]
        for h in options(c):
            if left[h]:
                left[h] -= 1
                deal[c] = h
                yield from go(i + 1)
                left[h] += 1
        deal[c] = REMOVED

    def held(d: tuple[int, ...], h: int, mask: int) -> list[bool]:
        return [d[c] == h for c in iter_bits(mask)]

    for d in go(0):
        if not all(any(held(d, h, mask)) for h, mask in public.constraints):
            continue
        if any(all(held(d, h, g)) for g in public.groups for h in range(layout.n_holders)):
            continue
        if any(all(held(d, h, mask)) for h, mask in not_all):
            continue
        yield d


def kripke(
    cards: CardStructure, deals: list[tuple[int, ...]], true: tuple[int, ...]
) -> KripkeModel:
    """The S5 model of the deals: a seat cannot tell apart deals with its hand."""
    layout = cards.layout
    names = {d: f"w{i}" for i, d in enumerate(deals)}
    valuation = {
        names[d]: [cards.atom[c, h] for c, h in enumerate(d) if h != REMOVED] for d in deals
    }
    partitions = {}
    for p in sorted(layout.players):
        blocks: dict[tuple[int, ...], list[str]] = {}
        for d in deals:
            blocks.setdefault(tuple(c for c, h in enumerate(d) if h == p), []).append(names[d])
        partitions[layout.holders[p]] = list(blocks.values())
    return KripkeModel.build(
        list(names.values()), valuation, partitions=partitions, designated=[names[true]]
    )


def random_formula(rng: random.Random, cards: CardStructure, depth: int) -> Formula:
    """A random formula over the structure's atoms and agents, modalities nested to `depth`."""
    agents = list(cards.structure.agents)
    if depth == 0 or rng.random() < 0.2:
        return fm.Atom(rng.choice(sorted(cards.atom.values())))
    kind = rng.randrange(8)
    sub = random_formula(rng, cards, depth - 1)
    if kind == 0:
        return fm.Not(sub)
    if kind == 1:
        return fm.And((sub, random_formula(rng, cards, depth - 1)))
    if kind == 2:
        return fm.Or((fm.Not(sub), random_formula(rng, cards, depth - 1)))
    if kind == 3:
        return fm.M(rng.choice(agents), sub)
    if kind == 4:
        return fm.Kw(rng.choice(agents), sub)
    if kind == 5:
        return fm.C(tuple(rng.sample(agents, 2)), sub)
    if kind == 6:
        return fm.D(tuple(rng.sample(agents, 2)), sub)
    return fm.K(rng.choice(agents), sub)


def states(game: str, seeds: range, every: int) -> Iterator[State]:
    """States of seeded random matches, every `every` decisions, from the first decision."""
    for seed in seeds:
        match = Match(game, ["random"] * load_game(game).num_players, seed)
        made = 0
        match.run_chance()
        while not match.over:
            if made % every == 0 and match.state.current_player != CHANCE:
                yield match.state
            match.step()
            match.run_chance()
            made += 1


@pytest.mark.parametrize("game", SMALL_GAMES)
def test_nested_formulas_agree_with_brute_force(game: str) -> None:
    """The structure and every seat's `knows` agree with the deals' model."""
    rng = random.Random(game)
    checked = 0
    for state in states(game, range(2), every=3):
        knowledge = state.observation(0).knowledge
        assert isinstance(knowledge, CardKnowledge)
        cards = CardStructure.from_knowledge(knowledge)
        if cards.count_deals() > 3000:
            continue
        deals = list(consistent_deals(knowledge.public, knowledge.not_all))
        assert len(deals) == cards.count_deals()
        true = true_deal(state, knowledge)
        assert true in deals
        model = kripke(cards, deals, true)
        for _ in range(12):
            f = random_formula(rng, cards, depth=3)
            assert cards.holds(f, true) == model.holds(f), f
            checked += 1
        # Each seat's `CardKnowledge.knows`, modal formulas included, is K_seat here.
        for seat in sorted(cards.layout.players):
            name = cards.layout.holders[seat]
            for depth in (0, 2):
                f = random_formula(rng, cards, depth)
                assert state.observation(seat).knowledge.knows(f) == model.holds(fm.K(name, f))
    assert checked > 20


def test_formulas_name_seats_and_holders_by_index_or_name() -> None:
    state = next(states("klaverjas(ranks=3,deals=1)", range(1), every=1))
    knowledge = state.observation(0).knowledge
    cards = CardStructure.from_knowledge(knowledge)
    deal = true_deal(state, knowledge)
    card = str(knowledge.layout.cards[0])
    holder = deal[0]
    name = knowledge.layout.holders[holder]
    for text in (
        f"holds({holder}, {card})",
        f"holds({name.lower()}, {card})",
        f'"holds({name}, {card})"',
        f"K_{holder} holds({holder}, {card})",
        f"K_{name.upper()} holds({name}, {card})",
    ):
        assert cards.holds(card_formula(text), deal), text
    assert not cards.holds(card_formula(f"holds({(holder + 1) % 4}, {card})"), deal)


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("holds(0, 8♥)", UnknownCardError, "unknown card '8♥'"),
        ("holds(9, A♥)", UnknownCardError, "unknown holder '9'"),
        ("K_Up holds(0, A♥)", UnknownAgentError, "unknown seat 'Up'"),
        ("K_4 holds(0, A♥)", UnknownAgentError, "unknown seat '4'"),
        ("p", UnknownCardError, "unknown atom 'p'"),
    ],
)
def test_bad_names_are_input_errors(text: str, error: type[Exception], message: str) -> None:
    state = next(states("klaverjas(ranks=3,deals=1)", range(1), every=1))
    knowledge = state.observation(0).knowledge
    cards = CardStructure.from_knowledge(knowledge)
    with pytest.raises(error, match=message.replace("(", r"\(")):
        cards.holds(card_formula(text), true_deal(state, knowledge))
