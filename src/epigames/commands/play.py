"""`epigames play GAME`: play one match and print its transcript, whole or as one seat sees it."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from epigames.errors import InputError
from epigames.games import (
    CHANCE,
    Event,
    Game,
    Match,
    MatchResult,
    State,
    TranscriptEntry,
    View,
    load_game,
    registered_games,
    split_strategy_names,
    strategy_choices,
)
from epigames.games.transcript import (
    FORMAT,
    ChanceLine,
    DecisionLine,
    MatchLine,
    ResultLine,
    event_line,
    knowledge_record,
)


def register(app: typer.Typer) -> None:
    """Add the `play` command (its help lists every registered game and its strategies)."""
    listing = "; ".join(
        f"{g} (strategies: {', '.join(strategy_choices(g))})" for g in registered_games()
    )
    app.command("play", epilog=f"Games: {listing}.")(play)


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
            "(e.g. random,random,random,random); default: the game's default agent at "
            "every seat (random; greedy in Kemps, whose random games run to the turn cap).",
        ),
    ] = "",
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            "-s",
            # the range of tournament seeds (DuckDB BIGINT), so any stored game replays
            min=0,
            max=2**63 - 1,
            help="Match seed: same seed, same game.",
        ),
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
            help="Print JSON lines: a header (with the holders that the facts' location "
            "codes number), then per step (every chance outcome and decision, numbered "
            "from 1) its chance or decision line (with the legal actions) and its events, "
            "and a result line; 'epigames schema GAME' prints their JSON Schema and "
            "'epigames replay FILE' re-runs such a file.",
        ),
    ] = False,
    trace_knowledge: Annotated[
        bool,
        typer.Option(
            "--trace-knowledge",
            help="After each move, print what each agent (only the --seat one, if given) "
            "knows: the cards whose holder it knows and the number of deals (worlds) it "
            "considers possible. With --json, as 'knowledge' lines.",
        ),
    ] = False,
    trace_full: Annotated[
        bool,
        typer.Option(
            "--trace-knowledge-full",
            help="--trace-knowledge, and in a card game every card's possible places with "
            "their exact probabilities.",
        ),
    ] = False,
) -> None:
    """Play one match and print the transcript: requests, answers, thoughts, scores.

    After each request the transcript names the facts each agent newly learned (with
    --seat only that seat's), e.g. "North now knows East holds ⟨8,4⟩".
    """
    detail = "full" if trace_full else "known" if trace_knowledge else None
    loaded = load_game(game)
    viewer = loaded.seat_index(seat) if seat else None
    names = strategy_names(players, loaded)
    match = Match(loaded, names, seed)
    if as_json:
        for line in json_lines(match, viewer, trace_knowledge=detail):
            typer.echo(json.dumps(line))
    else:
        # soft_wrap: one line per event, however wide, so transcripts grep and diff well
        console = Console(highlight=False, soft_wrap=True)
        print_transcript(console, match, viewer, trace_knowledge=detail)


def strategy_names(players: str, game: Game) -> list[str]:
    """The names in a `--players` text (commas inside parentheses kept); by default the
    game's `default_strategy` at every seat."""
    if not players.strip():
        return [game.default_strategy] * game.num_players
    names = split_strategy_names(players)
    if not all(names):
        raise InputError(f"--players {players!r} has an empty name; expected NAME,NAME,…")
    return names


#: What one agent knows after a move: subject → value (card → holder name, cup → roll).
Known = dict[str, str]


def known_facts(view: View) -> Known:
    """What a view's own knowledge says (`Knowledge.known_values`): subject → its known value.

    Call it only once the deal is over. Only the view is read, so nothing outside the
    seat's observations can appear.
    """
    return view.knowledge.known_values()


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a match, with what the shown agents know after it.

    Attributes:
        state: the live state right after the action (it changes at the next step).
        number: the step's number: every action applied, chance outcomes included, from 1
            (`state.history[number - 1]` is the action).
        entry: the decision, None for a chance outcome.
        events: the indices (into `state.events`) of the events the action caused.
        known: agent seat → `known_facts` after the action, for the agents shown; empty
            while nobody has knowledge (during the deal) or when not asked for.
        records: agent seat → `knowledge_record` at the asked detail, like `known`.
        legal: the legal actions (as texts) the deciding seat chose from, when asked for;
            empty for a chance outcome.
    """

    state: State
    number: int
    entry: TranscriptEntry | None
    events: range
    known: dict[int, Known]
    records: dict[int, dict[str, Any]]
    legal: list[str]


def match_steps(
    match: Match,
    agents: Sequence[int],
    knowledge: bool,
    detail: str | None = None,
    *,
    legal: bool = False,
) -> Iterator[Step]:
    """Play a match action by action; with `knowledge`, read each agent's view after each
    (with `detail`, also its `knowledge_record`); with `legal`, note each decision's legal
    actions before it is made.

    Only `agents`' views are built, so with one seat nothing derived from other seats'
    hands is computed at all.
    """
    state = match.state
    game = match.game
    while not match.over:
        start = len(state.events)
        choices = (
            [game.action_to_string(a) for a in state.legal_actions()]
            if legal and state.current_player != CHANCE
            else []
        )
        entry = match.step_action()
        known: dict[int, Known] = {}
        records: dict[int, dict[str, Any]] = {}
        if (knowledge or detail) and state.current_player != CHANCE:
            for seat in agents:
                view = state.observation(seat)
                if detail:
                    records[seat] = knowledge_record(match.game, view.knowledge, detail)
                    known[seat] = records[seat]["known"]
                else:
                    known[seat] = known_facts(view)
        number = len(state.history)
        yield Step(state, number, entry, range(start, len(state.events)), known, records, choices)


def newly_known(before: Known | None, after: Known, seat_name: str) -> dict[str, list[str]]:
    """Value → subjects whose value `seat_name` knows now but did not before.

    A subject counts when its known value is new (unknown before, or it moved). The
    agent's own cards are left out (it always knows those).
    """
    new: dict[str, list[str]] = {}
    for subject, value in after.items():
        if value != seat_name and (before is None or before.get(subject) != value):
            new.setdefault(value, []).append(subject)
    return new


def knowledge_detail(trace_knowledge: bool | str | None) -> str | None:
    """The detail of `--trace-knowledge` (`known` or `full`), None when not asked for."""
    if trace_knowledge is True:
        return "known"
    return trace_knowledge or None


def transcript_header(match: Match, viewer: int | None) -> MatchLine:
    """The `match` line: the game, seed, seats, strategies, viewer, and what the facts'
    holder codes mean (`holder_labels`: seats first, then a card game's piles; `holders`:
    the short names knowledge lines use)."""
    game = match.game
    header: MatchLine = {
        "type": "match",
        "format": FORMAT,
        "game": str(game),
        "seed": match.seed,
        "seats": list(game.seat_names),
        "strategies": list(match.strategies),
        "viewer": viewer,
        "holder_labels": list(game.holder_labels),
    }
    layout = game.card_layout
    if layout is not None:
        header["holders"] = list(layout.holders)
    return header


def json_lines(
    match: Match, viewer: int | None, *, trace_knowledge: bool | str | None = None
) -> list[dict[str, Any]]:
    """Play a match and return its JSON-lines transcript; with `viewer`, what that seat sees.

    Every line after the header carries its step: the number of the action (chance outcome
    or decision) that caused it, from 1. A step's `chance` line (full transcripts only:
    the outcomes are hidden from a seat) or `decision` line comes first, then the events it
    caused; other seats' decisions (their thoughts) are left out for a viewer, their
    effects show in the public events. With `trace_knowledge` (`known`, `full`, or True
    for `known`), a `knowledge` line follows the last event of every action once the deal
    is over: for each agent (only `viewer` when given), its `knowledge_record`.
    """
    game = match.game
    names = game.seat_names
    lines: list[dict[str, Any]] = [dict(transcript_header(match, viewer))]
    agents = range(game.num_players) if viewer is None else [viewer]
    events = match.state.events
    history = match.state.history
    detail = knowledge_detail(trace_knowledge)
    for step in match_steps(match, agents, False, detail, legal=True):
        entry, number = step.entry, step.number
        if entry is None and viewer is None:
            outcome = game.action_to_string(history[number - 1])
            chance: ChanceLine = {"type": "chance", "step": number, "outcome": outcome}
            lines.append(dict(chance))
        if entry is not None and (viewer is None or entry.seat == viewer):
            decision: DecisionLine = {
                "type": "decision",
                "step": number,
                "seat": entry.seat,
                "action": game.action_to_string(entry.action),
                "legal": step.legal,
                "thought": entry.thought.text,
            }
            lines.append(dict(decision))
        for index in step.events:
            event = events[index]
            if viewer is None or event.visible_to(viewer):
                lines.append(event_line(number, event.to_dict()))
        if step.records and step.events:
            lines.append(
                {
                    "type": "knowledge",
                    "step": number,
                    **{
                        key: {names[seat]: record[key] for seat, record in step.records.items()}
                        for key in step.records[agents[0]]
                    },
                }
            )
    result = match.result()
    end: ResultLine = {
        "type": "result",
        "returns": list(result.returns),
        "winners": list(result.winners),
        "moves": result.moves,
    }
    lines.append(dict(end))
    return lines


def print_transcript(
    console: Console,
    match: Match,
    viewer: int | None,
    *,
    trace_knowledge: bool | str | None = None,
) -> None:
    """Play a match and print a readable transcript; with `viewer`, only what that seat sees.

    For a seat, its own situation and knowledge are read from its `View` (built from its
    observations) after every action, never from the true state. After each request, every
    agent's newly learned facts (only the viewer's when given); with `trace_knowledge`
    (`known`, `full`, or True for `known`), also each such agent's `knowledge_record`,
    whenever that changed.
    """
    game = match.game
    names = game.seat_names
    title = Text(f"{game}", style="bold")
    title.append(f"  seed {match.seed}", style="dim")
    if viewer is not None:
        title.append(f"  as seen by {names[viewer]}", style="bold cyan")
    console.print(title)
    console.print(
        "Seats: " + " · ".join(f"{n} ({s})" for n, s in zip(names, match.strategies, strict=True))
    )
    agents = range(game.num_players) if viewer is None else [viewer]
    summary = ""
    before: dict[int, Known] = {}
    shown: dict[int, dict[str, Any]] = {}
    events = match.state.events
    detail = knowledge_detail(trace_knowledge)
    for step in match_steps(match, agents, knowledge=True, detail=detail):
        entry = step.entry
        if entry is not None and (viewer is None or entry.seat == viewer):
            line = Text(f"{step.number:>4}  ", style="dim")
            line.append(f"{names[entry.seat]} thinks: ", style="italic")
            line.append(entry.thought.text, style="italic magenta")
            console.print(line)
        for index in step.events:
            event = events[index]
            if viewer is None or event.visible_to(viewer):
                _print_event(console, event, private=not event.public)
        if viewer is not None and step.state.current_player != CHANCE:
            view = step.state.observation(viewer)
            if view.summary() != summary:
                summary = view.summary()
                console.print(Text(f"      {names[viewer]}: {summary}", style="cyan"))
        if entry is not None:
            for seat, known in step.known.items():
                _print_learned(
                    console, names[seat], newly_known(before.get(seat), known, names[seat])
                )
        if detail and step.events:
            for seat, record in step.records.items():
                if record != shown.get(seat):  # compact: only when it changed
                    _print_known(console, names[seat], record)
            shown = step.records or shown
        if step.known:
            before = step.known
    _print_scores(console, match.result(), names)


def _print_learned(console: Console, name: str, new: dict[str, list[str]]) -> None:
    if new:
        console.print(Text(f"      {name} now knows {_grouped(new)}.", style="green"))


def _print_known(console: Console, name: str, record: dict[str, Any]) -> None:
    """`[West knows] 2♣: table; 5♦: South (1,234 deals)`, then with `full` a line per card
    still in doubt: its possible places and their exact probabilities."""
    by_value: dict[str, list[str]] = {}
    for subject, value in record["known"].items():
        by_value.setdefault(value, []).append(subject)
    worlds = record["worlds"]
    said = f"[{name} knows] {_grouped(by_value) or 'nothing'} ({worlds:,} worlds)"
    console.print(Text(f"      {said}", style="dim"))
    for card, places in record.get("possible", {}).items():
        if len(places) > 1:
            chances = ", ".join(f"{holder} {p}" for holder, p in places.items())
            console.print(Text(f"        {card}: {chances}", style="dim"))


def _grouped(by_value: dict[str, list[str]]) -> str:
    """`⟨8,4⟩ ⟨8,3⟩: West; cup: 653`: subjects grouped by their known value."""
    return "; ".join(f"{' '.join(subjects)}: {value}" for value, subjects in by_value.items())


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
