"""The `epigames` command: a thin typer layer over the library."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from rich.console import Console

# typer 0.29 vendors click and raises its own copy's exceptions, not click's: catching
# `click.ClickException` misses them (pyproject pins typer to the tested minor version).
from typer._click import exceptions as click_errors

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


def run(args: Sequence[str] | None = None) -> int:
    """Run the command line on `args` (default: `sys.argv[1:]`); returns the exit status.

    A user mistake never shows a traceback: the domain's `EpigamesError` and typer's usage
    errors (unknown command or option, a missing or ill-typed value, a number out of
    range) print one `error: ...` line on stderr and give status 2.
    """
    try:
        status = app(args=args, prog_name="epigames", standalone_mode=False)
    except EpigamesError as exc:
        _error(str(exc))
        return 2
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        err_console.print("aborted")
        return 130
    except click_errors.NoArgsIsHelpError as exc:
        # A group without its command: the help (typer has printed it already) is the
        # useful answer, not an error line.
        if exc.format_message().strip():
            exc.show()
        return 2
    except click_errors.ClickException as exc:
        _error(_usage_message(exc))
        return 2
    return status if isinstance(status, int) else 0


def main() -> None:
    """Entry point of the `epigames` script: `run` with the process's arguments."""
    sys.exit(run())


def _error(message: str) -> None:
    err_console.print("[bold red]error:[/]", end=" ")
    err_console.print(message, markup=False, highlight=False)


def _usage_message(exc: click_errors.ClickException) -> str:
    """One line for a usage error, in the domain's style, pointing at the right --help."""
    missing = isinstance(exc, click_errors.MissingParameter)
    if isinstance(exc, click_errors.BadParameter) and exc.param is not None and not missing:
        message = _bad_value_message(exc, exc.param)
    else:
        message = _sentence(exc.format_message())
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        message += f" (see '{ctx.command_path} --help')"
    return message


def _bad_value_message(exc: click_errors.BadParameter, param: Any) -> str:
    """`--games 1e30 is out of range; expected 1..100000000` or `invalid --seed 'x': why`."""
    opts = [o for o in getattr(param, "opts", []) if o.startswith("-")]
    name = max(opts, key=len) if opts else str(param.name).upper()
    value, reason, kind = _validation_detail(exc)
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if value is not None and kind in _RANGE_ERRORS:
        expected = f"{'' if low is None else low}..{'' if high is None else high}"
        return f"{name} {value} is out of range; expected {expected}"
    if value is None:
        return f"invalid {name}: {_sentence(reason or exc.format_message())}"
    return f"invalid {name} {value!r}: {_sentence(reason)}"


#: pydantic's error types for a number outside an option's `min`/`max`.
_RANGE_ERRORS = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal"})


def _validation_detail(exc: BaseException) -> tuple[str | None, str, str]:
    """The rejected input, the reason and its kind, from typer's pydantic error if any.

    typer 0.29 checks values with pydantic and chains its `ValidationError`, which alone
    keeps the value the user typed; without one, nothing is known beyond the message.
    """
    errors = getattr(exc.__cause__, "errors", None)
    if not callable(errors):
        return None, "", ""
    try:
        first = errors()[0]
    except (IndexError, TypeError):
        return None, "", ""
    raw = first.get("input")
    value = None if raw is None else str(raw)
    return value, str(first.get("msg", "")), str(first.get("type", ""))


def _sentence(text: str) -> str:
    """click's `Capitalised message.` in the domain's `lower-case message` style."""
    text = text.strip().removesuffix(".")
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        text = text[0].lower() + text[1:]
    return text
