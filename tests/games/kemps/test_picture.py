"""A Kemps card's picture in the report's worlds: nobody holds it, or player i does."""

from __future__ import annotations

import random

import pytest

from epigames.games import Match
from epigames.games.kemps import KempsState
from epigames.games.kemps.picture import NOBODY
from epigames.logic.picture import KripkePicture
from epigames.logic.syntax import parse

GAMES = ["kemps(ranks=5,max_turns=40)", "kemps(teams=true,ranks=6,max_turns=30)"]


def states(spec: str, seed: int) -> list[KempsState]:
    """Every third state of a greedy game (new tables, swaps, Kemps and new hands on the way)."""
    match = Match(spec, ["greedy"] * (4 if "teams" in spec else 3), seed)
    seen = []
    while not match.state.is_terminal():
        match.step()
        if len(match.state.history) % 3 == 0:
            state = match.state.clone()
            assert isinstance(state, KempsState)
            seen.append(state)
    return seen


def drawn(picture: KripkePicture) -> tuple[object, ...]:
    """Everything a picture shows, comparable with ==."""
    model = picture.model
    atoms = [sorted(model.world_atoms(i)) for i in range(len(model.worlds))]
    blocks = {a: model.relations[a].block.tolist() for a in model.agents}  # type: ignore[union-attr]
    return model.worlds, atoms, blocks, picture.true_world, picture.probabilities


@pytest.mark.parametrize("spec", GAMES)
def test_a_seats_picture_is_its_knowledge_in_the_reports_worlds(spec: str) -> None:
    """Worlds the seat considers possible: its possible holders, every place that is no
    hand as `nobody`; the seat's own relation joins them all (the other worlds, those other
    seats consider possible from there, in blocks of their own); its probabilities add up
    over the places; the true world is marked only where it knows it; a resampled deal it
    cannot tell apart gives the same picture."""
    checked = 0
    for seed in range(3):
        for state in states(spec, seed):
            names = state.game.seat_names
            for seat in range(len(names)):
                knowledge = state.observation(seat).knowledge
                other = state.resample(seat, random.Random(seed))
                for subject in state.picture_subjects()[::4]:
                    picture = state.picture(subject, seat)
                    card = next(c for c in state.game.deck if str(c) == subject)
                    holders = knowledge.possible_holders(card)
                    expected = {names[h] if h < len(names) else NOBODY for h in holders}
                    assert set(picture.considered) == expected
                    assert picture.model.is_s5()
                    me = names[seat]
                    blocks = picture.model.relations[me].block  # type: ignore[union-attr]
                    mine = {int(blocks[w]) for w in picture.model.designated}
                    assert len(mine) == 1
                    inside = {picture.model.worlds[w] for w, b in enumerate(blocks) if b in mine}
                    assert inside == expected
                    chances = picture.probabilities[me]
                    assert sum(chances.values()) == pytest.approx(1)
                    if len(expected) == 1:
                        assert picture.true_world == next(iter(expected))
                    else:
                        assert picture.true_world is None
                    for p in names:
                        atom = f"holds({p}, {subject})"
                        knows = picture.answer(parse(f'K_{{{me}}} "{atom}"'))
                        assert knows == (expected == {p}), (subject, p)
                    assert drawn(other.picture(subject, seat)) == drawn(picture)
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize("spec", GAMES)
def test_the_spectators_picture_marks_the_truth_and_each_player_knows_its_own_hand(
    spec: str,
) -> None:
    """As the report draws it: each player tells apart only whether it holds the card
    itself (beyond what public facts rule out); the true world is where the card is."""
    for state in states(spec, 1)[::2]:
        names = state.game.seat_names
        for subject in state.picture_subjects()[::3]:
            picture = state.picture(subject)
            card = next(c for c in state.game.deck if str(c) == subject)
            where = state.location(card)
            truth = names[where] if where < len(names) else NOBODY
            assert picture.true_world == truth
            for p in names:
                holds = f'"holds({p}, {subject})"'
                assert picture.model.holds(parse(f"K_{{{p}}} {holds} | K_{{{p}}} ~{holds}"))
