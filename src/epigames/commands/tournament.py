"""`epigames tournament`, `report`, `plot` and `experiment`: thin layers over `epigames.tournament`.

The heavy imports (numpy, DuckDB, matplotlib, Ray) happen inside the commands, so the
rest of the CLI starts fast and works without the `tournament` extra.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from epigames.errors import InputError

if TYPE_CHECKING:
    from epigames.tournament import RunReport, Summary, TournamentConfig
    from epigames.tournament.experiments import LearningExperiment, Suite

err = Console(stderr=True)

DEFAULT_DB = "results.duckdb"

# The allowed ranges of the numeric options. They are repeated here rather than imported
# from `epigames.tournament` so that `epigames --help` does not load numpy and DuckDB;
# tests check that they agree with `TournamentConfig`'s own limits.
#: Most games in one tournament: its done-mask and index arrays must fit in memory.
MAX_GAMES = 100_000_000
#: Seeds are stored as DuckDB BIGINT.
MAX_SEED = 2**63 - 1
#: Most worker processes (or Ray tasks in flight per round).
MAX_JOBS = 1024


class RunRate:
    """Games per second of this run: games played since `start` over the time since.

    rich's own `Task.speed` is wrong here: it counts the first batch of a window as if it
    had been played inside it, so a few batches arriving together read as several times
    the true rate; and games already stored before a resume are no part of this run.

    Args:
        clock: seconds from an arbitrary origin (injected by tests).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._started: float | None = None
        self.played = 0

    def start(self) -> None:
        self._started = self._clock()
        self.played = 0

    def advance(self, games: int) -> None:
        self.played += games

    def per_second(self) -> float | None:
        """None before the first game of this run (nothing to measure yet)."""
        if self._started is None or self.played == 0:
            return None
        elapsed = self._clock() - self._started
        return self.played / elapsed if elapsed > 0 else None

    def seconds_left(self, remaining: int) -> float | None:
        rate = self.per_second()
        return None if rate is None else remaining / rate


class _RateColumn(ProgressColumn):
    def __init__(self, rate: RunRate) -> None:
        super().__init__()
        self.rate = rate

    def render(self, task: Task) -> Text:
        speed = self.rate.per_second()
        return Text("   … games/s" if speed is None else f"{speed:7.1f} games/s", style="cyan")


class _EtaColumn(ProgressColumn):
    def __init__(self, rate: RunRate) -> None:
        super().__init__()
        self.rate = rate

    def render(self, task: Task) -> Text:
        left = self.rate.seconds_left(max(0, int((task.total or 0) - task.completed)))
        if left is None:
            return Text("ETA -:--:--", style="progress.remaining")
        minutes, seconds = divmod(round(left), 60)
        hours, minutes = divmod(minutes, 60)
        return Text(f"ETA {hours}:{minutes:02d}:{seconds:02d}", style="progress.remaining")


class _Bar:
    """A rich progress bar on stderr, fed by the runner (`ProgressSink`)."""

    def __init__(self, label: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = RunRate(clock)
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            _RateColumn(self.rate),
            TimeElapsedColumn(),
            _EtaColumn(self.rate),
            console=err,
            get_time=clock,
        )
        self.label = label
        self.task: Any = None

    def start(self, done: int, total: int) -> None:
        self.task = self.progress.add_task(self.label, total=total, completed=done)
        self.rate.start()

    def advance(self, games: int) -> None:
        self.rate.advance(games)
        self.progress.advance(self.task, games)


def _jobs(jobs: int) -> int:
    return jobs or (os.cpu_count() or 1)


def _play(
    config: TournamentConfig,
    db: Path,
    jobs: int,
    backend: str,
    ray_address: str | None,
    resume_hint: str,
) -> Summary:
    """Run (or resume) a tournament with a progress bar; Ctrl-C exits 130 after storing."""
    from epigames.tournament import (
        NoResultsError,
        TournamentInterrupted,
        TournamentStore,
        run_tournament,
        summarize,
    )
    from epigames.tournament.backend import tune_collector

    if ray_address and backend != "ray":
        raise InputError("--address needs --backend ray")
    workers = _jobs(jobs)
    # A finished tournament is only read, so it can be reported from a file that cannot
    # be written (read-only file system, another user's file).
    try:
        with TournamentStore.open(db, read_only=True) as stored:
            if stored.is_complete(config):
                err.print(
                    f"All {config.games} games of tournament '{config.name}' are stored in "
                    f"{db}; nothing left to play.",
                    highlight=False,
                )
                return summarize(config, stored.seat_records(config.name))
    except NoResultsError:
        pass  # a new file: created below
    err.print(
        f"Tournament '{config.name}' of {config.games} games in {db}, playing "
        f"{config.game} between {', '.join(config.strategies)} ({config.seat_scheme} "
        f"seats, seed {config.seed}) on {workers} {'worker' if workers == 1 else 'workers'} "
        f"({backend}).",
        highlight=False,
    )
    if workers == 1 and backend == "local":
        tune_collector()  # this process plays the games (workers tune their own)
    with TournamentStore.open(db) as store:
        bar = _Bar(config.name)
        try:
            with bar.progress:
                report = run_tournament(
                    config,
                    store,
                    jobs=workers,
                    backend=backend,
                    ray_address=ray_address,
                    progress=bar,
                )
        except TournamentInterrupted as stop:
            _exit_interrupted(db, (config, stop.report, resume_hint))
        err.print(
            f"played {report.played} games in {report.seconds:.1f} s; "
            f"{report.stored} of {config.games} stored",
            highlight=False,
        )
        return summarize(report.config, store.seat_records(config.name))


def _exit_interrupted(
    db: Path, stopped: tuple[TournamentConfig, RunReport, str] | None = None
) -> NoReturn:
    """Say what Ctrl-C kept in `db` and how to resume, then exit with status 130.

    `stopped` is the tournament, the runner's report and the command that resumes it,
    when the runner was stopped; Ctrl-C anywhere else knows only that stored games stay.
    """
    if stopped is None:
        err.print(
            f"interrupted; every stored game is kept in {db}; run the same command again to resume",
            highlight=False,
        )
    else:
        config, done, resume_hint = stopped
        err.print(
            f"[yellow]interrupted[/]: {done.stored} of {config.games} games of "
            f"'{config.name}' are stored in {db} ({done.played} played now); "
            f"run the same command to play the remaining {config.games - done.stored}:\n"
            f"  {resume_hint}",
            highlight=False,
        )
    raise SystemExit(130) from None


def _run_suite(
    suite: Suite,
    games: int | None,
    db: Path,
    out: Path,
    jobs: int,
    backend: str,
    ray_address: str | None,
) -> None:
    """Play every tournament of a suite (resuming any stored part) and write its report."""
    size = suite.games if games is None else games
    command = f"epigames experiment {suite.name}" + (
        f" --games {size}" if size != suite.games else ""
    )
    summaries: dict[str, Summary] = {}
    for config in suite.configs(size):
        summaries[config.name] = _play(config, db, jobs, backend, ray_address, command)
    out.mkdir(parents=True, exist_ok=True)
    name = suite.name if size == suite.games else f"{suite.name}-n{size}"
    path = out / f"{name}.md"
    path.write_text(suite.markdown(summaries, command), encoding="utf-8")
    err.print(f"report written to {path}", highlight=False)
    if suite.figures is not None:
        for figure in suite.figures(summaries, out / name):
            err.print(f"plot written to {figure}", highlight=False)


def _run_learning(
    found: LearningExperiment, games: int | None, db: Path, out: Path, jobs: int
) -> None:
    """Train what is not kept yet (beside `db`, in `db` with the suffix `.rl`), then write
    the report and its plot."""
    from epigames.adapters.reinforce import run_task

    runs = db.with_suffix(".rl")
    try:
        written = found.run(
            run_task,
            games,
            out,
            runs,
            jobs or os.cpu_count() or 1,
            say=lambda line: err.print(line, highlight=False),
        )
    except KeyboardInterrupt:
        err.print(
            f"interrupted; every finished run is kept in {runs}; run the same command again "
            "to resume",
            highlight=False,
        )
        raise SystemExit(130) from None
    for path in written:
        err.print(f"written: {path}", highlight=False)


def _show(summary: Summary, as_json: bool) -> None:
    from epigames.tournament.render import summary_renderable

    if as_json:
        typer.echo(json.dumps(summary.to_dict(), indent=2))
    else:
        Console().print(summary_renderable(summary))


def _command_line() -> str:
    return " ".join(["epigames", *(_quote(a) for a in sys.argv[1:])])


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)


# Options that several commands share, each written once (typer copies them per command).
JobsOption = Annotated[
    int,
    typer.Option("--jobs", "-j", min=0, max=MAX_JOBS, help="Worker processes (0 = all cores)."),
]
DbOption = Annotated[Path, typer.Option("--db", help="DuckDB results file.")]
BackendOption = Annotated[str, typer.Option("--backend", help="local or ray.")]
RayAddressOption = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        "--address",
        help="A Ray cluster to run on, HOST:PORT of its head (`ray start --head`); "
        "needs --backend ray.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")]
FileArgument = Annotated[Path, typer.Argument(help="DuckDB results file.")]
StoredNameOption = Annotated[
    str | None, typer.Option("--name", help="Tournament (needed if several).")
]


def tournament(
    game: Annotated[str, typer.Argument(help="Game string, e.g. 'kwartet(kinds=8)'.")],
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            help="One strategy per seat: a,b,c[,d] (in a team game also one per team).",
        ),
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="Number of games N.")
    ],
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", min=0, max=MAX_SEED, help="Tournament seed (default fixed, printed)."
        ),
    ] = None,
    jobs: JobsOption = 0,
    rotate_seats: Annotated[
        bool,
        typer.Option(
            "--rotate-seats/--fixed-seats",
            help="Every seat permutation equally often (default; partners move together "
            "as a team), or seat i always plays the i-th strategy.",
        ),
    ] = True,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate",
            help="Rotate seats, and deal the same cards to every seating of a block (one "
            "game per team, or per seat without partners): the summary then compares the "
            "strategies on the same cards, leaving the luck of the deal out.",
        ),
    ] = False,
    db: DbOption = Path(DEFAULT_DB),
    name: Annotated[
        str | None, typer.Option("--name", help="Tournament name inside the file.")
    ] = None,
    backend: BackendOption = "local",
    ray_address: RayAddressOption = None,
    as_json: JsonOption = False,
) -> None:
    """Play N games between strategies, store each in DuckDB, print win rates with 95% CIs.

    Running the same command again resumes: only missing games are played.
    """
    from epigames.tournament import (
        DEFAULT_NAME,
        DEFAULT_SEED,
        DUPLICATE,
        FIXED,
        ROTATE,
        checked_config,
        parse_strategies,
    )
    from epigames.tournament.runner import BACKENDS

    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    if duplicate and not rotate_seats:
        raise InputError(
            "--duplicate rotates the seats (each seating of a block on the same cards); "
            "drop --fixed-seats"
        )
    if seed is None:
        seed = DEFAULT_SEED
        err.print(f"seed {seed} (the default; pass --seed to change it)", highlight=False)
    config = checked_config(
        game,
        parse_strategies(players),
        games,
        seed=seed,
        seat_scheme=DUPLICATE if duplicate else ROTATE if rotate_seats else FIXED,
        name=name or DEFAULT_NAME,
    )
    try:
        summary = _play(config, db, jobs, backend, ray_address, _command_line())
    except KeyboardInterrupt:
        _exit_interrupted(db)
    _show(summary, as_json)


def report(
    file: FileArgument,
    name: StoredNameOption = None,
    as_json: JsonOption = False,
    list_: Annotated[bool, typer.Option("--list", help="List the tournaments.")] = False,
) -> None:
    """Print a stored tournament's summary again."""
    from epigames.tournament import TournamentStore, summarize

    with TournamentStore.open(file, read_only=True) as store:
        if list_:
            for config in store.tournaments():
                typer.echo(
                    f"{config.name}: {config.game}, {','.join(config.strategies)}, "
                    f"{config.seat_scheme}, seed {config.seed}, "
                    f"{store.count(config.name)}/{config.games} games"
                )
            return
        config = store.get(name)
        summary = summarize(config, store.seat_records(config.name))
    _show(summary, as_json)


def plot(
    file: FileArgument,
    out: Annotated[Path, typer.Option("--out", help="Directory for the PNG and SVG files.")],
    name: StoredNameOption = None,
) -> None:
    """Write plots of a stored tournament: win rates, returns, lengths, seat advantage."""
    from epigames.tournament import TournamentStore, summarize
    from epigames.tournament.plots import write_plots

    with TournamentStore.open(file, read_only=True) as store:
        config = store.get(name)
        records = store.seat_records(config.name)
    for path in write_plots(summarize(config, records), records, out):
        typer.echo(str(path))


def experiment_cmd(
    name: Annotated[str, typer.Argument(help="Experiment name: see --list.")] = "",
    list_: Annotated[bool, typer.Option("--list", help="List the experiments.")] = False,
    games: Annotated[
        int | None,
        typer.Option("--games", "-n", min=1, max=MAX_GAMES, help="Override the number of games."),
    ] = None,
    jobs: JobsOption = 0,
    db: DbOption = Path("experiments.duckdb"),
    out: Annotated[Path, typer.Option("--out", help="Directory for the Markdown report.")] = Path(
        "docs/results"
    ),
    backend: BackendOption = "local",
    ray_address: RayAddressOption = None,
    as_json: JsonOption = False,
) -> None:
    """Run a report's experiment and write our results beside the published ones."""
    from epigames.tournament.experiments import (
        EXPERIMENTS,
        LEARNING,
        SUITES,
        Experiment,
        LearningExperiment,
        Suite,
        experiment,
        experiment_config,
        experiment_markdown,
    )

    if list_ or not name:
        listed: list[Experiment | Suite | LearningExperiment] = [
            *EXPERIMENTS.values(),
            *SUITES.values(),
            *LEARNING.values(),
        ]
        for item in listed:
            typer.echo(f"{item.name:14} {item.games:>6} games  {item.title}")
        return
    found = experiment(name)
    if isinstance(found, Suite):
        _run_suite(found, games, db, out, jobs, backend, ray_address)
        return
    if isinstance(found, LearningExperiment):
        _run_learning(found, games, db, out, jobs)
        return
    exp = found
    config = experiment_config(exp, games)
    command = f"epigames experiment {exp.name}" + (
        f" --games {config.games}" if config.games != exp.games else ""
    )
    try:
        summary = _play(config, db, jobs, backend, ray_address, command)
    except KeyboardInterrupt:
        _exit_interrupted(db)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{config.name}.md"
    path.write_text(experiment_markdown(exp, summary, command), encoding="utf-8")
    _show(summary, as_json)
    err.print(f"report written to {path}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add the `tournament`, `report`, `plot` and `experiment` commands."""
    app.command("tournament")(tournament)
    app.command("report")(report)
    app.command("plot")(plot)
    app.command("experiment")(experiment_cmd)
