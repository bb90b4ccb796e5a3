"""Actions without parameters, each written as one word (``call``, ``done``, ``pass``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from epigames.class_keywords import set_given


@dataclass(frozen=True, slots=True)
class WordAction:
    """Base of the actions that are only a name: ``str()`` is the word.

    A subclass gives the word as a class keyword and stays a type of its own, so rules
    dispatch on it: ``class Call(WordAction, word="call")``.
    """

    word: ClassVar[str] = ""

    def __init_subclass__(cls, *, word: str = "") -> None:
        set_given(cls, word=word)

    def __str__(self) -> str:
        return self.word
