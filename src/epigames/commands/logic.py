"""`epigames logic …`: check SMCDEL files, evaluate and parse formulas."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from epigames.errors import InputError
from epigames.logic.smcdel import (
    AUTO_SYMBOLIC_ABOVE,
    JobResult,
    SmcdelInput,
    parse_smcdel,
    parse_smcdel_formula,
    run_jobs,
    state_text,
)
from epigames.logic.syntax import parse

_FILE_HELP = "An SMCDEL file (VARS, LAW, OBS, jobs), or '-' to read standard input."
_ENGINE_HELP = (
    "explicit (a Kripke model, at most 20 variables), symbolic (BDDs, any number) or auto "
    f"(symbolic above {AUTO_SYMBOLIC_ABOVE} variables)."
)
EngineOption = Annotated[str, typer.Option("--engine", "-e", help=_ENGINE_HELP)]


def read_source(path: str) -> str:
    """The text of a file, or of standard input for '-'; unreadable files are InputErrors."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"cannot read {path!r}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"cannot read {path!r}: it is a directory") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read {path!r}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise InputError(f"cannot read {path!r}: {exc.strerror or exc}") from None


def load(path: str) -> SmcdelInput:
    """Read and parse an SMCDEL file (or stdin for '-')."""
    return parse_smcdel(read_source(path))


def parse_state(text: str) -> tuple[int, ...]:
    """A state typed as `1,2` or `{1,2}` (`{}` or empty: nothing true)."""
    inner = text.strip().removeprefix("{").removesuffix("}").strip()
    if not inner:
        return ()
    try:
        return tuple(sorted({int(part) for part in inner.split(",")}))
    except ValueError:
        raise InputError(
            f"bad state {text!r}; expected the true variables separated by commas, e.g. 1,2"
        ) from None


def _job_line(result: JobResult) -> Text:
    answer = result.answer_text()
    style = {"True": "bold green", "False": "bold red"}.get(answer, "bold cyan")
    line = Text()
    line.append(f"line {result.line:<4} ", style="dim")
    line.append(result.kind, style="bold")
    if result.state is not None:
        line.append(" " + state_text(result.state))
    line.append(" " + result.text)
    line.append("  →  ")
    line.append(answer, style=style)
    return line


def check(
    file: Annotated[str, typer.Argument(help=_FILE_HELP)],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object per job (JSON lines).")
    ] = False,
    engine: EngineOption = "auto",
) -> None:
    """Answer the TRUE?, VALID? and WHERE? jobs of an SMCDEL file.

    The file describes a knowledge structure as SMCDEL does: VARS (the
    variables, numbers), LAW (a Boolean formula every state satisfies), OBS
    (for each agent the variables it observes), then the jobs, for example:

        TRUE? {1,2} alice knows that 2

        VALID? [! (1|2)] bob knows whether 1

        WHERE? ~ alice knows whether 1

    WHERE? lists the states where the formula holds, each as its set of
    true variables, sorted by the ascending tuple of those variables.

    With --json each line is {"kind", "line", "formula", "state" (TRUE?
    only), "answer"}; answers are booleans, or for WHERE? lists of sorted
    variable lists.

    Both engines give the same answers; --engine picks the explicit Kripke
    model (fast on small files, at most 20 variables) or knowledge structures
    on BDDs (any number of variables); auto picks by the number of variables.
    """
    results = run_jobs(load(file), engine)
    if as_json:
        for result in results:
            typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    console = Console(highlight=False, soft_wrap=True)
    if not results:
        console.print("no jobs (TRUE?, VALID?, WHERE?) in the file")
    for result in results:
        console.print(_job_line(result))


def evaluate(
    formula: Annotated[
        str, typer.Argument(help="A formula in SMCDEL syntax, e.g. 'alice knows that 2'.")
    ],
    file: Annotated[
        str, typer.Option("--file", "-f", help="The SMCDEL file that gives the structure.")
    ],
    state: Annotated[
        str | None,
        typer.Option("--state", "-s", help="Only the truth at this state, e.g. 1,2 or {}."),
    ] = None,
    engine: EngineOption = "auto",
) -> None:
    """Evaluate one formula (SMCDEL syntax) on the structure of an SMCDEL file.

    Prints whether it is valid and the states where it holds; with --state, only
    whether it is true at that state. The file's own jobs are not run.
    """
    data = load(file)
    f = parse_smcdel_formula(formula, data.variables, data.agents)
    if state is not None:
        key = parse_state(state)
        typer.echo(f"{state_text(key)}: {data.true_at(key, f, engine)}")
        return
    valid = data.valid(f, engine)
    where = data.where(f, engine)
    typer.echo(f"valid: {valid}")
    typer.echo("where: [" + ",".join(state_text(s) for s in where) + "]")


def parse_command(
    formula: Annotated[str, typer.Argument(help="A formula, e.g. 'K_a p & ~K_b p'.")],
    latex: Annotated[bool, typer.Option("--latex", help="Also print it as LaTeX.")] = False,
    smcdel: Annotated[
        bool, typer.Option("--smcdel", help="Read SMCDEL's syntax instead of epigames'.")
    ] = False,
) -> None:
    """Parse a formula and print it back in epigames' normal form.

    Handy to check how a formula was read: the output is fully determined by the
    formula's structure (canonical operators, only needed parentheses). A typing
    mistake shows where it is, with a caret.
    """
    f = parse_smcdel_formula(formula) if smcdel else parse(formula)
    typer.echo(str(f))
    if latex:
        typer.echo(f.to_latex())


def register(app: typer.Typer) -> None:
    """Add the `logic` command group."""
    logic = typer.Typer(
        name="logic",
        help="Epistemic logic: check SMCDEL files, evaluate and parse formulas.",
        no_args_is_help=True,
    )
    app.add_typer(logic)
    logic.command("check")(check)
    logic.command("eval")(evaluate)
    logic.command("parse")(parse_command)
