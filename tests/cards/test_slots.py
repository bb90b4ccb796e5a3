"""`slot_maker`: values made through the slots' setters equal those `__init__` makes."""

from __future__ import annotations

from dataclasses import dataclass, fields

import pytest

from epigames.cards import Card, Trick
from epigames.cards.slots import slot_maker
from epigames.cards.tricks import Play


@dataclass(frozen=True, slots=True)
class _Point:
    x: int
    y: int = 0


@dataclass(frozen=True)
class _Loose:
    x: int


def test_made_values_equal_the_dataclasses() -> None:
    make = slot_maker(_Point)
    assert make(1, 2) == _Point(1, 2) and type(make(1, 2)) is _Point
    with pytest.raises(TypeError):
        make(1)  # every field is given, defaults included
    trick = slot_maker(Trick)(2, (Play(2, Card.parse("J♥")),))
    assert trick == Trick(2, (Play(2, Card.parse("J♥")),))
    assert [f.name for f in fields(Trick)] == ["leader", "plays"]


def test_a_dataclass_without_slots_is_refused() -> None:
    with pytest.raises(TypeError, match="slots=True"):
        slot_maker(_Loose)
