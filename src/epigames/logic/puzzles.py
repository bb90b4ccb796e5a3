"""Classic epistemic puzzles, modelled and solved with the explicit Kripke engine.

Every puzzle is built with the public API of `epigames.logic` (`KripkeModel`, `Partition`,
formulas, `announce`) and returns the models it goes through, so the answer can be
inspected, re-checked with other formulas, or drawn.

Puzzles:
    * Muddy children: `muddy_children`, `play_muddy_children`, `muddy_children_story`.
    * Cheryl's birthday: `cheryl_birthday`.
    * Sum and Product (Freudenthal): `sum_and_product`.
    * Russian cards (3-3-1): `russian_cards`.

Example::

    from epigames.logic.puzzles import muddy_children_story
    story = muddy_children_story(3, {1, 2})
    [sorted(r.knowers) for r in story.rounds]   # [[], [1, 2]]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Generic, TypeVar

import numpy as np

from epigames.errors import ModelError
from epigames.logic.formula import (
    And,
    Atom,
    C,
    Formula,
    K,
    Kw,
    Not,
    Or,
    conj,
    disj,
)
from epigames.logic.model import KripkeModel
from epigames.logic.relations import Mask, Partition

T = TypeVar("T")

__all__ = [
    "CHERYL_DATES",
    "RUSSIAN_AGENTS",
    "MuddyRound",
    "MuddyStory",
    "RussianCards",
    "Solution",
    "Step",
    "anne_says",
    "cheryl_birthday",
    "cheryl_model",
    "muddy_children",
    "muddy_children_story",
    "nobody_knows",
    "play_muddy_children",
    "russian_cards",
    "russian_cards_model",
    "russian_informative",
    "russian_safe",
    "someone_muddy",
    "sum_and_product",
    "sum_and_product_model",
]


def _frozen(mask: Mask) -> Mask:
    mask.flags.writeable = False
    return mask


@dataclass(frozen=True)
class Step:
    """One public statement of a puzzle and the model after it.

    Attributes:
        speaker: who speaks (an agent of the model).
        says: the statement in plain English.
        formula: what is publicly announced.
        model: the model after the announcement.
    """

    speaker: str
    says: str
    formula: Formula
    model: KripkeModel


@dataclass(frozen=True)
class Solution(Generic[T]):
    """A solved puzzle: the initial model, the statements in order and the answers left.

    Attributes:
        initial: the model before anybody speaks.
        steps: the statements, each with the model after it.
        answers: the worlds that survive every statement, as puzzle values.
    """

    initial: KripkeModel
    steps: tuple[Step, ...]
    answers: tuple[T, ...]

    @property
    def final(self) -> KripkeModel:
        """The model after the last statement."""
        return self.steps[-1].model if self.steps else self.initial

    @property
    def answer(self) -> T:
        """The unique answer; raises ModelError when zero or several worlds survive."""
        if len(self.answers) != 1:
            raise ModelError(f"the puzzle has {len(self.answers)} answers, not exactly one")
        return self.answers[0]


def _knows_which(agent: str, atoms: Iterable[str]) -> Formula:
    """The agent knows which of these (mutually exclusive) atoms is true."""
    return disj(*(K(agent, Atom(a)) for a in atoms))


# --- muddy children ---------------------------------------------------------------------


def _check_children(n: int, muddy: Iterable[int]) -> frozenset[int]:
    if n < 1:
        raise ModelError(f"muddy children needs at least one child, got n={n}")
    chosen = frozenset(muddy)
    bad = sorted(c for c in chosen if not 1 <= c <= n)
    if bad:
        raise ModelError(f"muddy children {bad} are not children 1..{n}")
    return chosen


def muddy_children(n: int, muddy: Iterable[int]) -> KripkeModel:
    """The muddy children model for `n` children, before the father speaks.

    The agents are the children `"1"` … `"n"` (so formulas read `K_1 m1`); atom `m<i>` says
    child i is muddy. There is one world per set of muddy children (2^n worlds); a world's
    name is a string of 0/1 whose i-th character is child i's state (`"110"`: children 1
    and 2 muddy). Child i sees every forehead but its own, so it cannot tell apart two
    worlds that differ only in `m<i>`. The designated world is the given muddy set.

    Args:
        n: the number of children (2^n worlds: keep n ≤ 20 or so).
        muddy: the muddy children, numbered 1..n (may be empty).
    """
    chosen = _check_children(n, muddy)
    ids = np.arange(1 << n, dtype=np.int64)
    agents = tuple(str(i) for i in range(1, n + 1))
    worlds = tuple(format(w, f"0{n}b")[::-1] for w in range(1 << n))
    valuation = {f"m{i}": _frozen(((ids >> (i - 1)) & 1).astype(bool)) for i in range(1, n + 1)}
    relations = {str(i): Partition.from_ids(ids & ~(1 << (i - 1))) for i in range(1, n + 1)}
    actual = sum(1 << (i - 1) for i in chosen)
    return KripkeModel(agents, worlds, valuation, dict(relations), (actual,))


def someone_muddy(n: int) -> Formula:
    """The father's announcement: at least one child is muddy, `m1 | … | mn`."""
    return disj(*(Atom(f"m{i}") for i in range(1, n + 1)))


def nobody_knows(n: int) -> Formula:
    """No child knows whether it is muddy: `~Kw_1 m1 & … & ~Kw_n mn`."""
    return conj(*(Not(Kw(str(i), Atom(f"m{i}"))) for i in range(1, n + 1)))


def _knowers(model: KripkeModel, n: int) -> frozenset[int]:
    return frozenset(i for i in range(1, n + 1) if model.holds(Kw(str(i), Atom(f"m{i}"))))


@dataclass(frozen=True)
class MuddyRound:
    """One announcement of the muddy children story.

    Attributes:
        announcement: the formula announced (the father's, then "nobody knows").
        worlds: the number of worlds left after it.
        knowers: the children who then know whether they are muddy (at the actual world).
    """

    announcement: Formula
    worlds: int
    knowers: frozenset[int]


@dataclass(frozen=True)
class MuddyStory:
    """The muddy children story played out: every announcement and the last model.

    Attributes:
        n: number of children.
        muddy: the muddy children.
        rounds: the father's announcement first, then each "nobody knows", until someone
            knows. With m ≥ 1 muddy children there are m rounds and the last one's knowers
            are exactly the muddy children.
        model: the model after the last announcement.
    """

    n: int
    muddy: frozenset[int]
    rounds: tuple[MuddyRound, ...]
    model: KripkeModel


def play_muddy_children(model: KripkeModel) -> MuddyStory:
    """Play the story on a model from `muddy_children`.

    The father announces `someone_muddy(n)`; then, while no child knows whether it is
    muddy, `nobody_knows(n)` is announced. Raises ModelError when nobody is muddy (the
    father's announcement is then false).
    """
    n = len(model.agents)
    if len(model.designated) != 1:
        raise ModelError("play_muddy_children needs a model with one designated world")
    actual = model.designated[0]
    muddy = frozenset(i for i in range(1, n + 1) if model.valuation[f"m{i}"][actual])
    rounds: list[MuddyRound] = []
    announcement = someone_muddy(n)
    while True:
        model = model.announce(announcement)
        knowers = _knowers(model, n)
        rounds.append(MuddyRound(announcement, model.size, knowers))
        if knowers:
            break
        announcement = nobody_knows(n)
    return MuddyStory(n, muddy, tuple(rounds), model)


def muddy_children_story(n: int, muddy: Iterable[int]) -> MuddyStory:
    """Build the model for `n` children with the given muddy ones and play the story."""
    return play_muddy_children(muddy_children(n, muddy))


# --- Cheryl's birthday ------------------------------------------------------------------

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
    albert = _knows_which("albert", atoms)
    bernard = _knows_which("bernard", atoms)
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


# --- Sum and Product ----------------------------------------------------------------------


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
        valuation[f"x{a}"] = _frozen(x == a)
    for b in np.unique(y).tolist():
        valuation[f"y{b}"] = _frozen(y == b)
    relations = {"S": Partition.from_ids(x + y), "P": Partition.from_ids(x * y)}
    worlds = tuple(f"{a},{b}" for a, b in zip(xs, ys, strict=True))
    return KripkeModel(("S", "P"), worlds, valuation, dict(relations), ())


def _knows_pair(agent: str, model: KripkeModel) -> Formula:
    """The agent knows both numbers: it knows which `x<a>` and which `y<b>` is true."""
    xs = [a for a in model.atoms if a.startswith("x")]
    ys = [b for b in model.atoms if b.startswith("y")]
    return And((_knows_which(agent, xs), _knows_which(agent, ys)))


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


# --- Russian cards --------------------------------------------------------------------------

RUSSIAN_AGENTS = ("anne", "bob", "cath")


def _hand(cards: str | Iterable[int]) -> tuple[int, ...]:
    """A hand from `"012"` or `(0, 1, 2)`, sorted."""
    values = [int(c) for c in cards]
    if len(set(values)) != len(values):
        raise ModelError(f"the hand {cards!r} repeats a card")
    return tuple(sorted(values))


def _hand_name(hand: Sequence[int]) -> str:
    return "".join(str(c) for c in hand)


def russian_cards_model(
    deal: tuple[str | Iterable[int], str | Iterable[int], str | Iterable[int]] = (
        "012",
        "345",
        "6",
    ),
) -> KripkeModel:
    """The Russian cards model: cards 0..6, Anne and Bob hold 3 each, Cath holds 1.

    One world per deal (140), named `"012|345|6"` (Anne's, Bob's, Cath's hand). Agents
    `"anne"`, `"bob"`, `"cath"` each see their own hand. Atoms `a<c>`, `b<c>`, `c<c>` say
    that Anne, Bob or Cath holds card c. The designated world is `deal`.
    """
    actual = tuple(_hand(h) for h in deal)
    cards = tuple(range(7))
    deals: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
    for anne in combinations(cards, 3):
        rest = [c for c in cards if c not in anne]
        for bob in combinations(rest, 3):
            cath = tuple(c for c in rest if c not in bob)
            deals.append((anne, bob, cath))
    if actual not in deals:
        raise ModelError(
            f"the deal {'|'.join(_hand_name(h) for h in actual)!r} is not a deal of cards "
            "0..6 with 3 for Anne, 3 for Bob and 1 for Cath"
        )
    n = len(deals)
    valuation: dict[str, Mask] = {}
    codes = np.zeros((3, n), dtype=np.int64)
    for p, prefix in enumerate("abc"):
        for c in cards:
            mask = np.array([c in d[p] for d in deals], dtype=bool)
            valuation[f"{prefix}{c}"] = _frozen(mask)
            codes[p] |= mask.astype(np.int64) << c
    relations = {agent: Partition.from_ids(codes[p]) for p, agent in enumerate(RUSSIAN_AGENTS)}
    worlds = tuple("|".join(_hand_name(h) for h in d) for d in deals)
    return KripkeModel(RUSSIAN_AGENTS, worlds, valuation, dict(relations), (deals.index(actual),))


def russian_informative() -> Formula:
    """Bob knows Anne's hand: `Kw_bob a0 & … & Kw_bob a6`."""
    return conj(*(Kw("bob", Atom(f"a{c}")) for c in range(7)))


def russian_safe() -> Formula:
    """Cath learns no card she does not hold: `(c0 | ~Kw_cath a0) & … & (c6 | ~Kw_cath a6)`.

    For a card Cath does not hold, Anne holds it exactly when Bob does not, so Cath not
    knowing whether Anne holds it also means she does not know whether Bob holds it.
    """
    return conj(*(Or((Atom(f"c{c}"), Not(Kw("cath", Atom(f"a{c}"))))) for c in range(7)))


@dataclass(frozen=True)
class RussianCards:
    """An announcement by Anne in the Russian cards problem, checked with the engine.

    Attributes:
        hands: the hands Anne says hers is one of.
        initial: the model before the announcement.
        after: the model after Anne's announcement `K_anne (hand1 | hand2 | …)`.
        informative: Bob knows Anne's hand in every world that remains.
        safe: Cath learns no card she does not hold, in every world that remains.
        common_knowledge: `C_{anne,bob,cath} (informative & safe)` at the actual deal.
    """

    hands: tuple[tuple[int, ...], ...]
    initial: KripkeModel
    after: KripkeModel
    informative: bool
    safe: bool
    common_knowledge: bool

    @property
    def good(self) -> bool:
        """Safe and informative in every remaining world (so commonly known)."""
        return self.informative and self.safe and self.common_knowledge

    def bob_reply(self) -> KripkeModel:
        """Bob announces Cath's card (`K_bob c<k>` for her actual card k).

        Raises ModelError when Bob does not know it at the actual deal.
        """
        actual = self.after.designated[0]
        card = next(c for c in range(7) if self.after.valuation[f"c{c}"][actual])
        return self.after.announce(K("bob", Atom(f"c{card}")))


def anne_says(hands: Iterable[str | Iterable[int]]) -> Formula:
    """Anne's announcement "my hand is one of these": `K_anne ((a0 & a1 & a2) | …)`."""
    options = [And(tuple(Atom(f"a{c}") for c in _hand(h))) for h in hands]
    return K("anne", disj(*options))


def russian_cards(
    hands: Iterable[str | Iterable[int]] = ("012", "034", "056", "135", "146", "236", "245"),
    deal: tuple[str | Iterable[int], str | Iterable[int], str | Iterable[int]] = (
        "012",
        "345",
        "6",
    ),
) -> RussianCards:
    """Check an announcement of Anne's in the Russian cards problem (3-3-1).

    Anne says her hand is one of `hands` (the default is the classic safe and informative
    seven-hand answer); the announcement must be true at the actual `deal`. The result
    says whether, afterwards, Bob knows Anne's hand everywhere (informative), Cath learns
    no card she does not hold anywhere (safe), and both are common knowledge.
    """
    chosen = tuple(_hand(h) for h in hands)
    model = russian_cards_model(deal)
    after = model.announce(anne_says(chosen))
    both = And((russian_informative(), russian_safe()))
    return RussianCards(
        hands=chosen,
        initial=model,
        after=after,
        informative=after.valid(russian_informative()),
        safe=after.valid(russian_safe()),
        common_knowledge=after.holds(C(RUSSIAN_AGENTS, both)),
    )
