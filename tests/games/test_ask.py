"""`games.ask`: the card engine's answers equal the symbolic engine's at every step of matches."""

from __future__ import annotations

import itertools
import random

import pytest

from epigames.cards import CardKnowledge
from epigames.cards.errors import UnknownCardError
from epigames.cards.symbolic import CardStructure
from epigames.errors import UnknownAgentError
from epigames.games import Match, load_game
from epigames.games.ask import StepError, UnknownAtomError, ask, true_deal
from epigames.games.blufpoker.actions import Believe, RollDice
from epigames.games.blufpoker.dice import ROLLS, Roll
from epigames.games.blufpoker.knowledge import cup_model
from epigames.games.blufpoker.rules import BlufpokerState
from epigames.games.steps import match_at
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
    assert answer.worlds == cards.count_deals() and answer.kind == "deals"
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


def _rerolls(before: Roll, count: int) -> set[Roll]:
    """Every roll that rerolling `count` of the dice of `before` can give (by brute force)."""
    return {
        Roll.of([before.dice[i] for i in kept] + list(faces))
        for kept in itertools.combinations(range(3), 3 - count)
        for faces in itertools.product(range(1, 7), repeat=count)
    }


def test_dice_answers_are_exact_while_the_cup_is_rolled() -> None:
    """A seat's possible rolls: one roll it saw, else what rerolling can make of the cup it
    could tell before the turn; `ask` at the true roll agrees with each seat's `knows`."""
    names = load_game("blufpoker").seat_names
    rolled_states = 0
    for seed in range(3):
        match = match_at("blufpoker", ["random"] * 3, seed, 0)
        before: list[set[Roll]] = []
        count = 0
        for _ in range(40):
            state = match.state
            assert isinstance(state, BlufpokerState)
            views = [state.observation(s) for s in range(3)]
            board = views[0].board
            truth = board.known or state.cup
            assert truth is not None
            if isinstance(match.transcript[-1].action if match.transcript else None, Believe):
                before, count = [set(v.knowledge.worlds()) for v in views], 0
            for seat, view in enumerate(views):
                cup = cup_model(view.board, view.log, names)
                world = cup.world_of(seat, view.log, view.knowledge.known)
                block = cup.model.relations[names[seat]].block
                here = block[cup.model.worlds.index(world)]
                possible = {ROLLS[r] for r, b in zip(cup.ranks, block, strict=True) if b == here}
                if not board.rolling:
                    expected = set(view.knowledge.worlds())
                elif seat == state.holder:
                    expected = {truth}
                else:
                    expected = set().union(*(_rerolls(p, count) for p in before[seat]))
                assert possible == expected, (seed, seat, state.phase)
                # The seat's own knowledge considers the same rolls possible as its model.
                assert set(view.knowledge.worlds()) == possible, (seed, seat, state.phase)
                knows = view.knowledge.knows(fm.Atom(f"cup_{truth}"))
                assert knows == (len(possible) == 1)
            f = fm.K(names[1], fm.Atom(f"atleast_{truth}"))
            answer = ask(state, f)
            assert answer.value == (answer.kind == "rolls" and 1 in answer.knowers)
            assert answer.knowers == tuple(s for s in range(3) if views[s].knowledge.knows(f))
            rolled_states += board.rolling
            if match.over:
                break
            entry = match.step()
            count += len(entry.action.dice) if isinstance(entry.action, RollDice) else 0
            match.run_chance()
    assert rolled_states > 5


def test_dice_atoms_and_card_atoms_are_told_apart() -> None:
    dice = match_at("blufpoker", ["random"] * 3, 1, 3).state
    with pytest.raises(UnknownAtomError, match="atoms are about the roll under the cup: cup_653"):
        ask(dice, "holds(0, A♥)")
    with pytest.raises(UnknownAtomError, match=r"'cup_356'.*did you mean 653"):
        ask(dice, "cup_356")
    with pytest.raises(UnknownAgentError, match="unknown seat 'Dee'"):
        ask(dice, "K_Dee cup_653")
    cards = match_at("kwartet(players=3,kinds=3)", ["random"] * 3, 1, 0).state
    with pytest.raises(UnknownCardError, match="unknown atom 'cup_653'; atoms name who holds"):
        ask(cards, "cup_653")


def test_dice_nested_formula_at_an_opening_reroll() -> None:
    # Seed 1, step 3: Bob opened 551 in public, Cas believed and rerolled one die.
    answer = ask(match_at("blufpoker", ["random"] * 3, 1, 3).state, "K_0 ~cup_111 & K_2 cup_551")
    # Everyone knows two of 5 5 1 stayed (11 rolls are possible, 111 is not), and Ann
    # knows that; only Cas, who saw the cup, knows it all.
    assert (answer.value, answer.knowers, answer.worlds) == (True, (2,), 11)


def test_match_ask_is_ask_on_the_current_state() -> None:
    match = match_at("klaverjas(ranks=3,deals=1)", ["random"] * 4, 1, 5)
    text = "K_1 ~holds(2, J♥) & ~K_2 K_1 ~holds(2, J♥)"
    assert match.ask(text) == ask(match.state, text)
    assert match.ask(text).knowers == (1,)
    dice = match_at("blufpoker", ["random"] * 3, 1, 3)
    assert dice.ask("K_Cas cup_551").knowers == (2,)


def test_a_deck_past_the_old_limit_is_answered_and_agrees_with_the_card_engine() -> None:
    """Five players with 11 kinds right after the deal: 90,000 hand-size combinations,
    past the 60,000 that structures were once limited to."""
    game = "kwartet(players=5,kinds=11)"
    state = match_at(game, ["random"] * 5, 0, 0).state
    k = state.observation(0).knowledge
    cards = CardStructure.from_knowledge(k)
    assert cards.hand_size_combinations() == 90_000
    text = "K_1 ~holds(2, ⟨1,1⟩) | K_2 holds(2, ⟨1,1⟩)"
    small = ask(state, text, limit=1_000)  # the quotient (cards.quotient): nothing built
    # The structure counts in floating point: close, where the card engine is exact.
    deals = cards.count_deals()  # builds the structure, which `ask` then reads
    answer = ask(state, text)
    assert cards.is_built and abs(answer.worlds - deals) < answer.worlds * 1e-12
    assert (small.value, small.knowers, small.worlds) == (
        answer.value,
        answer.knowers,
        answer.worlds,
    )
    for seat in (0, 3):  # each question costs about a second here
        seat_knowledge = state.observation(seat).knowledge
        assert isinstance(seat_knowledge, CardKnowledge)
        for c in (0, 42):
            card = seat_knowledge.layout.cards[c]
            assert seat_knowledge.possible_holders(card) == cards.possible_holders(
                seat_knowledge, c
            )
