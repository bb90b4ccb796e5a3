"""Epistemic formulas as immutable, hashable trees.

Every node is a frozen, slotted dataclass, so formulas can be dictionary keys (the model
checker memoises on them) and compare structurally. `str()` prints the project's own
syntax (see `epigames.logic.syntax`), which `parse()` reads back to an equal formula.
This module imports no other module of the engine: the printers and the parser install
themselves here (`install_renderers`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import product
from typing import ClassVar, TypeVar

from epigames.class_keywords import set_given
from epigames.errors import InputError, UnknownAgentError

Group = tuple[str, ...]

#: The most nodes a formula may have once its quantifiers are expanded. A quantifier over
#: k variables makes 2^k copies of its argument, and nested ones multiply, so a short
#: formula can expand beyond any memory; past this bound `expand` refuses at once.
MAX_EXPANSION = 100_000


class FormulaError(InputError):
    """A well-formed formula that cannot be evaluated: its expansion exceeds a bound."""


_F = TypeVar("_F")
_V = TypeVar("_V")


class _Renderers:
    """The printers and the parser behind `str()`, `to_latex()` and `Formula.parse`.

    They live in `syntax.py` and `latex.py`, which import this module and install
    themselves here (see `install_renderers`); importing them from here would make an
    import circle. `epigames.logic` imports both, so they are installed before any
    formula can be built.
    """

    text: Callable[[Formula], str] | None = None
    latex: Callable[[Formula], str] | None = None
    parse: Callable[[str], Formula] | None = None


_RENDERERS = _Renderers()


def install_renderers(
    *,
    text: Callable[[Formula], str] | None = None,
    latex: Callable[[Formula], str] | None = None,
    parse: Callable[[str], Formula] | None = None,
) -> None:
    """Install the functions `str()`, `to_latex()` and `Formula.parse` call (those given)."""
    if text is not None:
        _RENDERERS.text = text
    if latex is not None:
        _RENDERERS.latex = latex
    if parse is not None:
        _RENDERERS.parse = parse


def _installed(fn: _F | None, module: str) -> _F:
    if fn is None:  # only when formula.py is loaded outside the epigames.logic package
        raise RuntimeError(f"import epigames.logic.{module} first")
    return fn


class Formula:
    """Base of every formula node; supplies operators, printing and traversal."""

    __slots__ = ()

    def __and__(self, other: Formula) -> And:
        return And((self, other))

    def __or__(self, other: Formula) -> Or:
        return Or((self, other))

    def __invert__(self) -> Not:
        return Not(self)

    def __rshift__(self, other: Formula) -> Implies:
        return Implies(self, other)

    def __str__(self) -> str:
        text = _RENDERERS.text
        return repr(self) if text is None else text(self)

    def to_latex(self) -> str:
        """The formula as LaTeX math (without surrounding dollars)."""
        return _installed(_RENDERERS.latex, "latex")(self)

    @classmethod
    def parse(cls, text: str) -> Formula:
        """Read a formula in the project's syntax; see `epigames.logic.syntax.parse`."""
        return _installed(_RENDERERS.parse, "syntax")(text)

    def children(self) -> tuple[Formula, ...]:
        """The direct subformulas, in order."""
        return ()

    def atoms(self) -> frozenset[str]:
        """Every atom that occurs in the formula."""
        found: set[str] = set()
        for f in self._preorder():
            if isinstance(f, Atom):
                found.add(f.name)
            elif isinstance(f, Quantified):
                found.update(f.variables)
        return frozenset(found)

    def agents(self) -> frozenset[str]:
        """Every agent that a modality or a group announcement names."""
        found: set[str] = set()
        for f in self._preorder():
            if isinstance(f, Knowledge):
                found.add(f.agent)
            elif isinstance(f, GroupKnowledge | Announce):
                found.update(f.group or ())
        return frozenset(found)

    def is_boolean(self) -> bool:
        """True when the formula has no modality, announcement or quantifier."""
        return all(isinstance(f, (Top, Bot, Atom, Connective)) for f in self._preorder())

    def walk(self) -> list[Formula]:
        """All subformulas, the formula itself first (pre-order)."""
        return list(self._preorder())

    def _preorder(self) -> Iterator[Formula]:
        # Iterative: formulas built in Python may nest deeper than the recursion limit.
        stack: list[Formula] = [self]
        while stack:
            f = stack.pop()
            yield f
            stack.extend(reversed(f.children()))


class Connective(Formula):
    """Marker base for the Boolean connectives."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Top(Formula):
    """Truth, ⊤."""

    def __repr__(self) -> str:
        return "Top()"


@dataclass(frozen=True, slots=True)
class Bot(Formula):
    """Falsity, ⊥."""

    def __repr__(self) -> str:
        return "Bot()"


@dataclass(frozen=True, slots=True)
class Atom(Formula):
    """A propositional atom; any non-empty name (card games use names like `holds(West, 8♥)`)."""

    name: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"an atom needs a non-empty string name, got {self.name!r}")


@dataclass(frozen=True, slots=True)
class Not(Connective):
    """Negation."""

    arg: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)


@dataclass(frozen=True, slots=True)
class NAry(Connective):
    """Base of the connectives over any number of formulas.

    A subclass names its connective in the class statement: ``class And(NAry, word="and")``.
    """

    args: tuple[Formula, ...]
    #: The connective's name in the project's syntax, as in `and(p, q)`.
    word: ClassVar[str] = ""

    def __init_subclass__(cls, *, word: str = "") -> None:
        set_given(cls, word=word)

    def children(self) -> tuple[Formula, ...]:
        return self.args


class And(NAry, word="and"):
    """Conjunction of any number of formulas (the empty one is ⊤)."""

    __slots__ = ()


class Or(NAry, word="or"):
    """Disjunction of any number of formulas (the empty one is ⊥)."""

    __slots__ = ()


class Xor(NAry, word="xor"):
    """Exclusive or over any number of formulas: an odd number of them is true."""

    __slots__ = ()


class OneOf(NAry, word="oneof"):
    """Exactly one of the formulas is true."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Binary(Connective):
    """Base of the connectives of two formulas, `left` and `right`."""

    left: Formula
    right: Formula

    def children(self) -> tuple[Formula, ...]:
        return (self.left, self.right)


class Implies(Binary):
    """Material implication."""

    __slots__ = ()


class Iff(Binary):
    """Biconditional."""

    __slots__ = ()


class Modality(Formula):
    """Base of the knowledge modalities: an operator, named `symbol`, over one formula `arg`.

    A modality names its operator in the class statement, and says so when it is the
    "knows whether" variant (φ known, or ¬φ known): ``class Kw(Knowledge, symbol="Kw",
    whether=True)``.
    """

    __slots__ = ()
    arg: Formula
    #: The operator in the project's syntax, as in `K_a p` or `C_{a,b} p`.
    symbol: ClassVar[str] = ""
    #: Whether it asks if the agents know whether `arg` holds (Kw, Ew, Cw, Dw).
    whether: ClassVar[bool] = False

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def __init_subclass__(cls, *, symbol: str = "", whether: bool | None = None) -> None:
        set_given(cls, symbol=symbol, whether=whether)


@dataclass(frozen=True, slots=True)
class Knowledge(Modality):
    """Base of the single-agent modalities: K, its dual M, and Kw."""

    agent: str
    arg: Formula

    def __post_init__(self) -> None:
        if not isinstance(self.agent, str) or not self.agent:
            raise ValueError(f"{self.symbol} needs a non-empty agent name, got {self.agent!r}")


class K(Knowledge, symbol="K"):
    """The agent knows that the formula holds."""

    __slots__ = ()


class M(Knowledge, symbol="M"):
    """The agent considers the formula possible: ¬K ¬φ."""

    __slots__ = ()


class Kw(Knowledge, symbol="Kw", whether=True):
    """The agent knows whether the formula holds: K φ ∨ K ¬φ."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class GroupKnowledge(Modality):
    """Base of the group modalities: everybody (E), common (C), distributed (D) knowledge.

    Each comes with its "knows whether" variant (Ew, Cw, Dw).
    """

    group: Group
    arg: Formula

    def __post_init__(self) -> None:
        if not self.group or not all(isinstance(a, str) and a for a in self.group):
            raise ValueError(f"{self.symbol} needs a non-empty group of agent names")


class E(GroupKnowledge, symbol="E"):
    """Everybody in the group knows."""

    __slots__ = ()


class Ew(GroupKnowledge, symbol="Ew", whether=True):
    """Everybody in the group knows whether."""

    __slots__ = ()


class C(GroupKnowledge, symbol="C"):
    """It is common knowledge in the group."""

    __slots__ = ()


class Cw(GroupKnowledge, symbol="Cw", whether=True):
    """It is common knowledge in the group whether: C φ ∨ C ¬φ."""

    __slots__ = ()


class D(GroupKnowledge, symbol="D"):
    """The group knows it distributedly (pooling what its members know)."""

    __slots__ = ()


class Dw(GroupKnowledge, symbol="Dw", whether=True):
    """The group distributedly knows whether."""

    __slots__ = ()


class Quantified(Formula):
    """Base of Boolean quantification over atoms (SMCDEL's Forall and Exists)."""

    __slots__ = ()
    variables: tuple[str, ...]
    arg: Formula
    keyword: ClassVar[str]

    def __post_init__(self) -> None:
        if not self.variables or not all(isinstance(v, str) and v for v in self.variables):
            raise ValueError(f"{self.keyword} needs at least one variable name")

    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def expand(self) -> Formula:
        """The quantifier-free equivalent: a conjunction (∀) or disjunction (∃) of instances.

        Raises:
            FormulaError: the expansion (with every nested quantifier expanded too) would
                have more than `MAX_EXPANSION` nodes.
        """
        if expanded_size(self) > MAX_EXPANSION:
            names = ",".join(self.variables)
            raise FormulaError(
                f"{self.keyword} {{{names}}} expands to more than {MAX_EXPANSION:,} subformulas "
                f"(2^{len(self.variables)} instances, nested quantifiers multiplying); the bound "
                "is MAX_EXPANSION in epigames.logic.formula"
            )
        instances = []
        for values in product((Top(), Bot()), repeat=len(self.variables)):
            instances.append(substitute(self.arg, dict(zip(self.variables, values, strict=True))))
        return And(tuple(instances)) if isinstance(self, Forall) else Or(tuple(instances))


@dataclass(frozen=True, slots=True)
class Forall(Quantified):
    """φ holds for every truth value of the variables."""

    variables: tuple[str, ...]
    arg: Formula
    keyword: ClassVar[str] = "forall"


@dataclass(frozen=True, slots=True)
class Exists(Quantified):
    """φ holds for some truth value of the variables."""

    variables: tuple[str, ...]
    arg: Formula
    keyword: ClassVar[str] = "exists"


@dataclass(frozen=True, slots=True)
class Announce(Formula):
    """An announcement modality: `[!φ]ψ` and its relatives.

    `group` None is a public announcement; otherwise the members of `group` learn it and
    everyone else sees that they did (SMCDEL's semantics: the group's relations are split
    by φ). `whether` announces whether φ (`[?!φ]ψ`); `diamond` is the dual `⟨!φ⟩ψ`, which
    also requires the announcement to be truthful.
    """

    pre: Formula
    post: Formula
    group: Group | None = None
    whether: bool = False
    diamond: bool = False

    def __post_init__(self) -> None:
        if self.group is not None and (not self.group or not all(self.group)):
            raise ValueError("a group announcement needs at least one agent")

    def children(self) -> tuple[Formula, ...]:
        return (self.pre, self.post)


def expanded_size(f: Formula) -> int:
    """How many nodes `f` has with every quantifier expanded (capped past `MAX_EXPANSION`).

    Iterative (formulas built in Python may be deep), and cheap: it counts, it does not
    expand.
    """
    cap = MAX_EXPANSION + 1
    sizes: dict[int, int] = {}
    stack: list[tuple[Formula, bool]] = [(f, False)]
    while stack:
        node, done = stack.pop()
        children = node.children()
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in children)
            continue
        total = 1 + sum(sizes[id(c)] for c in children)
        if isinstance(node, Quantified):
            # 2^k copies of the argument; k past 64 is past any cap, so skip the power.
            k = len(node.variables)
            total = cap if k > 64 else 1 + (sizes[id(node.arg)] << k)
        sizes[id(node)] = min(total, cap)
    return sizes[id(f)]


def substitute(f: Formula, mapping: dict[str, Formula]) -> Formula:
    """Replace atoms by formulas everywhere, also under modalities; bound variables are kept."""
    if isinstance(f, Atom):
        return mapping.get(f.name, f)
    if isinstance(f, (Top, Bot)):
        return f
    if isinstance(f, Quantified):
        inner = {k: v for k, v in mapping.items() if k not in f.variables}
        return replace(f, arg=substitute(f.arg, inner))  # type: ignore[type-var]
    if isinstance(f, Not):
        return Not(substitute(f.arg, mapping))
    if isinstance(f, NAry):
        return type(f)(tuple(substitute(a, mapping) for a in f.args))
    if isinstance(f, Binary):
        return type(f)(substitute(f.left, mapping), substitute(f.right, mapping))
    if isinstance(f, (Knowledge, GroupKnowledge)):
        return replace(f, arg=substitute(f.arg, mapping))
    if isinstance(f, Announce):
        return Announce(
            substitute(f.pre, mapping), substitute(f.post, mapping), f.group, f.whether, f.diamond
        )
    raise TypeError(f"not a formula: {f!r}")


def named_agent(agents: Sequence[str], name: str) -> str:
    """The agent given by its index in `agents` or by its name (any case).

    Raises:
        UnknownAgentError: neither.
    """
    if name.isdigit() and int(name) < len(agents):
        return agents[int(name)]
    for agent in agents:
        if agent.lower() == name.lower():
            return agent
    raise UnknownAgentError(
        f"unknown seat {name!r} in the formula; choose 0..{len(agents) - 1} "
        f"or one of: {', '.join(agents)}"
    )


def agent_entry(table: Mapping[str, _V], agent: str, agents: Sequence[str], owner: str) -> _V:
    """What `table` keeps for `agent` (a model's relation, a structure's observations).

    Raises:
        UnknownAgentError: `agent` has no entry; the message names the `owner`'s `agents`.
    """
    try:
        return table[agent]
    except KeyError:
        raise UnknownAgentError(
            f"unknown agent {agent!r}; this {owner}'s agents are: {', '.join(agents)}"
        ) from None


def rename(f: Formula, atom: Callable[[str], Formula], agent: Callable[[str], str]) -> Formula:
    """The formula with every atom replaced by `atom(name)` and every agent by `agent(name)`.

    Raises:
        InputError: a quantified formula (its bound variables are atoms too).
    """
    if isinstance(f, Atom):
        return atom(f.name)
    if isinstance(f, (Top, Bot)):
        return f
    if isinstance(f, Quantified):
        raise InputError(f"this formula may have no quantifiers: {f}")
    if isinstance(f, Not):
        return Not(rename(f.arg, atom, agent))
    if isinstance(f, NAry):
        return type(f)(tuple(rename(a, atom, agent) for a in f.args))
    if isinstance(f, Binary):
        return type(f)(rename(f.left, atom, agent), rename(f.right, atom, agent))
    if isinstance(f, Knowledge):
        return type(f)(agent(f.agent), rename(f.arg, atom, agent))
    if isinstance(f, GroupKnowledge):
        return replace(f, group=tuple(agent(a) for a in f.group), arg=rename(f.arg, atom, agent))
    if isinstance(f, Announce):
        told = None if f.group is None else tuple(agent(a) for a in f.group)
        pre, post = rename(f.pre, atom, agent), rename(f.post, atom, agent)
        return Announce(pre, post, told, f.whether, f.diamond)
    raise TypeError(f"not a formula: {f!r}")


def conj(*args: Formula) -> Formula:
    """A conjunction, collapsing the trivial cases (no argument: ⊤; one: itself)."""
    if not args:
        return Top()
    return args[0] if len(args) == 1 else And(tuple(args))


def disj(*args: Formula) -> Formula:
    """A disjunction, collapsing the trivial cases (no argument: ⊥; one: itself)."""
    if not args:
        return Bot()
    return args[0] if len(args) == 1 else Or(tuple(args))
