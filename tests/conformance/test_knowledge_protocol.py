"""Every game's `view.knowledge` keeps the `Knowledge` protocol, and its parts agree."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from epigames.cards.symbolic import StructureTooLargeError
from epigames.games import CHANCE, State, load_game
from epigames.games.picture import HasPictures
from epigames.logic import K, Top
from epigames.logic.formula import Atom, Bot, Not
from epigames.logic.picture import KripkePicture
from epigames.logic.relations import Partition
from tests.conformance.helpers import game_strings, sampled_states

SPECS = game_strings()


def _check_seat(state: State, seat: int) -> int:
    """Check one seat's knowledge at one state; return how many subjects were checked."""
    assert isinstance(state, HasPictures)
    knowledge = state.observation(seat).knowledge
    name = state.game.seat_names[seat]
    assert knowledge.knows(Top()) and not knowledge.knows(Bot())
    assert knowledge.worlds_count() >= 1
    known = knowledge.known_values()
    subjects = state.picture_subjects()
    # A large deck's exact pictures cost tens of milliseconds each: a seeded sample of
    # subjects per seat and state keeps the big settings to a minute, and still reaches
    # every kind of subject over the states and seats.
    picked = random.Random(f"{seat}/{len(state.events)}").sample(
        subjects, min(len(subjects), MAX_SUBJECTS)
    )
    for subject in picked:
        possible = knowledge.possible_holders(subject)
        holder = knowledge.holder(subject)
        assert possible, f"{subject}: no possible value"
        assert (holder is None) == (len(possible) > 1), subject
        assert holder is None or holder in possible
        assert (subject in known) == (holder is not None), subject
        # The picture is the knowledge's, and it is what the state shows the seat.
        picture = knowledge.picture(subject)
        assert _same(picture, state.picture(subject, seat)), subject
        model = picture.model
        if name in picture.probabilities:  # Blufpoker has none while the cup is rolled
            total = sum(knowledge.probability(subject, v) for v in possible)
            assert total == Fraction(1), subject
        # The picture designates the worlds the seat considers possible: the true world
        # alone when it knows the value, else every world of the seat's block there.
        considered = picture.considered
        assert (picture.true_world is None) == (len(considered) > 1), subject
        relation = model.relations[name]
        assert isinstance(relation, Partition)
        here = relation.block[model.designated[0]]
        blocks = zip(model.worlds, relation.block, strict=True)
        assert considered == tuple(w for w, b in blocks if b == here), subject
        # What the seat knows about each atom of the picture is what its model says.
        for atom in model.atoms:
            formula = Atom(atom)
            assert knowledge.knows(formula) == model.holds(K(name, formula)), (subject, atom)
            assert knowledge.knows(formula) == picture.answer(formula), (subject, atom)
    if subjects and seat == state.current_player and knowledge.worlds_count() <= NESTED_WORLDS:
        _check_nested(state, seat, subjects[0])
    # The seat's own draw is reproducible from the seed.
    if subjects and name in state.picture(subjects[0], seat).probabilities:
        first = knowledge.sample_world(random.Random(5))
        assert knowledge.sample_world(random.Random(5)) == first
    return len(picked)


#: The most subjects checked per seat and state.
MAX_SUBJECTS = 10

#: Nested formulas are model checked on the whole state (BDDs for cards): only for the seat
#: to move, where it considers few worlds possible, so the large settings stay fast.
NESTED_WORLDS = 10_000


def _check_nested(state: State, seat: int, subject: str) -> None:
    """One nested formula, K_other atom, obeys S5 for the seat, and its picture where exact."""
    knowledge = state.observation(seat).knowledge
    names = state.game.seat_names
    name, other = names[seat], names[(seat + 1) % len(names)]
    picture = knowledge.picture(subject)
    nested = K(other, Atom(picture.model.atoms[-1]))
    try:
        knows = knowledge.knows(nested)
    except StructureTooLargeError:
        return  # refused at once, as documented, for a state with many unknown hand sizes
    assert knowledge.knows(K(name, nested)) == knows  # K_i K_j p ↔ K_i K_j p (4 and T)
    assert knowledge.knows(Not(K(name, nested))) == (not knows)  # 5
    if knows:
        assert knowledge.knows(Atom(picture.model.atoms[-1]))  # K_i K_j p → K_i p
    if getattr(state.observation(seat), "board", None) is not None:
        # The cup's picture is its exact model (`cup_model`), also while the cup is rolled.
        assert knows == picture.answer(nested)


def _same(a: KripkePicture, b: KripkePicture) -> bool:
    """Pictures are compared by content (models compare by identity)."""
    return (
        a.subject == b.subject
        and a.true_world == b.true_world
        and a.probabilities == b.probabilities
        and a.perspective == b.perspective
        and a.model.worlds == b.model.worlds
        and a.model.atoms == b.model.atoms
        and {k: str(v) for k, v in a.model.relations.items()}
        == {k: str(v) for k, v in b.model.relations.items()}
        and a.model.designated == b.model.designated
    )


@pytest.mark.parametrize("spec", SPECS)
def test_knowledge_keeps_the_protocol(spec: str) -> None:
    game = load_game(spec)
    checked = 0
    for state in sampled_states(spec, seed=41, count=6):
        if state.current_player == CHANCE and not state.picture_subjects():
            continue
        for seat in range(game.num_players):
            checked += _check_seat(state, seat)
    assert checked > 0, "no state had a subject: the test would be vacuous"
