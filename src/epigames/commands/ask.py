"""`epigames ask GAME --seed S --at STEP FORMULA`: a formula about card holders or dice."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from epigames.cards.symbolic import MAX_COMBINATIONS
from epigames.commands.play import strategy_names
from epigames.errors import InputError
from epigames.games import load_game, registered_games
from epigames.games.ask import ask as ask_state, card_structure
from epigames.games.core import State
from epigames.games.steps import match_at

#: From this many hand-size combinations on, building a structure takes seconds: say so.
SLOW_COMBINATIONS = 20_000

#: More decisions than any match of the registered games makes within its caps.
MAX_STEP = 10_000_000


def _own_atoms() -> str:
    """The atoms of the games that ask in their own way (`Game.asking`), for the help."""
    said = []
    for name in registered_games():
        own = load_game(name).asking
        if own is not None:
            said.append(f"{name.capitalize()}: atoms {own.atoms}.")
    return " ".join(said)


def register(app: typer.Typer) -> None:
    """Add the `ask` command."""
    app.command("ask")(ask)


def ask(
    game: Annotated[str, typer.Argument(help="The game, e.g. kwartet or 'klaverjas(ranks=3)'.")],
    formula: Annotated[
        str,
        typer.Argument(
            help="An epistemic formula, seats by number or name. Card games: atoms "
            "holds(HOLDER, CARD), e.g. 'K_1 ~holds(2, A♥) & ~K_2 K_1 ~holds(2, A♥)'; cards "
            f"also in ASCII (AH, TS for 10♠, <2,2> or 2,2 for ⟨2,2⟩). {_own_atoms()}"
        ),
    ],
    seed: Annotated[
        int,
        typer.Option("--seed", "-s", min=0, max=2**63 - 1, help="Match seed, as for play."),
    ] = 0,
    at: Annotated[
        int,
        typer.Option(
            "--at",
            min=0,
            max=MAX_STEP,
            help="The state after this many decisions (0: when the first is to be made).",
        ),
    ] = 0,
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            help="One strategy per seat, comma-separated (default: the game's default agent "
            "at every seat, as for play).",
        ),
    ] = "",
    limit: Annotated[
        int,
        typer.Option(
            "--limit",
            min=0,
            max=10**9,
            help="Card games: the most combinations of the holders' numbers of unknown "
            "cards to build the knowledge structure for at first (0: no limit); past it a "
            "smaller exact model of the formula's cards is used (docs/logic.md, Limits). "
            "No limit builds six-player Kwartet at the deal (810,000) in minutes and "
            "gigabytes.",
        ),
    ] = MAX_COMBINATIONS,
) -> None:
    """Replay a seeded match to a step and answer a formula about its cards or dice.

    Prints whether the formula is true in the true deal (or roll) and which seats know it,
    from the deals (rolls) consistent with the public information and each seat's own
    observations (its hand; what it saw under the cup). Exact: card formulas are model
    checked on a quotient model of the cards they name where one is exact (checked), else
    on a knowledge structure (BDDs); dice formulas on the cup's Kripke model.
    """
    loaded = load_game(game)
    match = match_at(loaded, strategy_names(players, loaded), seed, at)
    with Console(stderr=True).status(_building(match.state, limit or None)):
        answer = ask_state(match.state, formula, limit or None)
    seats = loaded.seat_names
    typer.echo(f"{loaded}  seed {seed}  after step {at}")
    typer.echo(f"{answer.formula}: {'true' if answer.value else 'false'}")
    knowers = ", ".join(seats[s] for s in answer.knowers) or "no seat"
    typer.echo(f"known by: {knowers}")
    typer.echo(f"{answer.kind} consistent with the public information: {answer.worlds}")


def _building(state: State, limit: int | None) -> str:
    """What the spinner says while the answer is worked out (the size of a large build)."""
    if state.game.card_layout is None:  # dice: the cup's small model
        return "Answering…"
    try:
        combinations = card_structure(state).hand_size_combinations()
    except InputError:  # no deal yet: `ask` says so
        return "Answering…"
    if combinations < SLOW_COMBINATIONS or (limit is not None and combinations > limit):
        return "Answering…"
    return (
        f"Building the knowledge structure: {combinations:,} combinations of the holders' "
        "numbers of unknown cards (about 30 s at 200,000, minutes at 800,000)…"
    )
