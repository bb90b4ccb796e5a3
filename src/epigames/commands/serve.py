"""`epigames serve`: the web app (watch, play, Kripke pictures, tournaments) with uvicorn."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from epigames.errors import InputError


def serve(
    host: Annotated[str, typer.Option(help="Address to bind (loopback by default).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    db_dir: Annotated[
        Path | None,
        typer.Option("--db-dir", help="Directory of tournament result files (*.duckdb)."),
    ] = None,
    tables: Annotated[
        Path | None,
        typer.Option(
            "--tables",
            help="SQLite file of the tables people play together (made if missing): they "
            "survive a restart. Default: in memory only.",
        ),
    ] = None,
    max_games: Annotated[
        int,
        typer.Option(
            min=1,
            max=100_000,
            help="Most games held in memory (least recently used go first).",
        ),
    ] = 200,
    idle_minutes: Annotated[
        float,
        typer.Option(
            min=0.1,
            max=7 * 24 * 60,
            help="Evict a game unused for this many minutes (at most a week).",
        ),
    ] = 15.0,
) -> None:
    """Serve the web app: watch and play games, see Kripke models, browse tournaments."""
    try:
        import uvicorn  # noqa: F401  (the web extra: checked here for a clear message)

        from epigames.web.app import create_app, serve as serve_app
        from epigames.web.budget import PlayBudget
    except ImportError as exc:
        raise InputError(
            f"the web app needs the 'web' extra ({exc.name} is missing); "
            "install it with: pip install 'epigames[web]'"
        ) from None
    if db_dir is not None and not db_dir.is_dir():
        raise InputError(f"--db-dir {db_dir} is not a directory")
    # This process is the server's own: plays may freeze the collector's objects.
    budget = PlayBudget(freeze=True)
    web = create_app(
        db_dir,
        tables_db=tables,
        max_sessions=max_games,
        idle_seconds=idle_minutes * 60,
        budget=budget,
    )
    typer.echo(f"epigames web app on http://{host}:{port}/ (Ctrl-C stops it)")
    serve_app(web, host, port)


def register(app: typer.Typer) -> None:
    """Add the `serve` command."""
    app.command("serve")(serve)
