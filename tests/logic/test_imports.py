"""The modules of `epigames.logic` import each other without a circle.

Every import counts, at module level or inside a function (a late import still makes a
circle for import-linter and for a reader). An import names the module it reads from:
`from epigames.logic.smcdel import jobs` is an edge to the submodule `jobs`, `from
epigames.logic.smcdel import parse_smcdel` one to the package's `__init__`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import epigames.logic

ROOT = Path(epigames.logic.__file__).parent
PACKAGE = "epigames.logic"


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module → the modules of the package it imports, anywhere in its source."""
    files = {_module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    up = here[: len(here) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in files else base)
            graph[name].update(t for t in targets if t in files and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_inside_the_logic_package() -> None:
    graph = import_graph()
    assert f"{PACKAGE}.formula" in graph and f"{PACKAGE}.syntax" in graph
    assert cycles(graph) == []


def test_formula_imports_no_other_module_of_the_engine() -> None:
    assert import_graph()[f"{PACKAGE}.formula"] == set()


def test_the_checker_finds_a_circle(tmp_path: Path) -> None:
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "a.py").write_text("def f():\n    from epigames.logic.b import g\n")
    (tmp_path / "b.py").write_text("from epigames.logic import a\n")
    graph = import_graph(tmp_path)
    assert graph["epigames.logic.a"] == {"epigames.logic.b"}
    assert cycles(graph) == [["epigames.logic.a", "epigames.logic.b"]]
