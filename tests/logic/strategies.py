"""Shared hypothesis strategies for the logic tests: names, formulas and models.

Models are drawn as plain specifications (`ModelSpec`: worlds 0..n-1, a valuation, edge
sets per agent) so that the tests can evaluate them with their own naive reference code and
build the engine's `KripkeModel` from the very same data.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from random import Random

from hypothesis import strategies as st

from epigames.logic import (
    And,
    Announce,
    Atom,
    Bot,
    C,
    Cw,
    D,
    Dw,
    E,
    Ew,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    K,
    KripkeModel,
    Kw,
    M,
    Not,
    OneOf,
    Or,
    Top,
    Xor,
)

# --- names ---------------------------------------------------------------------------

TRICKY_NAMES = [
    "p",
    "q",
    "x1",
    "_",
    "8",
    "42",
    "8♥",
    "holds(West, 8♥)",
    "holds(West,8♥)",
    "West player",
    "and",
    "or",
    "not",
    "iff",
    "xor",
    "oneof",
    "top",
    "true",
    "bot",
    "false",
    "forall",
    "exists",
    "K_x",
    "Kw_a",
    "C_",
    "E_{a}",
    "K",
    "Kw",
    "KK_x",
    "é",
    "Zuid",
    "²",
    "a-b",
    'say "hi"',
    "back\\slash",
    "\\",
    '"',
    "[!p]",
    "<->",
    "⊤",
    "¬p",
    " ",
    "a,b",
    "{x}",
]

# Text without line breaks: the printer quotes any name, but see
# test_syntax.test_atom_with_line_break_round_trips for names containing "\n".
_plain_text = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="\n"),
    min_size=1,
    max_size=6,
)

names = st.one_of(st.sampled_from(TRICKY_NAMES), _plain_text)
"""Atom or agent names, including ones that must be quoted or braced."""

name_groups = st.lists(names, min_size=1, max_size=3).map(tuple)


# --- formulas ------------------------------------------------------------------------

AGENT_OPS = (K, Kw, M)
GROUP_OPS = (E, C, D, Ew, Cw, Dw)
NARY = (And, Or, Xor, OneOf)


def formulas(
    atoms: st.SearchStrategy[str] = names,
    agents: st.SearchStrategy[str] = names,
    *,
    depth: int = 4,
    announcements: bool = True,
    quantifiers: bool = True,
    group_ops: tuple[type, ...] = GROUP_OPS,
) -> st.SearchStrategy[Formula]:
    """Random formulas over every node type, at most `depth` deep.

    Each level picks a leaf or any node type with equal chance, so formulas are reasonably
    deep and varied (`st.recursive` mostly produced tiny ones).
    """
    groups = st.lists(agents, min_size=1, max_size=3).map(tuple)
    # One branch for all leaves (a nested one_of would be flattened into several).
    leaves = st.tuples(st.integers(0, 3), atoms).map(
        lambda t: Top() if t[0] == 0 else Bot() if t[0] == 1 else Atom(t[1])
    )
    strategy: st.SearchStrategy[Formula] = leaves
    for _ in range(depth):
        sub = strategy
        options: list[st.SearchStrategy[Formula]] = [
            sub.map(Not),
            st.builds(Implies, sub, sub),
            st.builds(Iff, sub, sub),
            st.tuples(st.sampled_from(NARY), st.lists(sub, max_size=3)).map(
                lambda t: t[0](tuple(t[1]))
            ),
            st.tuples(st.sampled_from(AGENT_OPS), agents, sub).map(lambda t: t[0](t[1], t[2])),
        ]
        if group_ops:
            options.append(
                st.tuples(st.sampled_from(group_ops), groups, sub).map(lambda t: t[0](t[1], t[2]))
            )
        if announcements:
            options.append(
                st.builds(Announce, sub, sub, st.none() | groups, st.booleans(), st.booleans())
            )
        if quantifiers:
            options.append(
                st.tuples(
                    st.sampled_from((Forall, Exists)),
                    st.lists(atoms, min_size=1, max_size=2).map(tuple),
                    sub,
                ).map(lambda t: t[0](t[1], t[2]))
            )
        # Hypothesis favours the first branches; leaves come last so that formulas grow.
        strategy = st.one_of([*options, leaves])
    return strategy


# --- models --------------------------------------------------------------------------

MODEL_ATOMS = ("p", "q", "r")
ALL_AGENTS = ("a", "b", "c")


@dataclass(frozen=True)
class ModelSpec:
    """A model as plain data: worlds 0..n-1, atom -> worlds, agent -> set of edges."""

    n: int
    val: dict[str, frozenset[int]]
    rel: dict[str, frozenset[tuple[int, int]]]
    blocks: dict[str, list[list[int]]] | None  # the S5 partitions, None for K models
    designated: tuple[int, ...] = ()

    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(self.rel)

    def build(self) -> KripkeModel:
        """The engine's model of the same data (world names are "0", "1", …)."""
        worlds = [str(i) for i in range(self.n)]
        valuation = {str(w): [a for a, ws in self.val.items() if w in ws] for w in range(self.n)}
        des = [str(d) for d in self.designated]
        if self.blocks is not None:
            parts = {a: [[str(w) for w in b] for b in bl] for a, bl in self.blocks.items()}
            return KripkeModel.build(worlds, valuation, partitions=parts, designated=des)
        rels = {a: [(str(u), str(v)) for u, v in sorted(es)] for a, es in self.rel.items()}
        return KripkeModel.build(worlds, valuation, relations=rels, designated=des)


def random_s5_spec(rnd: Random, max_worlds: int = 12, designated: bool = False) -> ModelSpec:
    """A random S5 model: 1..max_worlds worlds, 1..3 agents with random partitions."""
    n = rnd.randint(1, max_worlds)
    agents = ALL_AGENTS[: rnd.randint(1, 3)]
    val = {a: frozenset(w for w in range(n) if rnd.random() < 0.5) for a in MODEL_ATOMS}
    rel: dict[str, frozenset[tuple[int, int]]] = {}
    blocks: dict[str, list[list[int]]] = {}
    for a in agents:
        k = rnd.randint(1, n)
        by_label: dict[int, list[int]] = {}
        for w in range(n):
            by_label.setdefault(rnd.randrange(k), []).append(w)
        blocks[a] = list(by_label.values())
        rel[a] = frozenset((u, v) for b in blocks[a] for u in b for v in b)
    des = (rnd.randrange(n),) if designated else ()
    return ModelSpec(n, val, rel, blocks, des)


def random_k_spec(rnd: Random, max_worlds: int = 8, designated: bool = False) -> ModelSpec:
    """A random model with arbitrary relations (possibly empty, non-serial, non-reflexive)."""
    n = rnd.randint(1, max_worlds)
    agents = ALL_AGENTS[: rnd.randint(1, 3)]
    val = {a: frozenset(w for w in range(n) if rnd.random() < 0.5) for a in MODEL_ATOMS}
    rel = {}
    for a in agents:
        density = rnd.choice((0.1, 0.25, 0.5))
        rel[a] = frozenset((u, v) for u, v in product(range(n), repeat=2) if rnd.random() < density)
    des = (rnd.randrange(n),) if designated else ()
    return ModelSpec(n, val, rel, None, des)


# Everything random is drawn from one hypothesis-chosen seed: hypothesis' own strategies
# (recursive formulas, st.randoms) gave small, often repeated examples that let planted
# bugs through. Failing examples are printed in full by the tests' assertion messages.
SEEDS = st.integers(0, 2**32 - 1)


def s5_models(max_worlds: int = 12, designated: bool = False) -> st.SearchStrategy[ModelSpec]:
    return SEEDS.map(lambda seed: random_s5_spec(Random(seed), max_worlds, designated))


def k_models(max_worlds: int = 8, designated: bool = False) -> st.SearchStrategy[ModelSpec]:
    return SEEDS.map(lambda seed: random_k_spec(Random(seed), max_worlds, designated))


@dataclass(frozen=True)
class Case:
    """A model, formulas over it, one of its agents and a group containing that agent."""

    spec: ModelSpec
    formulas: tuple[Formula, ...]
    agent: str
    group: tuple[str, ...]

    def __repr__(self) -> str:
        fs = ", ".join(repr(str(f)) for f in self.formulas)
        return f"Case({self.spec!r}, [{fs}], agent={self.agent!r}, group={self.group!r})"


def cases(
    kind: str = "s5",
    count: int = 2,
    depth: int = 4,
    group_ops: tuple[type, ...] = GROUP_OPS,
    max_worlds: int | None = None,
) -> st.SearchStrategy[Case]:
    """Random cases from one seed; `kind` is "s5", "k" or "any"."""

    def make(seed: int) -> Case:
        rnd = Random(seed)
        k = kind if kind != "any" else rnd.choice(("s5", "k"))
        if k == "s5":
            spec = random_s5_spec(rnd, max_worlds or 12)
        else:
            spec = random_k_spec(rnd, max_worlds or 8)
        fs = tuple(
            random_formula(rnd, spec.agents, depth, group_ops=group_ops) for _ in range(count)
        )
        agent = rnd.choice(spec.agents)
        others = [a for a in spec.agents if a != agent and rnd.random() < 0.7]
        return Case(spec, fs, agent, (agent, *others))

    return SEEDS.map(make)


def random_formula(
    rnd: Random,
    agents: tuple[str, ...],
    depth: int,
    *,
    atoms: tuple[str, ...] = (*MODEL_ATOMS, "s"),
    group_ops: tuple[type, ...] = GROUP_OPS,
) -> Formula:
    """A random formula over the given atoms and agents, at most `depth` deep.

    Plain `random` seeded by hypothesis (see `model_formulas`): hypothesis' recursive
    strategies produced small, repetitive formulas that missed planted bugs.
    """
    if depth == 0 or rnd.random() < 0.12:
        x = rnd.random()
        return Top() if x < 0.07 else Bot() if x < 0.14 else Atom(rnd.choice(atoms))

    def sub() -> Formula:
        return random_formula(rnd, agents, depth - 1, atoms=atoms, group_ops=group_ops)

    def group() -> tuple[str, ...]:
        k = rnd.randint(1, len(agents))
        return tuple(rnd.sample(agents, k))

    kind = rnd.choice(
        ["not", "imp", "iff", "nary", "nary", "agent", "agent", "group", "group", "ann", "ann", "q"]
    )
    if kind == "not":
        return Not(sub())
    if kind in ("imp", "iff"):
        return (Implies if kind == "imp" else Iff)(sub(), sub())
    if kind == "nary":
        cls = rnd.choice(NARY)
        return cls(tuple(sub() for _ in range(rnd.choice((0, 1, 2, 2, 3)))))
    if kind == "agent" or (kind == "group" and not group_ops):
        return rnd.choice(AGENT_OPS)(rnd.choice(agents), sub())
    if kind == "group":
        return rnd.choice(group_ops)(group(), sub())
    if kind == "ann":
        who = None if rnd.random() < 0.5 else group()
        return Announce(sub(), sub(), who, rnd.random() < 0.3, rnd.random() < 0.3)
    variables = tuple(rnd.sample(atoms, rnd.randint(1, 2)))
    return rnd.choice((Forall, Exists))(variables, sub())
