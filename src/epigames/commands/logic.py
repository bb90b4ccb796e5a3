"""`epigames logic …`: check SMCDEL files, evaluate and parse formulas."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from epigames.errors import InputError
from epigames.logic.puzzles.common import Solution
from epigames.logic.smcdel import (
    AUTO_SYMBOLIC_ABOVE,
    MAX_VARIABLES,
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


#: The most children `logic puzzle muddy` takes (the symbolic story of 100 takes seconds,
#: of 300 some minutes).
MAX_CHILDREN = 300


def parse_children(text: str | None, n: int, what: str = "muddy children") -> list[int]:
    """Children (or logicians) typed as `1,3,5` (an empty text: none; None: all of 1..n)."""
    if text is None:
        return list(range(1, n + 1))
    try:
        return sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise InputError(
            f"bad list of {what} {text!r}; expected numbers 1..{n} separated by commas, e.g. 1,3"
        ) from None


def _children_text(children: frozenset[int] | list[int]) -> str:
    """`1-3, 5` for children 1, 2, 3 and 5 (runs of three or more as ranges)."""
    parts: list[str] = []
    ordered = sorted(children)
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{ordered[i]}-{ordered[j]}")
        else:
            parts.extend(str(c) for c in ordered[i : j + 1])
        i = j + 1
    return ", ".join(parts) or "none"


def _who_knows(children: frozenset[int]) -> str:
    if not children:
        return "nobody knows"
    if len(children) == 1:
        return f"child {_children_text(children)} knows"
    return f"children {_children_text(children)} know"


def _how_many(flag: str, who: str) -> Any:
    """The option for a puzzle's number of agents (`-n`)."""
    return typer.Option(flag, "-n", min=1, max=MAX_CHILDREN, help=f"How many {who}.")


def _which(flag: str, short: str, who: str) -> Any:
    """The option for which agents a puzzle picks out, as numbers from 1."""
    return typer.Option(flag, short, help=f"{who}, e.g. 1,3 (default: all).")


def puzzle_muddy(
    children: Annotated[int, _how_many("--children", "children")] = 3,
    muddy: Annotated[str | None, _which("--muddy", "-m", "The muddy children")] = None,
    engine: Annotated[
        str,
        typer.Option(
            "--engine",
            "-e",
            help="symbolic (knowledge structures on BDDs, any number of children) or "
            "explicit (a Kripke model of 2^n worlds, at most 20 children).",
        ),
    ] = "symbolic",
) -> None:
    """The muddy children: the father's announcement, then rounds of silence.

    The father says "at least one of you is muddy"; then, as long as no child
    knows whether it is muddy, everyone announces "nobody knows". Prints each
    announcement, the states left and who then knows; with m muddy children the
    muddy ones know after m announcements.
    """
    # Imported here: building the puzzle commands should not load the BDD package.
    from epigames.logic.puzzles.muddy_children import (
        muddy_children_story,
        play_symbolic_muddy_children,
    )

    if engine not in ("symbolic", "explicit"):
        raise InputError(f"unknown engine {engine!r}; choose one of: symbolic, explicit")
    if engine == "explicit" and children > MAX_VARIABLES:
        raise InputError(
            f"the explicit engine takes at most {MAX_VARIABLES} children (2^n worlds), got "
            f"{children}; use --engine symbolic"
        )
    chosen = parse_children(muddy, children)
    if not chosen:
        raise InputError("nobody is muddy, so the father's announcement would be false")
    if engine == "symbolic":
        symbolic = play_symbolic_muddy_children(children, chosen)
        rounds = symbolic.rounds
        what = f"symbolic engine, {symbolic.structure.manager.backend}"
    else:
        rounds = muddy_children_story(children, chosen).rounds
        what = "explicit engine"
    typer.echo(f"{children} children, muddy: {_children_text(chosen)} ({what})")
    for k, r in enumerate(rounds, 1):
        said = "father: at least one of you is muddy" if k == 1 else "everyone: nobody knows"
        states = f"{r.worlds:,}" if r.worlds < 10**9 else f"{r.worlds:.3g}"
        plural = "state" if r.worlds == 1 else "states"
        typer.echo(f"round {k}: {said}; {states} {plural} left; {_who_knows(r.knowers)}")
    count = len(rounds)
    knowers = rounds[-1].knowers
    what_known = "they are muddy" if knowers == frozenset(chosen) else "whether they are muddy"
    if len(knowers) == 1:
        what_known = what_known.replace("they are", "it is")
    typer.echo(
        f"answer: after {count} announcement{'s' if count > 1 else ''}, "
        f"{_who_knows(knowers)} {what_known}"
    )


_T = TypeVar("_T")


def _print_solution(title: str, solution: Solution[_T], show: Callable[[_T], str]) -> None:
    """A solved puzzle: its worlds, each statement with the worlds left, the answers."""
    typer.echo(f"{title}: {solution.initial.size:,} possibilities")
    for k, step in enumerate(solution.steps, 1):
        left = step.model.size
        typer.echo(f'{k}. {step.speaker}: "{step.says}"; {left:,} left')
    answers = [show(a) for a in solution.answers]
    if not answers:
        typer.echo("answer: none; no possibility survives every statement")
    elif len(answers) == 1:
        typer.echo(f"answer: {answers[0]}")
    else:
        typer.echo(f"answers ({len(answers)}): {', '.join(answers)}")


def puzzle_cheryl() -> None:
    """Cheryl's birthday: Albert knows the month, Bernard the day; three statements."""
    from epigames.logic.puzzles import cheryl_birthday

    _print_solution("Cheryl's birthday", cheryl_birthday(), str)


def puzzle_sum_and_product(
    limit: Annotated[
        int,
        typer.Option("--limit", min=5, max=400, help="The bound on x + y (published: 100)."),
    ] = 100,
) -> None:
    """Freudenthal's Sum and Product: S knows x + y, P knows x·y, 2 <= x < y, x + y <= limit."""
    from epigames.logic.puzzles import sum_and_product

    def pair(a: tuple[int, int]) -> str:
        return f"x = {a[0]}, y = {a[1]}"

    _print_solution(f"Sum and Product, x + y <= {limit}", sum_and_product(limit), pair)


def puzzle_drinking(
    logicians: Annotated[int, _how_many("--logicians", "logicians")] = 3,
    thirsty: Annotated[str | None, _which("--thirsty", "-t", "Who wants a beer")] = None,
) -> None:
    """Logicians at a bar: "does everyone want a beer?", answered in turn (symbolic engine)."""
    from epigames.logic.puzzles import drinking_logicians

    chosen = parse_children(thirsty, logicians, "thirsty logicians")
    story = drinking_logicians(logicians, chosen)
    typer.echo(f"{logicians} logicians, thirsty: {_children_text(chosen)}")
    typer.echo('bartender: "Does everyone want a beer?"')
    for i, answer, states in story.answers:
        plural = "state" if states == 1 else "states"
        typer.echo(f'logician {i}: "{answer}"; {states:,} {plural} left')
    typer.echo(f"answer: {story.answers[-1][1]}")


def _hands(text: str, option: str) -> list[str]:
    hands = [h.strip() for h in text.split(",") if h.strip()]
    if not hands or not all(h.isdigit() and set(h) <= set("0123456") for h in hands):
        raise InputError(
            f"bad {option} {text!r}; expected hands of cards 0..6 separated by commas, e.g. 012,034"
        )
    return hands


def puzzle_russian(
    hands: Annotated[
        str,
        typer.Option("--hands", help="The hands Anne says hers is one of, e.g. 012,034."),
    ] = "012,034,056,135,146,236,245",
    deal: Annotated[
        str,
        typer.Option("--deal", help="The actual deal: Anne's, Bob's and Cath's hands."),
    ] = "012,345,6",
) -> None:
    """Russian cards (3-3-1): Anne announces her hand is one of some; is that safe?"""
    from epigames.errors import ModelError
    from epigames.logic.puzzles import russian_cards

    said = _hands(hands, "--hands")
    dealt = _hands(deal, "--deal")
    if len(dealt) != 3:
        raise InputError(f"bad --deal {deal!r}; expected three hands: Anne's, Bob's, Cath's")
    result = russian_cards(said, (dealt[0], dealt[1], dealt[2]))
    yes = {True: "yes", False: "no"}
    typer.echo(
        f"Russian cards: {result.initial.size} deals; actual: Anne {dealt[0]}, "
        f"Bob {dealt[1]}, Cath {dealt[2]}"
    )
    typer.echo(f'anne: "my hand is one of {", ".join(said)}"; {result.after.size} deals left')
    typer.echo(f"informative (Bob then knows Anne's hand, everywhere): {yes[result.informative]}")
    typer.echo(f"safe (Cath learns no card she does not hold): {yes[result.safe]}")
    typer.echo(f"common knowledge of both: {yes[result.common_knowledge]}")
    try:
        reply = result.bob_reply()
        typer.echo(f'bob: "Cath holds {dealt[2]}"; {reply.size} deals left')
    except ModelError:
        typer.echo("bob: does not know Cath's card")
    verdict = "a good announcement" if result.good else "not a good announcement"
    typer.echo(f"answer: {verdict}")


def puzzle_dining(
    cryptographers: Annotated[
        int,
        typer.Option("--cryptographers", "-n", min=3, max=100, help="How many at the table."),
    ] = 3,
    paid: Annotated[
        int,
        typer.Option("--paid", "-p", min=0, max=100, help="Who paid: 1..n, or 0 for the NSA."),
    ] = 1,
    coins: Annotated[
        str | None,
        typer.Option("--coins", help="The n coins as 0/1 (heads: 1), e.g. 101; default 1010…"),
    ] = None,
) -> None:
    """The dining cryptographers: who paid, the NSA or one of them? (symbolic engine)."""
    from epigames.logic.puzzles.dining_cryptographers import dining_cryptographers

    flips = None
    if coins is not None:
        if len(coins) != cryptographers or set(coins) - {"0", "1"}:
            raise InputError(
                f"bad --coins {coins!r}; expected {cryptographers} digits 0 or 1, e.g. "
                + "10" * (cryptographers // 2)
                + "1" * (cryptographers % 2)
            )
        flips = tuple(c == "1" for c in coins)
    if paid > cryptographers:
        raise InputError(f"--paid {paid}: there are only {cryptographers} cryptographers")
    story = dining_cryptographers(cryptographers, paid, flips)
    who = "the NSA" if paid == 0 else f"cryptographer {paid}"
    typer.echo(f"{cryptographers} cryptographers; {who} paid")
    for i, value in enumerate(story.said, 1):
        typer.echo(f'cryptographer {i}: "{"different" if value else "same"}"')
    parity = sum(story.said) % 2 == 1
    typer.echo(f"{story.states:,} states left")
    knows = "yes" if story.everyone_knows_whether else "no"
    typer.echo(f"everyone knows whether one of them paid: {knows}")
    if not parity:
        typer.echo("answer: the NSA paid")
    else:
        secret = "stays anonymous" if story.anonymous else "is known to the others"
        typer.echo(f"answer: one of them paid; the payer {secret}")


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
    puzzle = typer.Typer(
        name="puzzle", help="Classic epistemic puzzles, played out.", no_args_is_help=True
    )
    logic.add_typer(puzzle)
    puzzle.command("muddy")(puzzle_muddy)
    puzzle.command("cheryl")(puzzle_cheryl)
    puzzle.command("drinking")(puzzle_drinking)
    puzzle.command("russian")(puzzle_russian)
    puzzle.command("dining")(puzzle_dining)
    puzzle.command("sum-and-product")(puzzle_sum_and_product)
