"""The muddy children, checked against a plain-Python oracle."""

from __future__ import annotations

from itertools import chain, combinations
from math import comb

import pytest

from epigames.errors import ModelError
from epigames.logic import And, Atom, C, E, Formula, K, Kw, Not, parse
from epigames.logic.puzzles import (
    muddy_children,
    muddy_children_story,
    nobody_knows,
    play_muddy_children,
    someone_muddy,
)


def subsets(n: int) -> list[frozenset[int]]:
    children = range(1, n + 1)
    return [
        frozenset(s) for s in chain.from_iterable(combinations(children, k) for k in range(n + 1))
    ]


def everybody(n: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(1, n + 1))


def test_muddy_model_shape() -> None:
    m = muddy_children(3, {1, 3})
    assert m.size == 8
    assert m.agents == ("1", "2", "3")
    assert m.worlds[m.designated[0]] == "101"
    assert m.holds(parse("m1 & ~m2 & m3"))
    for i in range(1, 4):
        # Nobody sees their own forehead, everybody sees the others'.
        assert m.valid(Not(Kw(str(i), Atom(f"m{i}"))))
        for j in range(1, 4):
            if j != i:
                assert m.valid(Kw(str(j), Atom(f"m{i}")))


def test_muddy_world_names_follow_children() -> None:
    m = muddy_children(4, {2})
    assert m.where(Atom("m2") & ~Atom("m1") & ~Atom("m3") & ~Atom("m4")) == ["0100"]


@pytest.mark.parametrize("n", range(1, 7))
def test_muddy_children_every_muddy_set(n: int) -> None:
    for muddy in subsets(n):
        m = len(muddy)
        if m == 0:
            with pytest.raises(ModelError):
                muddy_children_story(n, muddy)
            continue
        story = muddy_children_story(n, muddy)
        assert story.muddy == muddy
        # The father's announcement, then m - 1 "nobody knows" announcements.
        assert len(story.rounds) == m
        assert story.rounds[0].announcement == someone_muddy(n)
        assert all(r.announcement == nobody_knows(n) for r in story.rounds[1:])
        for r in story.rounds[:-1]:
            assert r.knowers == frozenset()
        assert story.rounds[-1].knowers == muddy
        # After k "nobody knows" announcements, the worlds left have at least k + 1 muddy.
        for k, r in enumerate(story.rounds):
            assert r.worlds == sum(comb(n, j) for j in range(k + 1, n + 1))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_muddy_children_by_hand(n: int) -> None:
    """The same story announced step by step, without play_muddy_children."""
    for muddy in subsets(n):
        m = len(muddy)
        if m == 0:
            continue
        model = muddy_children(n, muddy).announce(someone_muddy(n))
        knows = [Kw(str(i), Atom(f"m{i}")) for i in range(1, n + 1)]
        for _ in range(m - 1):
            assert not any(model.holds(f) for f in knows)
            model = model.announce(nobody_knows(n))
        assert {i + 1 for i, f in enumerate(knows) if model.holds(f)} == muddy
        # One more "nobody knows" would be false now.
        with pytest.raises(ModelError):
            model.announce(nobody_knows(n))


def test_muddy_announcement_formulas() -> None:
    assert str(someone_muddy(3)) == "m1 | m2 | m3"
    assert str(nobody_knows(2)) == "~Kw_1 m1 & ~Kw_2 m2"
    assert someone_muddy(1) == Atom("m1")


@pytest.mark.parametrize("n", [3, 4])
def test_muddy_clean_children_learn_next(n: int) -> None:
    """Once the muddy children say they know, the clean ones know they are clean."""
    for muddy in subsets(n):
        if not muddy or len(muddy) == n:
            continue
        story = muddy_children_story(n, muddy)
        clean = set(range(1, n + 1)) - muddy
        assert not any(story.model.holds(Kw(str(i), Atom(f"m{i}"))) for i in clean)
        they_know = And(tuple(Kw(str(i), Atom(f"m{i}")) for i in sorted(muddy)))
        after = story.model.announce(they_know)
        assert all(after.holds(K(str(i), Not(Atom(f"m{i}")))) for i in clean)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_muddy_common_knowledge(n: int) -> None:
    for muddy in subsets(n):
        if not muddy:
            continue
        initial = muddy_children(n, muddy)
        common = C(everybody(n), someone_muddy(n))
        # Before the father speaks it is common knowledge nowhere (the clean world is
        # reachable from every world), even when everyone already knows it (m ≥ 2).
        assert not initial.truth_set(common).any()
        after = initial.announce(someone_muddy(n))
        assert after.valid(common)
        # With m muddy children, E^k (someone is muddy) holds exactly for k < m.
        f: Formula = someone_muddy(n)
        for k in range(n + 1):
            assert initial.holds(f) == (k < len(muddy)), (muddy, k)
            f = E(everybody(n), f)


def test_muddy_everyone_knows_but_not_common_knowledge() -> None:
    m = muddy_children(3, {1, 2})
    assert m.holds(E(everybody(3), someone_muddy(3)))
    assert not m.holds(E(everybody(3), E(everybody(3), someone_muddy(3))))
    assert not m.holds(C(everybody(3), someone_muddy(3)))
    assert not muddy_children(3, {2}).holds(K("2", someone_muddy(3)))


def test_muddy_formulas_in_project_syntax() -> None:
    model = muddy_children_story(3, {1, 2, 3}).model
    assert model.holds(parse("K_1 m1 & K_2 m2 & K_3 m3"))
    assert model.holds(parse("C_{1,2,3} (m1 | m2 | m3)"))


def test_muddy_bad_input() -> None:
    with pytest.raises(ModelError, match="not children"):
        muddy_children(3, {0})
    with pytest.raises(ModelError, match="not children"):
        muddy_children(3, {4})
    with pytest.raises(ModelError):
        muddy_children(0, set())
    with pytest.raises(ModelError, match="designated"):
        play_muddy_children(muddy_children(2, {1}).with_designated([]))
