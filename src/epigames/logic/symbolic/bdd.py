"""The BDD package under the symbolic engine: CUDD (`dd.cudd`) when it imports, else `dd.autoref`.

`dd` is an optional dependency (the `symbolic` extra). Its compiled CUDD module is a wheel
on common platforms; where it is missing, the pure-Python `dd.autoref` gives the same
answers, only slower. `Manager` is the one place that talks to either.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable, Iterator, Mapping
from types import ModuleType
from typing import Any, Protocol, cast

from epigames.errors import EpigamesError, InputError

__all__ = ["BACKENDS", "Manager", "Node", "SymbolicUnavailableError", "backend_name"]

#: The BDD packages tried, fastest first.
BACKENDS = ("dd.cudd", "dd.autoref")


class SymbolicUnavailableError(EpigamesError):
    """The symbolic engine was asked for, but the package `dd` is not installed."""


class Node(Protocol):
    """A BDD node of either backend: an immutable Boolean function with operators."""

    def __and__(self, other: Node, /) -> Node: ...
    def __or__(self, other: Node, /) -> Node: ...
    def __invert__(self) -> Node: ...
    def implies(self, other: Node, /) -> Node: ...
    def equiv(self, other: Node, /) -> Node: ...


def _load(name: str | None = None) -> ModuleType | None:
    for candidate in (name,) if name else BACKENDS:
        try:
            return importlib.import_module(candidate)
        except ImportError:
            continue
    return None


@functools.cache
def _default() -> ModuleType | None:
    # Loaded on first use: importing dd takes a large part of a second.
    return _load()


def backend_name() -> str | None:
    """The module the engine uses by default (`dd.cudd` or `dd.autoref`), None without `dd`."""
    module = _default()
    return None if module is None else module.__name__


#: CUDD's memory target and first cache size for a `Manager(small=True)` (bytes, entries).
SMALL_MEMORY, SMALL_CACHE = 1 << 24, 1 << 10


class Manager:
    """One BDD manager and a counter for its variables' names.

    Structures derived from one another (by announcements) share their manager, so their
    BDDs can be combined. Variables are named `x0`, `x1`, … in the order they are made;
    that is also their initial order in the diagram.

    Args:
        backend: `dd.cudd` or `dd.autoref` (default: the first that imports).
        small: for a structure of few variables (a quotient's touched cards): CUDD then
            starts with small tables. A default CUDD manager reserves room for a large
            structure, which takes milliseconds and many page faults, more than a small
            structure takes to build; the tables still grow as they need.
    """

    def __init__(self, backend: str | None = None, *, small: bool = False) -> None:
        if backend is not None and backend not in BACKENDS:
            raise InputError(
                f"unknown BDD backend {backend!r}; choose one of: {', '.join(BACKENDS)}"
            )
        module = _default() if backend is None else _load(backend)
        if module is None:
            wanted = backend or "dd"
            raise SymbolicUnavailableError(
                f"the symbolic engine needs the package {wanted!r}, which is not installed; "
                "install it with: pip install 'epigames[symbolic]'"
            )
        self.backend: str = module.__name__
        if small and self.backend == "dd.cudd":
            self._bdd: Any = module.BDD(
                memory_estimate=SMALL_MEMORY, initial_cache_size=SMALL_CACHE
            )
        else:
            self._bdd = module.BDD()
        if self.backend == "dd.cudd":
            # Dynamic reordering costs more than it saves on the structures of puzzles, whose
            # variables are declared in a good order; it also makes timings jumpy.
            self._bdd.configure(reordering=False)
        # CUDD conjoins and quantifies in one pass (`Cudd_bddAndAbstract`), about twice as
        # fast as the two steps.
        self._and_exists: Any = getattr(module, "and_exists", None)
        self._count = 0
        self.true = cast(Node, self._bdd.true)
        self.false = cast(Node, self._bdd.false)

    def new_var(self) -> str:
        """Declare a new variable, last in the order, and return its name."""
        name = f"x{self._count}"
        self._count += 1
        self._bdd.declare(name)
        return name

    def var(self, name: str) -> Node:
        """The BDD of one variable."""
        return cast(Node, self._bdd.var(name))

    def exist(self, names: Iterable[str], u: Node) -> Node:
        """∃ names. u"""
        return cast(Node, self._bdd.exist(set(names), u))

    def and_exists(self, names: Iterable[str], u: Node, v: Node) -> Node:
        """∃ names. (u ∧ v)"""
        if self._and_exists is not None:
            return cast(Node, self._and_exists(u, v, set(names)))
        return cast(Node, self._bdd.exist(set(names), u & v))

    def forall(self, names: Iterable[str], u: Node) -> Node:
        """∀ names. u"""
        return cast(Node, self._bdd.forall(set(names), u))

    def let(self, values: Mapping[str, bool], u: Node) -> Node:
        """u with the given variables set to constants."""
        return cast(Node, self._bdd.let(dict(values), u))

    def ite(self, c: Node, t: Node, e: Node) -> Node:
        """if c then t else e."""
        return cast(Node, self._bdd.ite(c, t, e))

    def count(self, u: Node, names: Iterable[str]) -> int:
        """How many assignments of the variables `names` satisfy u (u may use no others)."""
        return int(self._bdd.count(u, nvars=len(set(names))))

    def assignments(self, u: Node, names: Iterable[str]) -> Iterator[dict[str, bool]]:
        """Every assignment of `names` that satisfies u (u may use no others)."""
        care = set(names)
        for found in self._bdd.pick_iter(u, care_vars=care):
            yield {str(k): bool(v) for k, v in found.items()}

    def size(self, u: Node) -> int:
        """How many nodes the diagram of u has."""
        return int(cast(Any, u).dag_size)

    def cube(self, values: Mapping[str, bool]) -> Node:
        """The conjunction of the literals: each variable equal to its value."""
        out = self.true
        for name, value in values.items():
            v = self.var(name)
            out = out & (v if value else ~v)
        return out
