"""`epigames replay FILE`: re-run a JSON-lines transcript through the rules; where it differs."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from epigames.errors import InputError
from epigames.games.transcript import check_transcript


def register(app: typer.Typer) -> None:
    """Add the `replay` command."""
    app.command("replay")(replay)


def replay(
    file: Annotated[
        str,
        typer.Argument(
            help="A transcript written by 'epigames play GAME --json' (without --seat), or - "
            "for standard input.",
        ),
    ],
) -> None:
    """Re-run a transcript's chance outcomes and decisions through the rules of its game.

    Every step's events and the final result must be the ones the transcript holds. Prints
    the number of steps replayed and exits 0 when they agree; prints the first step where
    they differ and exits 1. A file that is not such a transcript is an error (exit 2).
    Thoughts and knowledge lines are not checked: no strategy is run.
    """
    if file == "-":
        source, lines = "standard input", sys.stdin.read().splitlines()
    else:
        path = Path(file)
        source = str(path)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise InputError(
                f"cannot read transcript {file!r}: {reason}; expected a file written by "
                "'epigames play GAME --json'"
            ) from None
    report = check_transcript(lines, source)
    if report.difference is None:
        typer.echo(
            f"{source}: {report.steps} steps of {report.game} replayed; every event and "
            "the result agree."
        )
        return
    typer.echo(f"{source} differs from the rules of {report.game} at {report.difference}")
    raise typer.Exit(1)
