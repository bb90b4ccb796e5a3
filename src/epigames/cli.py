"""The `epigames` command: a thin typer layer over the library."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.console import Console

from epigames import __version__
from epigames.errors import EpigamesError

app = typer.Typer(
    name="epigames",
    help="Games of imperfect information played by agents that reason with epistemic logic.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err_console = Console(stderr=True, soft_wrap=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"epigames {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Games of imperfect information played by agents that reason with epistemic logic."""


def _register_subcommands() -> None:
    """Add every module of `epigames.commands`: each defines `register(app)`."""
    import importlib
    import pkgutil

    from epigames import commands

    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"epigames.commands.{info.name}")
        module.register(app)


_register_subcommands()


def main() -> None:
    """Entry point: run the app, turning user mistakes into a message and exit status 2."""
    try:
        status = app(standalone_mode=False)
        if isinstance(status, int) and status:
            sys.exit(status)
    except EpigamesError as exc:
        err_console.print("[bold red]error:[/]", end=" ")
        err_console.print(str(exc), markup=False, highlight=False)
        sys.exit(2)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        err_console.print("aborted")
        sys.exit(130)
    except Exception as exc:  # click's own usage errors
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(2 if isinstance(exc, click.UsageError) else exc.exit_code)
        raise
