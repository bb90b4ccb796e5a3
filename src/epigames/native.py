"""The modules compiled with mypyc, and the guard that never runs a stale build of them.

`pip install` compiles the modules in `COMPILED` with mypyc when it can (`setup.py`) and
records a digest of their sources beside this file. At import, `install` checks that
every compiled module is there and that the sources still have that digest; otherwise
(no compiler, sources edited after an editable install, or ``EPIGAMES_PURE_PYTHON=1``)
it makes Python load the plain `.py` files, so an edit is never shadowed by an old build.
The compiled modules share one native library and call each other directly, so they are
used all together or not at all. Both ways give the same games move for move (a test).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

__all__ = [
    "BUILT",
    "COMPILED",
    "C_MODULES",
    "PURE_ENV",
    "RECORD",
    "c_module",
    "install",
    "running",
    "sources_digest",
    "status",
]

#: The hot modules, compiled together: the card engine's counting and bitmask loops, and
#: the games' hot paths: Kemps's knowledge, moves and turn planner, the Klaverjas tactics
#: with the card play they read, the Blufpoker state with its rules and its views and
#: the report's strategies (`knowledge` and the naive ones), Kwartet's state, views, public
#: fold, records of what the seats observed and knowledge-based strategies with the
#: reading of the view they share, the table games' location table, and the agents' play
#: loop.
COMPILED = (
    "epigames.cards.blocks",
    "epigames.cards.counting",
    "epigames.cards.draws",
    "epigames.cards.facts",
    "epigames.cards.feasibility",
    "epigames.cards.flow",
    "epigames.cards.knowledge",
    "epigames.cards.problem",
    "epigames.cards.public",
    "epigames.cards.tricks",
    "epigames.games.blufpoker.state",
    "epigames.games.blufpoker.strategies.base",
    "epigames.games.blufpoker.strategies.knowledge",
    "epigames.games.blufpoker.strategies.naive",
    "epigames.games.blufpoker.views",
    "epigames.games.cardtable",
    "epigames.games.kemps.knowledge",
    "epigames.games.kemps.records",
    "epigames.games.kemps.strategies.planner",
    "epigames.games.klaverjas.knowledge",
    "epigames.games.klaverjas.play",
    "epigames.games.klaverjas.records",
    "epigames.games.klaverjas.state",
    "epigames.games.klaverjas.strategies.tactics",
    "epigames.games.kwartet.knowledge",
    "epigames.games.kwartet.records",
    "epigames.games.kwartet.state",
    "epigames.games.kwartet.strategies.expert",
    "epigames.games.kwartet.strategies.reading",
    "epigames.games.kwartet.strategies.report",
    "epigames.games.kwartet.views",
    "epigames.games.loop",
)
#: Extensions written in C, built with `COMPILED` and used only where those are (each has
#: a Python equivalent that answers when it is not used): the card engine's reduction and flow.
C_MODULES = ("epigames.cards._engine",)
#: Every module the build makes, in the order of the digest.
BUILT = COMPILED + C_MODULES
#: Set to 1 to run the plain Python modules even where compiled ones are installed.
PURE_ENV = "EPIGAMES_PURE_PYTHON"
#: The file, beside this one, where the build writes the digest of what it compiled.
RECORD = "_native_build.txt"

_PACKAGE = Path(__file__).resolve().parent


def source_path(module: str, package: Path = _PACKAGE) -> Path:
    """Where a module of `COMPILED` has its Python source, or one of `C_MODULES` its C."""
    parts = module.split(".")[1:]
    suffix = ".c" if module in C_MODULES else ".py"
    return package.joinpath(*parts[:-1], parts[-1] + suffix)


def sources_digest(package: Path = _PACKAGE, modules: Sequence[str] = BUILT) -> str:
    """sha256 over the compiled modules' names and sources, in order."""
    digest = hashlib.sha256()
    for module in modules:
        digest.update(module.encode() + b"\0")
        digest.update(source_path(module, package).read_bytes() + b"\0")
    return digest.hexdigest()


def _built(module: str, package: Path) -> bool:
    source = source_path(module, package)
    return any(
        source.with_name(source.stem + suffix).exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def status(package: Path = _PACKAGE, environ: dict[str, str] | None = None) -> str:
    """``"compiled"``, or why the plain Python modules run instead."""
    env = os.environ if environ is None else environ
    if env.get(PURE_ENV, "") not in ("", "0"):
        return f"pure Python ({PURE_ENV} is set)"
    if not all(_built(m, package) for m in BUILT):
        return "pure Python (not compiled: no C compiler or mypyc at install)"
    record = package / RECORD
    if not record.exists() or record.read_text().strip() != sources_digest(package):
        return "pure Python (the sources changed since they were compiled: reinstall)"
    return "compiled"


def running() -> str:
    """What this process runs: `status` as it was when the package was imported.

    `status` reads the files now; after an edit made while a long command runs, it would
    name the plain sources although the compiled modules are the ones loaded.
    """
    got = _STATUS[0]
    if got is None:
        got = _STATUS[0] = status()
    return got


def c_module(name: str) -> ModuleType | None:
    """The extension ``name`` of `C_MODULES` if the compiled modules run (`status`), else
    None: the caller then runs its Python equivalent."""
    if running() != "compiled":
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


_STATUS: list[str | None] = [None]


class _PlainSources(importlib.abc.MetaPathFinder):
    """Finds the modules of `COMPILED` as their `.py` files, ahead of any build."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def install() -> None:
    """Load the plain sources of `COMPILED` unless the compiled ones are sound to use."""
    _STATUS[0] = status()
    if _STATUS[0] != "compiled" and not any(isinstance(f, _PlainSources) for f in sys.meta_path):
        sys.meta_path.insert(0, _PlainSources())
