"""Three (or n) logicians walk into a bar, played on a knowledge structure.

The bartender asks "does everyone want a beer?". Each logician knows only whether it
wants one itself; in turn each answers "yes", "no" or "I don't know", and each answer is
a public announcement. A logician who does not want one says "no" at once; one who does
says "I don't know", unless everyone before has said so and it is the last, which then
says "yes".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from epigames.logic.formula import Atom, Formula, K, Kw, Not, conj
from epigames.logic.puzzles.common import atom_per_agent, chosen_agents
from epigames.logic.symbolic import KnowledgeStructure


def everyone_wants(n: int) -> Formula:
    """Every logician wants a beer: `b1 & … & bn`."""
    return conj(*(Atom(f"b{i}") for i in range(1, n + 1)))


def drinking_logicians_structure(
    n: int, thirsty: Iterable[int], *, backend: str | None = None
) -> KnowledgeStructure:
    """Atoms `b1` … `bn` (logician i wants a beer), agents `"1"` … `"n"`; i observes `b<i>`.

    The designated state is the given set of thirsty logicians.
    """
    chosen = chosen_agents(
        n,
        thirsty,
        too_few="the drinking logicians need at least one logician",
        chosen_name="thirsty logicians",
        agents="logicians",
    )
    return atom_per_agent("b", n, chosen, sees_own=True, backend=backend)


@dataclass(frozen=True)
class DrinkingStory:
    """The answers in turn (`"I don't know"`, then `"yes"` or `"no"`) and the states left.

    Attributes:
        n: number of logicians.
        thirsty: the logicians that want a beer.
        answers: one per logician who spoke, in turn: (logician, answer, states left).
        structure: the structure after the last answer.
    """

    n: int
    thirsty: frozenset[int]
    answers: tuple[tuple[int, str, int], ...]
    structure: KnowledgeStructure


def drinking_logicians(
    n: int, thirsty: Iterable[int], *, backend: str | None = None
) -> DrinkingStory:
    """Play the story: each logician in turn says what it knows, publicly."""
    chosen = frozenset(thirsty)
    structure = drinking_logicians_structure(n, chosen, backend=backend)
    question = everyone_wants(n)
    answers: list[tuple[int, str, int]] = []
    for i in range(1, n + 1):
        agent = str(i)
        said: Formula
        if structure.holds(K(agent, question)):
            said, answer = K(agent, question), "yes"
        elif structure.holds(K(agent, Not(question))):
            said, answer = K(agent, Not(question)), "no"
        else:
            said, answer = Not(Kw(agent, question)), "I don't know"
        structure = structure.announce(said)
        answers.append((i, answer, structure.count_states()))
        if answer != "I don't know":
            break
    return DrinkingStory(n, chosen, tuple(answers), structure)
