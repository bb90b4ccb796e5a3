"""The classic puzzles solved with the explicit engine, checked against plain-Python oracles."""

from __future__ import annotations

from collections import Counter
from itertools import chain, combinations
from math import comb

import pytest

from epigames.errors import ModelError
from epigames.logic import And, Announce, Atom, C, E, Formula, K, Kw, Not, Partition, parse
from epigames.logic.puzzles import (
    CHERYL_DATES,
    anne_says,
    cheryl_birthday,
    cheryl_model,
    muddy_children,
    muddy_children_story,
    nobody_knows,
    play_muddy_children,
    russian_cards,
    russian_cards_model,
    russian_informative,
    russian_safe,
    someone_muddy,
    sum_and_product,
    sum_and_product_model,
)


def subsets(n: int) -> list[frozenset[int]]:
    children = range(1, n + 1)
    return [
        frozenset(s) for s in chain.from_iterable(combinations(children, k) for k in range(n + 1))
    ]


def everybody(n: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(1, n + 1))


# --- muddy children ------------------------------------------------------------------------


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


# --- Cheryl's birthday -----------------------------------------------------------------------


def test_cheryl_answer() -> None:
    solution = cheryl_birthday()
    assert solution.answer == "July 16"
    assert solution.answers == ("July 16",)
    assert [s.speaker for s in solution.steps] == ["albert", "bernard", "albert"]
    assert [s.model.worlds for s in solution.steps] == [
        ("July 14", "July 16", "August 14", "August 15", "August 17"),
        ("July 16", "August 15", "August 17"),
        ("July 16",),
    ]
    assert solution.final.worlds == ("July 16",)


def test_cheryl_model_partitions() -> None:
    m = cheryl_model()
    assert m.size == len(CHERYL_DATES) == 10
    # Bernard knows the date only for the unique days 18 and 19.
    knows = Atom("june18") | Atom("may19")
    assert m.where(K("bernard", Atom("may19"))) == ["May 19"]
    assert m.where(K("bernard", Atom("june18"))) == ["June 18"]
    assert not m.truth_set(K("albert", knows)).any()


def test_cheryl_one_formula() -> None:
    """The three statements as one nested announcement formula on the initial model."""
    solution = cheryl_birthday()
    s1, s2, s3 = (s.formula for s in solution.steps)
    nested = Announce(s1, Announce(s2, s3, diamond=True), diamond=True)
    assert solution.initial.where(nested) == ["July 16"]


def test_cheryl_statements_true_at_the_answer() -> None:
    solution = cheryl_birthday()
    model = solution.initial.with_designated(["July 16"])
    s1, s2, s3 = (s.formula for s in solution.steps)
    assert not model.holds(s2)  # "At first I didn't know"
    for f in (s1, s2, s3):
        model = model.announce(f)  # raises if false at July 16
    assert model.holds(K("albert", Atom("july16")) & K("bernard", Atom("july16")))


def test_cheryl_no_unique_answer() -> None:
    solution = cheryl_birthday([("May", 15), ("May", 16), ("June", 15), ("June", 16)])
    with pytest.raises(ModelError, match="answers"):
        _ = solution.answer


# --- Sum and Product ---------------------------------------------------------------------------


def oracle_sum_and_product(limit: int) -> list[list[tuple[int, int]]]:
    """The classic elimination in plain Python, for comparison."""
    pairs = [(x, y) for x in range(2, limit) for y in range(x + 1, limit) if x + y <= limit]
    products = Counter(x * y for x, y in pairs)
    p_unsure = [p for p in pairs if products[p[0] * p[1]] > 1]
    good_sums = {
        s for s in {x + y for x, y in pairs}
        if all(products[x * y] > 1 for x, y in pairs if x + y == s)
    }  # fmt: skip
    second = [p for p in pairs if sum(p) in good_sums]
    products2 = Counter(x * y for x, y in second)
    third = [p for p in second if products2[p[0] * p[1]] == 1]
    sums3 = Counter(x + y for x, y in third)
    fourth = [p for p in third if sums3[sum(p)] == 1]
    return [p_unsure, second, third, fourth]


def test_sum_and_product_answer() -> None:
    solution = sum_and_product()
    assert solution.initial.size == 2352
    assert solution.answer == (4, 13)
    second = solution.steps[1].model
    sums = {sum(map(int, w.split(","))) for w in second.worlds}
    assert sums == {11, 17, 23, 27, 29, 35, 37, 41, 47, 53}
    assert set(second.worlds) <= set(solution.steps[0].model.worlds)


@pytest.mark.parametrize("limit", [30, 62, 100])
def test_sum_and_product_matches_oracle(limit: int) -> None:
    solution = sum_and_product(limit)
    expected = oracle_sum_and_product(limit)
    for step, pairs in zip(solution.steps, expected, strict=True):
        assert set(step.model.worlds) == {f"{x},{y}" for x, y in pairs}
    assert set(solution.answers) == set(expected[-1])


def test_sum_and_product_model() -> None:
    m = sum_and_product_model(10)
    # Pairs 2 ≤ x < y, x + y ≤ 10.
    expected = [(x, y) for x in range(2, 10) for y in range(x + 1, 10) if x + y <= 10]
    assert len(expected) == 12
    assert m.worlds == tuple(f"{x},{y}" for x, y in expected)
    assert m.where(K("P", Atom("x2") & Atom("y3"))) == ["2,3"]
    assert m.where(K("S", Atom("x2") & Atom("y3"))) == ["2,3"]  # the only sum 5
    with pytest.raises(ModelError):
        sum_and_product_model(4)


def test_sum_and_product_statements_true_at_the_answer() -> None:
    solution = sum_and_product()
    solution.initial.with_designated(["4,13"]).announce(solution.steps[0].formula)
    # "I knew you didn't know" is about the initial model (see sum_and_product).
    model = solution.initial.with_designated(["4,13"]).announce(solution.steps[1].formula)
    for step in solution.steps[2:]:
        model = model.announce(step.formula)
    assert model.holds(K("S", Atom("x4") & Atom("y13")) & K("P", Atom("x4") & Atom("y13")))


# --- Russian cards -------------------------------------------------------------------------------


def deal_of(world: str) -> tuple[str, str, str]:
    anne, bob, cath = world.split("|")
    return anne, bob, cath


def oracle_safe(worlds: tuple[str, ...]) -> bool:
    """Cath, for every deal left and every card not hers, considers both holders possible."""
    by_cath: dict[str, list[str]] = {}
    for w in worlds:
        by_cath.setdefault(deal_of(w)[2], []).append(deal_of(w)[0])
    for cath, annes in by_cath.items():
        for card in "0123456":
            if card in cath:
                continue
            holds = {card in anne for anne in annes}
            if holds != {True, False}:
                return False
    return True


def oracle_informative(worlds: tuple[str, ...]) -> bool:
    by_bob: dict[str, set[str]] = {}
    for w in worlds:
        by_bob.setdefault(deal_of(w)[1], set()).add(deal_of(w)[0])
    return all(len(annes) == 1 for annes in by_bob.values())


def test_russian_model() -> None:
    m = russian_cards_model()
    assert m.size == 140
    assert m.worlds[m.designated[0]] == "012|345|6"
    for agent, blocks in (("anne", 35), ("bob", 35), ("cath", 7)):
        # Each agent knows exactly its own hand.
        assert m.holds(Kw(agent, Atom(f"{agent[0]}0")))
        assert m.valid(And(tuple(Kw(agent, Atom(f"{agent[0]}{c}")) for c in range(7))))
        relation = m.relations[agent]
        assert isinstance(relation, Partition)
        assert relation.blocks == blocks
    assert not m.holds(Kw("cath", Atom("a0")))


def test_russian_classic_announcement_is_safe_and_informative() -> None:
    result = russian_cards()
    assert result.after.size == 28
    assert result.informative
    assert result.safe
    assert result.common_knowledge
    assert result.good
    assert oracle_safe(result.after.worlds)
    assert oracle_informative(result.after.worlds)
    agents = ("anne", "bob", "cath")
    assert result.after.holds(C(agents, russian_informative()))
    assert result.after.holds(C(agents, russian_safe()))


@pytest.mark.parametrize("deal", [("012", "345", "6"), ("135", "026", "4"), ("245", "013", "6")])
def test_russian_classic_announcement_for_other_deals(deal: tuple[str, str, str]) -> None:
    result = russian_cards(deal=deal)
    assert result.good
    reply = result.bob_reply()
    # After Bob says which card Cath holds, Anne knows Bob's hand and Cath still learns nothing.
    assert reply.valid(And(tuple(Kw("anne", Atom(f"b{c}")) for c in range(7))))
    assert reply.valid(russian_safe())
    assert oracle_safe(reply.worlds)


def test_russian_bad_announcement() -> None:
    result = russian_cards(["012", "013"])
    assert not result.safe
    assert not result.good
    assert not oracle_safe(result.after.worlds)
    # At the actual deal Cath (holding 6) learns that Anne holds 0 and 1.
    assert result.after.holds(K("cath", Atom("a0") & Atom("a1")))
    assert not result.after.holds(russian_safe())


def test_russian_informative_but_unsafe_announcement() -> None:
    # "012 or 456": Bob's three cards always meet 456 when Anne holds 012 and vice versa,
    # so he learns her hand; but Cath holding 6 rules out 456 and learns it too.
    result = russian_cards(["012", "456"])
    assert result.informative
    assert not result.safe
    assert oracle_informative(result.after.worlds)
    assert not oracle_safe(result.after.worlds)
    assert result.after.holds(K("cath", And((Atom("a0"), Atom("a1"), Atom("a2")))))


def test_russian_false_announcement() -> None:
    with pytest.raises(ModelError):
        russian_cards(["034", "056"])
    with pytest.raises(ModelError, match="not a deal"):
        russian_cards_model(("012", "345", "3"))
    with pytest.raises(ModelError, match="repeats"):
        russian_cards(["001"])


def test_anne_says_formula() -> None:
    assert anne_says(["012"]) == K("anne", And((Atom("a0"), Atom("a1"), Atom("a2"))))
