"""`cards.quotient`: formulas on the quotient model equal the knowledge structure's answers,
and states far past a structure are answered and agree with the card engine."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from math import factorial

import pytest

from epigames.cards import DECK, CardKnowledge, CardLayout, PublicInfo
from epigames.cards.items import Split
from epigames.cards.quotient import (
    MAX_QUOTIENT_WORLDS,
    Question,
    _groups,
    _model,
    evaluator,
    quotient,
    touched_structure,
)
from epigames.cards.symbolic import (
    MAX_COMBINATIONS,
    CardStructure,
    StructureTooLargeError,
    card_formula,
)
from epigames.games import Match, load_game
from epigames.games.ask import ask, ask_seat, true_deal
from epigames.games.steps import match_at
from epigames.logic import formula as fm
from epigames.logic.formula import Formula
from tests.cards.test_symbolic import random_formula, states

pytest.importorskip("dd")

GAMES = [
    "kemps(players=2,table=2,ranks=3,max_turns=12)",
    "kemps(players=3,table=2,ranks=4,max_turns=12)",
    "klaverjas(ranks=3,deals=1)",
    "kwartet(players=3,kinds=3)",
    "kwartet(players=3,kinds=4)",
]


def _asked(cards: CardStructure, f: Formula) -> tuple[frozenset[int], list[Formula]]:
    """The cards `f` names, and `f` with every seat's `K` of it and every pair's `D` of it."""
    by_name = {name: c for (c, _), name in cards.atom.items()}
    named = frozenset(by_name[a] for a in f.atoms())
    seats = [cards.layout.holders[s] for s in sorted(cards.layout.players)]
    asked = [
        f,
        *(fm.K(s, f) for s in seats),
        *(fm.D(g, f) for g in itertools.combinations(seats, 2)),
    ]
    return named, asked


def _agrees(cards: CardStructure, f: Formula, deal: tuple[int, ...]) -> bool | None:
    """Whether the quotient answers `f`, every seat's `K` of it and every pair's `D` of it
    as the structure does; None when it refuses."""
    named, asked = _asked(cards, f)
    model = quotient(cards, named, deal, fm.And(tuple(asked)))
    if model is None:
        return None
    return all(model.holds(cards.canonical(g)) == cards.holds(g, deal) for g in asked)


@pytest.mark.parametrize("game", GAMES)
def test_the_quotient_answers_as_the_structure_does(game: str) -> None:
    rng = random.Random(game)
    compared = 0
    for state in states(game, range(3), every=2):
        knowledge = state.observation(0).knowledge
        assert isinstance(knowledge, CardKnowledge)
        cards = CardStructure.from_knowledge(knowledge)
        deal = true_deal(state, knowledge)
        public = CardKnowledge(knowledge.public, None, 0, (), (), knowledge.not_all)
        assert public.worlds_count() == cards.count_deals()  # what `ask` reports past a structure
        for _ in range(6):
            agrees = _agrees(cards, random_formula(rng, cards, depth=3), deal)
            assert agrees is not False
            compared += agrees is True
    assert compared >= 40, compared


def _second_order(cards: CardStructure, c: int) -> list[Formula]:
    """Every `M_t K_s`, `M_t M_s ~` and `K_t M_s` of the atoms of card `c`: where they
    differ, a seat's view of another's view of the card differs."""
    seats = [cards.layout.holders[p] for p in sorted(cards.layout.players)]
    found: list[Formula] = []
    for h in range(cards.layout.n_holders):
        if (c, h) in cards.atom:
            a = fm.Atom(cards.atom[c, h])
            for s, t in itertools.product(seats, seats):
                found += [fm.M(t, fm.K(s, a)), fm.M(t, fm.M(s, fm.Not(a))), fm.K(t, fm.M(s, a))]
    return found


def test_a_seat_whose_view_hangs_on_untouched_cards_gets_more_worlds() -> None:
    """Where the way a seat holds untouched cards decides what may lie where, the coarse
    quotient (the placements of the named card's kind alone) would be wrong; the check
    finds those states and lists more components, and the answers stay exact."""
    refined = 0
    for state in states("kwartet(players=3,kinds=3)", range(3), every=1):
        knowledge = state.observation(0).knowledge
        assert isinstance(knowledge, CardKnowledge)
        cards = CardStructure.from_knowledge(knowledge)
        deal = true_deal(state, knowledge)
        truth = cards.state(deal)
        for c in range(0, cards.layout.n_cards, 2):
            named = frozenset({c})
            model = quotient(cards, named, deal)
            if model is None or (c, 0) not in cards.atom:
                continue
            split = Split.of(cards, named)
            groups = _groups(cards, split, None)
            question = Question(cards, split, named, deal, groups, MAX_QUOTIENT_WORLDS)
            refined += _model(question) is False
            for f in _second_order(cards, c):
                assert model.holds(cards.canonical(f)) == cards.structure.holds(f, truth), f
    assert refined >= 20, refined


def _fits(public: PublicInfo, not_all: tuple[tuple[int, int], ...], deal: tuple[int, ...]) -> bool:
    """Whether a deal (a holder per card) keeps every public fact."""
    holders = public.layout.n_holders
    held = [sum(1 << c for c, h in enumerate(deal) if h == x) for x in range(holders)]
    if [m.bit_count() for m in held] != list(public.counts):
        return False
    if any(held[h] & public.lacking[h] for h in range(holders)):
        return False
    if not all(held[h] & mask for h, mask in public.constraints):
        return False
    never = [(h, g) for g in public.groups for h in range(holders)] + list(not_all)
    return not any(held[h] & mask == mask for h, mask in never)


def _by_counts(counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every deal (a holder per card) that gives each holder its count of cards."""
    deals: list[tuple[int, ...]] = []

    def deal(holder: int, left: frozenset[int], given: dict[int, int]) -> None:
        if holder == len(counts):
            deals.append(tuple(given[c] for c in sorted(given)))
            return
        for hand in itertools.combinations(sorted(left), counts[holder]):
            deal(holder + 1, left - set(hand), {**given, **dict.fromkeys(hand, holder)})

    deal(0, frozenset(range(sum(counts))), {})
    return deals


def _made_up(rng: random.Random) -> tuple[PublicInfo, tuple[tuple[int, int], ...]]:
    """Public facts on 8 or 9 cards in three kinds (groups), three players and a deck:
    lacks, at-least-one facts within a kind, and a not-all fact."""
    n = rng.choice((8, 9))
    layout = CardLayout.with_locations(list(range(n)), ("A", "B", "C"), (DECK,))
    counts = [2, 2, 2, n - 6] if rng.random() < 0.5 else [3, 2, 2, n - 7]
    kinds = [list(range(k, n, 3)) for k in range(3)]
    public = PublicInfo.start(layout, counts, groups=kinds if rng.random() < 0.7 else ())
    for _ in range(rng.randrange(4)):
        public = public.lacks(rng.randrange(n), rng.randrange(4))
    for _ in range(rng.randrange(3)):
        kind = rng.choice(kinds)
        public = public.at_least_one(rng.randrange(3), rng.sample(kind, 2))
    not_all = ((rng.randrange(3), sum(1 << c for c in rng.choice(kinds))),)
    return public, not_all if rng.random() < 0.5 else ()


def made_up_states(
    rng: random.Random, tries: int
) -> Iterator[tuple[PublicInfo, tuple[tuple[int, int], ...], list[tuple[int, ...]]]]:
    """Up to `tries` made-up public facts (not the contradictory ones), each with every
    deal that keeps them."""
    for _ in range(tries):
        try:
            public, not_all = _made_up(rng)
        except ValueError:
            continue  # contradictory made-up facts
        yield public, not_all, [d for d in _by_counts(public.counts) if _fits(public, not_all, d)]


@pytest.mark.parametrize("seed", range(5))
def test_made_up_facts_with_several_untouched_components(seed: int) -> None:
    """Every deal is listed by brute force: the structure counts them, and the quotient
    answers as the structure does wherever it answers, also when the cards the formula
    does not name fall into several components tied to the players' rooms."""
    rng = random.Random(seed)
    compared = several = 0
    for public, not_all, deals in made_up_states(rng, 30):
        if not deals:
            continue
        cards = CardStructure.from_public(public, not_all)
        assert len(deals) == cards.count_deals()
        by_name = {name: c for (c, _), name in cards.atom.items()}
        for deal in rng.sample(deals, min(3, len(deals))):
            f = random_formula(rng, cards, depth=3)
            agrees = _agrees(cards, f, deal)
            assert agrees is not False, (public, not_all, deal, f)
            if agrees:
                compared += 1
                split = Split.of(cards, frozenset(by_name[a] for a in f.atoms()))
                several += len(split.components) - split.touched > 1
    assert compared >= 20 and several >= 5, (compared, several)


def _engine_knowers(match: Match, phi: Formula) -> tuple[int, ...]:
    """The seats whose card engine knows a propositional formula (exact, no structure)."""
    seats = range(match.state.game.num_players)
    return tuple(s for s in seats if match.state.observation(s).knowledge.knows(phi))


def test_six_player_kwartet_is_answered_from_the_deal() -> None:
    """810,000 hand-size combinations (a structure takes minutes and gigabytes): the
    quotient answers at once, as the card engine does where it can tell."""
    game = "kwartet(players=6,kinds=13)"
    match = match_at(game, ["random"] * 6, 0, 0)
    state = match.state
    knowledge = state.observation(0).knowledge
    assert isinstance(knowledge, CardKnowledge)
    cards = CardStructure.from_knowledge(knowledge)
    assert cards.hand_size_combinations() == 810_000
    card = state.hands()[2][0]
    phi = card_formula(f"holds(2, {card}) | holds(3, {card})")
    answer = ask(state, phi)
    assert answer.value and answer.knowers == _engine_knowers(match, phi) == (2,)
    nested = ask(state, f"K_1 ~holds(2, {card}) | ~K_2 K_1 ~holds(2, {card})")
    assert nested.value and nested.knowers == (0, 1, 2, 3, 4, 5)  # no seat but 2 knows its hand
    outside = CardKnowledge(knowledge.public, None, 0, (), (), knowledge.not_all)
    assert answer.worlds == outside.worlds_count()
    seen = ask_seat(state, 2, f"holds(2, {card})")
    # Seat 2 knows that no other seat knows where its card is.
    assert seen.verdict == "true"
    assert seen.others == ("does not know",) * 2 + ("knows",) + ("does not know",) * 3


def test_the_eight_player_kemps_deal_is_answered_on_the_quotient() -> None:
    """6.6 million hand-size combinations: no knowledge structure, but a formula about
    one card has a quotient of nine worlds (the card in one of the eight hands or the
    deck), or one if the card lies on the table."""
    game = "kemps(teams=true,players=8)"
    state = match_at(game, ["random"] * 8, 0, 0).state
    with pytest.raises(StructureTooLargeError):
        CardStructure.from_knowledge(state.observation(0).knowledge).build()
    card = state.hands()[1][0]
    answer = ask(state, f"holds(1, {card}) & ~K_0 holds(1, {card})")
    assert answer.value and answer.knowers == (1,)  # only East knows its own card
    # The deals of the 48 unseen cards: four to each hand, sixteen to the deck.
    assert answer.worlds == factorial(48) // (factorial(4) ** 8 * factorial(16))


def test_the_eight_player_kemps_game_with_not_all_facts() -> None:
    """Cards known not to be four of a kind give a not-all fact on each rank, which puts
    every rank's unknown cards in an item of their own: the quotient still answers, at
    once, and a card in a hand is known to its holder alone unless it was seen taken."""
    game = "kemps(teams=true,players=8)"
    for seed in range(40):
        match = Match(game, ["random"] * 8, seed)
        match.run_chance()
        while not match.over and not match.state.observation(0).knowledge.not_all:
            match.step()
        if not match.over:
            break
    else:
        pytest.fail("no not-all fact in 40 seeded games")
    knowledge = match.state.observation(0).knowledge
    assert isinstance(knowledge, CardKnowledge) and knowledge.not_all
    cards = CardStructure.from_knowledge(knowledge)
    assert not cards.within(200_000)
    deal = true_deal(match.state, knowledge)
    asked = 0
    for c, holder in enumerate(deal):
        if not 0 <= holder < 8:
            continue
        phi = card_formula(f"holds({holder}, {knowledge.layout.cards[c]})")
        truth = evaluator(cards, phi, deal, 200_000)
        knowers = tuple(s for s in range(8) if truth(fm.K(str(s), phi)))
        seen = knowledge.public.where(c) == holder
        assert knowers == (tuple(range(8)) if seen else (holder,))
        assert truth(phi) and not truth(fm.K(str((holder + 1) % 8), fm.Not(phi)))
        asked += 1
    assert asked >= 20
    # Two cards of different ranks (each rank's not-all facts tie its cards together):
    # worlds are where the two lie, and K of the pair is K of each.
    held = [c for c, holder in enumerate(deal) if 0 <= holder < 8]
    pairs = [(a, b) for a, b in itertools.combinations(held, 2) if a % 13 != b % 13][:12]
    for a, b in pairs:
        one, two = (card_formula(f"holds({deal[c]}, {knowledge.layout.cards[c]})") for c in (a, b))
        both = fm.And((one, two))
        truth = evaluator(cards, both, deal, 200_000)
        for s in map(str, range(8)):
            assert truth(fm.K(s, both)) == (truth(fm.K(s, one)) and truth(fm.K(s, two)))
        # The two holders pooled know both (D pools their hands).
        truth = evaluator(
            cards, fm.D(tuple(map(str, {deal[a], deal[b], 7 - deal[a]})), both), deal, 200_000
        )
        assert truth(fm.D(tuple(map(str, {deal[a], deal[b], 7 - deal[a]})), both))
    assert len(pairs) == 12 and not cards.is_built  # all on quotients


def test_a_formula_no_exact_model_fits_is_refused() -> None:
    """Thirteen named cards have more placements than a quotient lists (3^13 holders),
    their kinds more cards than a touched structure takes, and a law past 20 nodes per
    combination of a tiny limit is not built."""
    state = match_at("kwartet(players=3,kinds=13)", ["random"] * 3, 0, 0).state
    many = " & ".join(f"~holds(2, ⟨{k},1⟩)" for k in range(1, 14))
    with pytest.raises(StructureTooLargeError, match="BDD nodes"):
        ask(state, f"K_0 ({many})", limit=2)
    assert ask(state, "holds(2, ⟨1,1⟩) | ~holds(2, ⟨1,1⟩)", limit=2).value


def test_twelve_named_cards_are_answered_on_the_touched_structure() -> None:
    """Past the quotient's worlds (3^12), the touched components' cards answer as the
    whole structure does."""
    state = match_at("kwartet(players=3,kinds=4)", ["random"] * 3, 0, 0).state
    twelve = " & ".join(f"~holds(2, ⟨{k},{v}⟩)" for k in range(1, 4) for v in range(1, 5))
    for f in (f"K_0 ({twelve})", f"~K_1 ({twelve}) & K_2 ~K_0 ({twelve})"):
        small = ask(state, f, limit=2)
        assert small == ask(state, f, limit=None), f


def test_distributed_knowledge_is_answered_past_the_limit() -> None:
    """D pools hands, so the quotient checks each pooled group as it checks a seat: the
    answers past a tiny limit are the structure's (Kemps, where the deck holds cards too)."""
    game = "kemps(players=3,table=2,ranks=4,max_turns=12)"
    asked = 0
    for step in range(0, 12, 2):
        state = match_at(game, ["random"] * 3, 1, step).state
        formulas = [
            f
            for card in ("2♥", "3♠", "4♦", "5♣")
            for f in (
                f"D_{{0,1}} ~holds(2, {card})",
                f"Dw_{{0,2}} holds(1, {card}) & ~K_0 holds(1, {card})",
                f"K_1 D_{{0,2}} ~holds(1, {card}) | D_{{1,2}} K_0 ~holds(0, {card})",
            )
        ]
        past = [ask(state, f, limit=2) for f in formulas]  # before any structure is built
        knowledge = state.observation(0).knowledge
        assert isinstance(knowledge, CardKnowledge)
        cards = CardStructure.from_knowledge(knowledge)
        cards.build()
        deal = true_deal(state, knowledge)
        for f, answer in zip(formulas, past, strict=True):
            phi = card_formula(f)
            knowers = tuple(s for s in range(3) if cards.holds(fm.K(str(s), phi), deal))
            assert (answer.value, answer.knowers) == (cards.holds(phi, deal), knowers), f
            asked += 1
    assert asked == 72


def _touched_agrees(cards: CardStructure, f: Formula, deal: tuple[int, ...]) -> bool | None:
    """`_agrees` for the structure of the touched components' cards."""
    named, asked = _asked(cards, f)
    truth = touched_structure(cards, named, deal, fm.And(tuple(asked)))
    if truth is None:
        return None
    return all(truth(g) == cards.holds(g, deal) for g in asked)


@pytest.mark.parametrize("game", GAMES)
def test_the_touched_structure_answers_as_the_structure_does(game: str) -> None:
    rng = random.Random(f"touched {game}")
    compared = 0
    for state in states(game, range(3), every=2):
        knowledge = state.observation(0).knowledge
        assert isinstance(knowledge, CardKnowledge)
        cards = CardStructure.from_knowledge(knowledge)
        deal = true_deal(state, knowledge)
        for _ in range(6):
            agrees = _touched_agrees(cards, random_formula(rng, cards, depth=3), deal)
            assert agrees is not False
            compared += agrees is True
    assert compared >= 40, compared


@pytest.mark.parametrize("seed", range(5))
def test_the_touched_structure_on_made_up_facts(seed: int) -> None:
    """Brute force lists every deal; the touched structure answers as the structure."""
    rng = random.Random(f"touched {seed}")
    compared = 0
    for public, not_all, deals in made_up_states(rng, 30):
        if not deals:
            continue
        cards = CardStructure.from_public(public, not_all)
        for deal in rng.sample(deals, min(3, len(deals))):
            f = random_formula(rng, cards, depth=3)
            agrees = _touched_agrees(cards, f, deal)
            assert agrees is not False, (public, not_all, deal, f)
            compared += agrees is True
    assert compared >= 20, compared


def test_second_order_views_on_the_touched_structure() -> None:
    """A seat's view of another's view of a card, where the way a seat holds untouched
    cards matters (the states where the coarse quotient is refined)."""
    compared = 0
    for state in states("kwartet(players=3,kinds=3)", range(3), every=1):
        knowledge = state.observation(0).knowledge
        assert isinstance(knowledge, CardKnowledge)
        cards = CardStructure.from_knowledge(knowledge)
        deal = true_deal(state, knowledge)
        truth = cards.state(deal)
        for c in range(0, cards.layout.n_cards, 2):
            if (c, 0) not in cards.atom:
                continue
            fs = _second_order(cards, c)
            answer = touched_structure(cards, frozenset({c}), deal, fm.And(tuple(fs)))
            if answer is None:
                continue
            compared += 1
            for f in fs:
                assert answer(f) == cards.structure.holds(f, truth), f
    assert compared >= 20, compared


def test_the_sweeps_slowest_kwartet_state_is_answered_on_the_touched_structure() -> None:
    """Six-player Kwartet, seed 0, step 25 of `bench.cards.sweep` (576,000 hand-size
    combinations): a seat's view hangs on untouched cards only at room vectors no
    placement of the touched cards reaches, so the five touched kinds answer (the whole
    structure within its node budget took a minute), as the card engine does."""
    game = load_game("kwartet(players=6)")
    match = Match(game, [game.default_strategy] * game.num_players, 0)
    for _ in range(25):
        match.run_chance()
        match.step()
    match.run_chance()
    state = match.state
    knowledge = state.observation(0).knowledge
    assert isinstance(knowledge, CardKnowledge)
    cards = CardStructure.from_knowledge(knowledge)
    assert cards.hand_size_combinations() > MAX_COMBINATIONS
    said = "holds(0,<1,2>) & holds(1,<2,2>) | holds(2,<3,3>) & holds(4,<4,1>) | holds(5,<9,4>)"
    phi = fm.K("3", card_formula(said))
    deal = true_deal(state, knowledge)
    named = frozenset(cards.literal(a)[0] for a in phi.atoms())
    truth = touched_structure(cards, named, deal, phi)
    assert truth is not None
    seat = state.observation(3).knowledge
    assert truth(phi) == seat.knows(cards.canonical(card_formula(said)))
    answer = ask(state, phi)
    assert answer.value == truth(phi)
    expected = tuple(s for s in range(6) if truth(fm.K(str(s), phi)))
    assert answer.knowers == expected
    assert not answer.value and not expected  # what no one knows is false (truth axiom)
