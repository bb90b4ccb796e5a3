"""`games.ask`: the card engine's answers equal the symbolic engine's at every step of matches."""

from __future__ import annotations

import random

import pytest

from epigames.cards import CardKnowledge
from epigames.cards.symbolic import CardStructure
from epigames.games import Match, load_game
from epigames.games.ask import StepError, ask, match_at, true_deal
from epigames.logic import formula as fm
from epigames.logic.formula import Formula

pytest.importorskip("dd")

GAMES = [
    "kwartet(players=3,kinds=3)",
    "klaverjas(ranks=3,deals=1)",
    "kemps(players=2,table=2,ranks=3,max_turns=12)",
]


def literal_formula(rng: random.Random, cards: CardStructure) -> Formula:
    """A random Boolean formula of two or three holds literals."""
    atoms = sorted(cards.atom.values())
    lits: list[Formula] = []
    for _ in range(rng.randint(1, 3)):
        a: Formula = fm.Atom(rng.choice(atoms))
        lits.append(fm.Not(a) if rng.random() < 0.5 else a)
    return fm.Or(tuple(lits)) if rng.random() < 0.5 else fm.And(tuple(lits))


@pytest.mark.parametrize("game", GAMES)
def test_card_engine_equals_symbolic_engine_at_every_step(game: str) -> None:
    rng = random.Random(game)
    seats = load_game(game).num_players
    compared = 0
    for seed in range(2):
        match = Match(game, ["random"] * seats, seed)
        match.run_chance()
        while not match.over:
            state = match.state
            cards = CardStructure.from_knowledge(state.observation(0).knowledge)
            for seat in range(seats):
                k = state.observation(seat).knowledge
                assert isinstance(k, CardKnowledge)
                layout = k.layout
                for c in range(layout.n_cards):
                    if k.public.removed >> c & 1:
                        continue
                    card = layout.cards[c]
                    possible = cards.possible_holders(k, c)
                    assert k.possible_holders(card) == possible
                    holder = k.holder(card)
                    assert (holder is not None) == (len(possible) == 1)
                    if holder is not None:
                        atom = fm.Atom(cards.atom[c, holder])
                        assert cards.knows(k, atom) and cards.knows(k, fm.Kw(str(seat), atom))
                for _ in range(3):
                    f = literal_formula(rng, cards)
                    assert k.knows(f) == cards.knows(k, f), f
                    whether = k.knows(f) or k.knows(fm.Not(f))
                    assert whether == cards.knows(k, fm.Kw(str(seat), f)), f
                    compared += 1
            match.step()
            match.run_chance()
    assert compared > 50


def test_ask_answers_the_issue_example_and_who_knows() -> None:
    match = match_at("klaverjas(ranks=3,deals=1)", ["random"] * 4, 1, 5)
    state = match.state
    answer = ask(state, "K_1 ~holds(2, A♥) & ~K_2 K_1 ~holds(2, A♥)")
    knowledge = state.observation(0).knowledge
    cards = CardStructure.from_knowledge(knowledge)
    deal = true_deal(state, knowledge)
    assert answer.value == cards.holds(answer.formula, deal)
    assert answer.deals == cards.count_deals()
    # Every seat knows its own cards, and only the holder knows it holds a card it hides.
    hand = state.observation(3).knowledge.hand
    card = knowledge.layout.cards[hand.bit_length() - 1]
    own = ask(state, f"holds(West, {card})")
    assert own.value and 3 in own.knowers


def test_steps_replay_the_match_as_play_does() -> None:
    first = match_at("kwartet(players=3,kinds=3)", ["random"] * 3, 4, 0)
    assert first.transcript == [] and first.state.current_player >= 0
    moves = Match("kwartet(players=3,kinds=3)", ["random"] * 3, 4).run().moves
    last = match_at("kwartet(players=3,kinds=3)", ["random"] * 3, 4, moves)
    assert last.over
    with pytest.raises(StepError, match=f"step {moves + 1} is past the end"):
        match_at("kwartet(players=3,kinds=3)", ["random"] * 3, 4, moves + 1)


def test_blufpoker_is_refused_with_a_message() -> None:
    match = match_at("blufpoker", ["random"] * 3, 0, 0)
    with pytest.raises(ValueError, match="blufpoker has no cards"):
        ask(match.state, "holds(0, A♥)")
