"""Cheryl's birthday: Albert knows the month, Bernard the day, and they talk."""

from __future__ import annotations

from collections.abc import Sequence

from epigames.logic.formula import And, K, Not
from epigames.logic.model import KripkeModel
from epigames.logic.puzzles.common import Solution, Step, knows_which

CHERYL_DATES: tuple[tuple[str, int], ...] = (
    ("May", 15), ("May", 16), ("May", 19),
    ("June", 17), ("June", 18),
    ("July", 14), ("July", 16),
    ("August", 14), ("August", 15), ("August", 17),
)  # fmt: skip
"""The ten dates Cheryl gives Albert and Bernard."""


def _date_atom(month: str, day: int) -> str:
    return f"{month.lower()}{day}"


def cheryl_model(dates: Sequence[tuple[str, int]] = CHERYL_DATES) -> KripkeModel:
    """Cheryl's birthday before anyone speaks: Albert knows the month, Bernard the day.

    One world per date, named like `"July 16"`; agents `"albert"` and `"bernard"`; one
    atom per date (`july16`), true only at that date. No world is designated: the answer
    is what survives, not an assumption.
    """
    names = [f"{m} {d}" for m, d in dates]
    return KripkeModel.build(
        names,
        {name: [_date_atom(m, d)] for name, (m, d) in zip(names, dates, strict=True)},
        partitions={
            "albert": _blocks(names, [m for m, _ in dates]),
            "bernard": _blocks(names, [d for _, d in dates]),
        },
    )


def _blocks(names: Sequence[str], keys: Sequence[object]) -> list[list[str]]:
    groups: dict[object, list[str]] = {}
    for name, key in zip(names, keys, strict=True):
        groups.setdefault(key, []).append(name)
    return list(groups.values())


def cheryl_birthday(dates: Sequence[tuple[str, int]] = CHERYL_DATES) -> Solution[str]:
    """Solve Cheryl's birthday; the answer is `"July 16"`.

    The statements, announced one after the other:

    1. Albert: "I don't know when your birthday is, but I know Bernard doesn't know
       either" — `~knows(albert) & K_albert ~knows(bernard)`.
    2. Bernard: "At first I didn't know, but now I do" — `knows(bernard)` (that he did not
       know at first already follows from statement 1).
    3. Albert: "Then I also know" — `knows(albert)`.

    Here `knows(x)` is `K_x may15 | K_x may16 | …`: x knows which date it is.
    """
    model = cheryl_model(dates)
    atoms = [_date_atom(m, d) for m, d in dates]
    albert = knows_which("albert", atoms)
    bernard = knows_which("bernard", atoms)
    statements = [
        (
            "albert",
            "I don't know when your birthday is, but I know Bernard doesn't know either",
            And((Not(albert), K("albert", Not(bernard)))),
        ),
        ("bernard", "At first I didn't know, but now I do", bernard),
        ("albert", "Then I also know", albert),
    ]
    steps: list[Step] = []
    current = model
    for speaker, says, formula in statements:
        current = current.announce(formula)
        steps.append(Step(speaker, says, formula, current))
    return Solution(model, tuple(steps), current.worlds)
