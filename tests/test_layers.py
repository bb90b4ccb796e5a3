"""No layer above `games/` names a concrete game: they work from what a game declares.

The framework's modules in games/, the web app, the adapters, the CLI commands and the
tournament machinery read a game's metadata (`Game.card_layout`, `holder_labels`,
`distinct_actions`, `max_game_length`, `asking`, its views and knowledge through their
protocols), so a new game needs no line in them.
Left out, as they are about particular games by purpose: the experiments, which rerun
one report's game beside its numbers, and the benchmarks, which time a game against the
report's own program.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import epigames
from epigames.games import registered_games

SRC = Path(epigames.__file__).parent
LAYERS = ("web", "adapters", "commands", "tournament")
BY_PURPOSE = ("tournament/experiments",)


def modules() -> list[Path]:
    # The framework's own modules in games/ (not the games' packages) count as a layer
    # above the games too: `games/ask.py` asks each game how (`Game.asking`). The
    # package's `__init__` is the registry: a new game's one line outside its folder.
    found = sorted(p for p in (SRC / "games").glob("*.py") if p.name != "__init__.py")
    for layer in LAYERS:
        for path in sorted((SRC / layer).rglob("*.py")):
            rel = path.relative_to(SRC).as_posix()
            if not rel.startswith(BY_PURPOSE):
                found.append(path)
    return found


def concrete_imports(path: Path) -> list[str]:
    """The concrete game packages a module imports (at any depth of the module)."""
    games = {f"epigames.games.{name}" for name in registered_games()}
    named = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            continue
        named += [t for t in targets if any(t == g or t.startswith(g + ".") for g in games)]
    return named


def test_the_layers_hold_modules() -> None:
    assert len(modules()) > 20


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.relative_to(SRC).as_posix())
def test_no_layer_above_games_imports_a_concrete_game(path: Path) -> None:
    assert concrete_imports(path) == []


#: What a small new game may take in its own folder (issue 36: the template's size).
TEMPLATE_BUDGET = 350


def test_the_template_game_fits_its_budget_and_the_docs_say_its_size() -> None:
    """Sevens stays within the line budget, and docs/architecture.md gives its real count."""
    files = sorted((SRC / "games" / "sevens").glob("*.py"))
    counts = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in files}
    total = sum(counts.values())
    assert total <= TEMPLATE_BUDGET, counts
    doc = (Path(__file__).parent.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    said = " ".join(doc.split())  # the sentence wraps
    each = ", ".join(f"`{name}` {n}" for name, n in sorted(counts.items(), key=lambda x: -x[1]))
    assert f"in {total} lines ({each})" in said, (total, each)
