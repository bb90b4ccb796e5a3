"""Cheryl's birthday, checked against a plain-Python oracle."""

from __future__ import annotations

import pytest

from epigames.errors import ModelError
from epigames.logic import Announce, Atom, K
from epigames.logic.puzzles import CHERYL_DATES, cheryl_birthday, cheryl_model


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
