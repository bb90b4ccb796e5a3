"""Sum and Product (Freudenthal): S knows x + y, P knows x·y, and they talk."""

from __future__ import annotations

import numpy as np

from epigames.errors import ModelError
from epigames.logic.formula import And, Formula, K, Not
from epigames.logic.model import KripkeModel
from epigames.logic.puzzles.common import Solution, Step, frozen_mask, knows_which
from epigames.logic.relations import Mask, Partition


def _pairs(limit: int) -> tuple[list[int], list[int]]:
    xs: list[int] = []
    ys: list[int] = []
    for x in range(2, limit // 2 + 1):
        for y in range(x + 1, limit - x + 1):
            xs.append(x)
            ys.append(y)
    return xs, ys


def sum_and_product_model(limit: int = 100) -> KripkeModel:
    """Sum and Product before anyone speaks: pairs 2 ≤ x < y with x + y ≤ limit.

    One world per pair, named `"x,y"` (2,352 worlds for limit 100). Agent `"S"` knows the
    sum, `"P"` the product (their partitions come straight from `Partition.from_ids`).
    Atoms `x<a>` and `y<b>` give the two numbers. No world is designated.
    """
    xs, ys = _pairs(limit)
    if not xs:
        raise ModelError(f"no pair 2 ≤ x < y with x + y ≤ {limit}")
    x = np.array(xs, dtype=np.int64)
    y = np.array(ys, dtype=np.int64)
    valuation: dict[str, Mask] = {}
    for a in np.unique(x).tolist():
        valuation[f"x{a}"] = frozen_mask(x == a)
    for b in np.unique(y).tolist():
        valuation[f"y{b}"] = frozen_mask(y == b)
    relations = {"S": Partition.from_ids(x + y), "P": Partition.from_ids(x * y)}
    worlds = tuple(f"{a},{b}" for a, b in zip(xs, ys, strict=True))
    return KripkeModel(("S", "P"), worlds, valuation, dict(relations), ())


def _knows_pair(agent: str, model: KripkeModel) -> Formula:
    """The agent knows both numbers: it knows which `x<a>` and which `y<b>` is true."""
    xs = [a for a in model.atoms if a.startswith("x")]
    ys = [b for b in model.atoms if b.startswith("y")]
    return And((knows_which(agent, xs), knows_which(agent, ys)))


def sum_and_product(limit: int = 100) -> Solution[tuple[int, int]]:
    """Solve Freudenthal's Sum and Product; for limit 100 the answer is `(4, 13)`.

    S knows x + y, P knows x · y, with 2 ≤ x < y and x + y ≤ limit. The statements:

    1. P: "I don't know the numbers" — `~knows(P)`.
    2. S: "I knew you didn't know" — `K_S ~knows(P)`. "Knew" means before statement 1,
       so this is announced in the *initial* model; since knowledge is truthful it implies
       statement 1, and the model after it is a submodel of the one after statement 1.
    3. P: "Now I know" — `knows(P)`.
    4. S: "Now I know too" — `knows(S)`.

    `knows(a)` is "a knows which x-atom and which y-atom is true".
    """
    model = sum_and_product_model(limit)
    p_knows = _knows_pair("P", model)
    s_knows = _knows_pair("S", model)
    first = model.announce(Not(p_knows))
    knew = K("S", Not(p_knows))
    second = model.announce(knew)
    third = second.announce(p_knows)
    fourth = third.announce(s_knows)
    steps = (
        Step("P", "I don't know the numbers", Not(p_knows), first),
        Step("S", "I knew you didn't know", knew, second),
        Step("P", "Now I know", p_knows, third),
        Step("S", "Now I know too", s_knows, fourth),
    )
    answers = []
    for name in fourth.worlds:
        a, b = name.split(",")
        answers.append((int(a), int(b)))
    return Solution(model, steps, tuple(answers))
