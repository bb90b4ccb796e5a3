"""`epigames schema GAME`: the JSON Schema of `epigames play GAME --json`, or its fields in
Markdown; `--write DIR` writes both for every registered game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from epigames.errors import InputError
from epigames.games import registered_games
from epigames.games.schema import schema_markdown, transcript_schema


def register(app: typer.Typer) -> None:
    """Add the `schema` command."""
    app.command("schema", epilog=f"Games: {', '.join(registered_games())}.")(schema)


def schema_text(game: str) -> str:
    """The schema as `epigames schema` prints and writes it: indented JSON, a final newline."""
    return json.dumps(transcript_schema(game), indent=1, ensure_ascii=False) + "\n"


def write_all(folder: Path) -> list[Path]:
    """Write `GAME.schema.json` and `GAME.md` for every registered game into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in registered_games():
        for path, text in (
            (folder / f"{name}.schema.json", schema_text(name)),
            (folder / f"{name}.md", schema_markdown(name)),
        ):
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def schema(
    game: Annotated[
        str,
        typer.Argument(help="The game (its name; parameters do not change the schema)."),
    ] = "",
    markdown: Annotated[
        bool,
        typer.Option("--markdown", help="Print every line's and event's fields as Markdown."),
    ] = False,
    write: Annotated[
        str,
        typer.Option(
            "--write",
            metavar="DIR",
            help="Write GAME.schema.json and GAME.md for every registered game into DIR "
            "(the docs keep theirs in docs/schema).",
        ),
    ] = "",
) -> None:
    """Print the JSON Schema of a line of 'epigames play GAME --json'.

    Made from the types that write the lines: the transcript's line types and the game's
    event classes, with every field's meaning from their docstrings.
    """
    if write:
        for path in write_all(Path(write)):
            typer.echo(f"wrote {path}")
        return
    if not game:
        raise InputError(
            f"name a game ({', '.join(registered_games())}) or give --write DIR for all"
        )
    typer.echo(schema_markdown(game) if markdown else schema_text(game), nl=False)
