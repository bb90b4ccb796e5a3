"""`epigames bench NAME`: run one of the benchmarks in `epigames.bench`."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path
from types import ModuleType
from typing import Annotated

import typer
from rich.console import Console

from epigames import bench as bench_pkg, native
from epigames.errors import UnknownNameError

#: The environment variable that gives `--seed-programs` when the option is not given.
SEED_PROGRAMS_ENV = "EPIGAMES_SEED_PROGRAMS"


def available() -> list[str]:
    """Names of the modules of `epigames.bench`: each is a benchmark if it defines `run`."""
    return sorted(m.name for m in pkgutil.iter_modules(bench_pkg.__path__))


def _benchmark(name: str) -> ModuleType | None:
    """The benchmark module `name`, or None for a helper module (`seeds`, `floor`)."""
    module = importlib.import_module(f"epigames.bench.{name}")
    return module if hasattr(module, "run") else None


def bench(
    name: Annotated[str, typer.Argument(help="Which benchmark: see --list.")] = "",
    list_: Annotated[bool, typer.Option("--list", help="List the benchmarks.")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="Smaller sizes, for a smoke run.")] = False,
    seed_programs: Annotated[
        Path | None,
        typer.Option(
            "--seed-programs",
            envvar=SEED_PROGRAMS_ENV,
            help="Folder of the seed programs (e.g. klaverjas-2017/run.py): a benchmark "
            "that has one runs it beside ours and prints the ratio. Others ignore it.",
        ),
    ] = None,
) -> None:
    """Run a benchmark and print its table (ratios against a baseline from the same run)."""
    names = available()
    if list_ or not name:
        for n in names:
            if (listed := _benchmark(n)) is not None:
                typer.echo(f"{n:12} {(listed.__doc__ or '').strip().splitlines()[0]}")
        return
    module = _benchmark(name) if name in names else None
    if module is None:
        benchmarks = [n for n in names if _benchmark(n) is not None]
        raise UnknownNameError(
            f"unknown benchmark {name!r}; choose one of: {', '.join(benchmarks)}"
        )
    console = Console()
    if not console.is_terminal:
        # Piped to a file or a log, Rich would fit the tables to 80 columns and cut labels.
        console = Console(width=160)
    options: dict[str, object] = {"quick": quick}
    if "seed_programs" in inspect.signature(module.run).parameters:
        options["seed_programs"] = seed_programs
    # Ours plays as a tournament's workers do, with their collector settings.
    from epigames.tournament.backend import tune_collector

    tune_collector()
    module.run(console, **options)
    # Compiled or not moves every figure above by a factor: say which ran.
    console.print(f"[dim]card engine: {native.running()}[/dim]")


def register(app: typer.Typer) -> None:
    """Add the `bench` command."""
    app.command("bench")(bench)
