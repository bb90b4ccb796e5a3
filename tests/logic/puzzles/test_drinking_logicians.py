"""Drinking logicians on a knowledge structure: the answers in turn, at any size."""

from __future__ import annotations

from pathlib import Path

import pytest

from epigames.errors import ModelError
from epigames.logic.puzzles import drinking_logicians
from epigames.logic.smcdel import parse_smcdel, run_jobs

pytest.importorskip("dd")

EXAMPLE = Path(__file__).parents[3] / "examples" / "drinking-logicians.smcdel.txt"


def answers(n: int, thirsty: set[int] | range) -> list[str]:
    return [a for _, a, _ in drinking_logicians(n, thirsty).answers]


@pytest.mark.parametrize(
    ("n", "thirsty", "expected"),
    [
        (3, {1, 2, 3}, ["I don't know", "I don't know", "yes"]),
        (3, {1, 3}, ["I don't know", "no"]),
        (3, {2, 3}, ["no"]),
        (3, set(), ["no"]),
        (1, {1}, ["yes"]),
        (1, set(), ["no"]),
        (6, {1, 2, 3, 4, 6}, ["I don't know"] * 4 + ["no"]),
    ],
)
def test_answers_in_turn(n: int, thirsty: set[int], expected: list[str]) -> None:
    assert answers(n, thirsty) == expected


def test_states_halve_with_each_i_dont_know() -> None:
    story = drinking_logicians(5, range(1, 6))
    assert [s for _, _, s in story.answers] == [16, 8, 4, 2, 1]
    assert story.structure.count_states() == 1


def test_agrees_with_the_smcdel_example() -> None:
    # The file: after two "I don't know"s, the first two want a beer; the third says yes
    # exactly where it wants one too.
    where = run_jobs(parse_smcdel(EXAMPLE.read_text()), "symbolic")
    assert where[2].answer == [{1, 2, 3}]
    assert answers(3, {1, 2, 3})[-1] == "yes"
    assert answers(3, {1, 2})[-1] == "no"


def test_a_hundred_logicians() -> None:
    got = answers(100, range(1, 101))
    assert got == ["I don't know"] * 99 + ["yes"]


def test_errors() -> None:
    with pytest.raises(ModelError, match=r"thirsty logicians \[4\] are not logicians 1..3"):
        drinking_logicians(3, {4})
    with pytest.raises(ModelError, match="at least one logician"):
        drinking_logicians(0, set())
