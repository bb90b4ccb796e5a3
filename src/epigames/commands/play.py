"""`epigames play GAME`: play one match and print its transcript, whole or as one seat sees it."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from epigames.errors import InputError
from epigames.games import (
    CHANCE,
    Event,
    MatchResult,
    TranscriptEntry,
    load_game,
    play_match,
    registered_games,
    strategies_for,
)


def register(app: typer.Typer) -> None:
    """Add the `play` command."""
    listing = "; ".join(
        f"{g} (strategies: {', '.join(strategies_for(g))})" for g in registered_games()
    )

    @app.command("play", epilog=f"Games: {listing}.")
    def play(
        game: Annotated[
            str,
            typer.Argument(
                help="The game, e.g. kwartet or 'kwartet(players=3,kinds=5,ask_own=false)'."
            ),
        ],
        players: Annotated[
            str,
            typer.Option(
                "--players",
                "-p",
                help="One strategy per seat, comma-separated in seat order "
                "(e.g. random,random,random,random); default: random at every seat.",
            ),
        ] = "",
        seed: Annotated[
            int, typer.Option("--seed", "-s", help="Match seed: same seed, same game.")
        ] = 0,
        seat: Annotated[
            str,
            typer.Option(
                "--seat",
                help="Show only what this seat sees (number or name, e.g. 1 or West): its "
                "own hand, the public events and its own thoughts.",
            ),
        ] = "",
        as_json: Annotated[
            bool,
            typer.Option(
                "--json",
                help="Print JSON lines: a header, every event (full content), every "
                "decision, and a final result line.",
            ),
        ] = False,
    ) -> None:
        """Play one match and print the transcript: requests, answers, thoughts, scores."""
        loaded = load_game(game)
        viewer = loaded.seat_index(seat) if seat else None
        names = _strategy_names(players, loaded.num_players)
        result = play_match(str(loaded), names, seed)
        if as_json:
            for line in json_lines(result, viewer):
                typer.echo(json.dumps(line))
        else:
            # soft_wrap: one line per event, however wide, so transcripts grep and diff well
            print_transcript(Console(highlight=False, soft_wrap=True), result, viewer)


def _strategy_names(players: str, seats: int) -> list[str]:
    if not players.strip():
        return ["random"] * seats
    names = [n.strip() for n in players.split(",")]
    if not all(names):
        raise InputError(f"--players {players!r} has an empty name; expected NAME,NAME,…")
    return names


def json_lines(result: MatchResult, viewer: int | None) -> list[dict[str, Any]]:
    """The JSON-lines transcript of a `MatchResult`; with `viewer`, only what that seat sees.

    Each decision comes just before the first event it caused; other seats' decisions
    (their thoughts) are left out for a viewer, their effects show in the public events.
    """
    game = load_game(result.game)
    lines: list[dict[str, Any]] = [
        {
            "type": "match",
            "game": result.game,
            "seed": result.seed,
            "seats": list(game.seat_names),
            "strategies": list(result.strategies),
            "viewer": viewer,
        }
    ]

    def decision(move: int, entry: TranscriptEntry) -> None:
        if viewer is None or entry.seat == viewer:
            action = game.action_to_string(entry.action)
            lines.append(
                {
                    "type": "decision",
                    "move": move,
                    "seat": entry.seat,
                    "action": action,
                    "thought": entry.thought,
                }
            )

    pending = list(enumerate(result.transcript, 1))[::-1]  # popped from the end, in order
    for index, event in enumerate(result.events):
        while pending and pending[-1][1].first_event <= index:
            decision(*pending.pop())
        if viewer is None or event.visible_to(viewer):
            lines.append({"type": "event", "index": index, **event.to_dict()})
    while pending:
        decision(*pending.pop())
    lines.append(
        {
            "type": "result",
            "returns": list(result.returns),
            "winners": list(result.winners),
            "moves": result.moves,
        }
    )
    return lines


def print_transcript(console: Console, result: MatchResult, viewer: int | None) -> None:
    """Print a readable transcript; with `viewer`, only what that seat observes and thinks.

    The match is replayed from its history so that, for a seat, its own situation is read
    from its `View` (built from its observations), never from the true state.
    """
    game = load_game(result.game)
    names = game.seat_names
    title = Text(f"{result.game}", style="bold")
    title.append(f"  seed {result.seed}", style="dim")
    if viewer is not None:
        title.append(f"  as seen by {names[viewer]}", style="bold cyan")
    console.print(title)
    console.print(
        "Seats: " + " · ".join(f"{n} ({s})" for n, s in zip(names, result.strategies, strict=True))
    )
    state = game.new_initial_state()
    decisions = iter(result.transcript)  # one entry per non-chance action, in order
    shown = 0  # events printed or skipped so far
    summary = ""
    move = 0
    for action in result.history:
        if state.current_player >= 0:
            entry = next(decisions)
            move += 1
            if viewer is None or entry.seat == viewer:
                line = Text(f"{move:>4}  ", style="dim")
                line.append(f"{names[entry.seat]} thinks: ", style="italic")
                line.append(entry.thought, style="italic magenta")
                console.print(line)
        state.apply(action)
        for event in state.events[shown:]:
            if viewer is None or event.visible_to(viewer):
                _print_event(console, event, private=not event.public)
        shown = len(state.events)
        if viewer is not None and state.current_player != CHANCE:
            view = state.observation(viewer)
            if view.summary() != summary:
                summary = view.summary()
                console.print(Text(f"      {names[viewer]}: {summary}", style="cyan"))
            # Hook for --trace-knowledge: print what `view.knowledge` (epigames.cards)
            # newly knows here, once views carry knowledge.
    _print_scores(console, result, names)


def _print_event(console: Console, event: Event, private: bool) -> None:
    style = {"ask": "", "quartet": "bold green", "end": "bold", "out": "yellow"}.get(event.kind, "")
    prefix = "      (private) " if private else "      "
    console.print(Text(prefix + event.text, style="cyan" if private else style))


def _print_scores(console: Console, result: MatchResult, names: tuple[str, ...]) -> None:
    table = Table(title=f"Final scores after {result.moves} moves", title_justify="left")
    table.add_column("seat")
    table.add_column("strategy")
    table.add_column("points", justify="right")
    table.add_column("")
    for seat, (name, strategy) in enumerate(zip(names, result.strategies, strict=True)):
        mark = "winner" if seat in result.winners else ""
        table.add_row(name, strategy, f"{result.returns[seat]:g}", mark)
    console.print(table)
