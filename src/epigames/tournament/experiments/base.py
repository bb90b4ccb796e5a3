"""What an experiment is (`Experiment`, `Suite`), and the report of a one-tournament one.

An experiment is a tournament with a fixed configuration and seed, plus the numbers the
report published; they are data, in `experiments.toml` beside this module
(`experiment_data`, `experiments_in`). `experiment_markdown` puts our table beside theirs
and writes a short reading of the differences; every sentence of it is computed from the
two sets of numbers. A `Suite` is several tournaments with a report of its own.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

from epigames.errors import UnknownNameError
from epigames.tournament.config import TournamentConfig, TournamentInputError, checked_config
from epigames.tournament.seeds import FIXED, ROTATE
from epigames.tournament.stats import Summary, wilson_interval

#: The reports' data: the one-tournament experiments and the words of some suites' reports.
DATA = Path(__file__).with_name("experiments.toml")


class ExperimentUnavailableError(TournamentInputError):
    """An experiment whose strategies (or game) are not registered yet."""


class ExperimentDataError(TournamentInputError):
    """An experiments file that does not say what it should; the message names the place."""


@dataclass(frozen=True, slots=True)
class Published:
    """What a report published for one strategy.

    Attributes:
        wins: games won (as the report counted them).
        ties: games tied for the win, when the report gives them.
    """

    wins: int
    ties: int | None = None


@dataclass(frozen=True, slots=True)
class Experiment:
    """A report's configuration and its published results.

    Attributes:
        name: the command-line name, e.g. `kwartet-2020`.
        title: one line.
        source: the report it comes from.
        game: the game string.
        strategies: one per seat (the fixed arrangement, or the rotated ones).
        seat_scheme: `"fixed"` or `"rotate"`, as the report played.
        games: the report's number of games.
        seed: our seed for it.
        published: per strategy.
        published_length: the report's mean game length, if given.
        length_unit: what the report's length counts.
        wins_counted_as: `"outright"` (ties apart) or `"fractional"` (wins add up to the
            number of games, as when a report names one winner per game).
        remarks: context for the reader (what differs from the report's program).
    """

    name: str
    title: str
    source: str
    game: str
    strategies: tuple[str, ...]
    seat_scheme: str
    games: int
    seed: int
    published: dict[str, Published]
    published_length: float | None = None
    length_unit: str = "moves"
    wins_counted_as: str = "outright"
    remarks: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Suite:
    """An experiment made of several tournaments, reported together in one Markdown page.

    Attributes:
        name: the command-line name, e.g. `blufpoker-2020`.
        title: one line.
        games: the report's number of games per tournament.
        configs: the checked tournaments for a number of games per tournament.
        markdown: the report from the tournaments' summaries (by name, in the order of
            `configs`) and the command that reproduces it.
        figures: if given, writes the report's plots from the same summaries beside it:
            called with the report's path without `.md`; returns the files written.
    """

    name: str
    title: str
    games: int
    configs: Callable[[int], list[TournamentConfig]]
    markdown: Callable[[dict[str, Summary], str], str]
    figures: Callable[[dict[str, Summary], Path], list[Path]] | None = None


@cache
def experiment_data(path: Path = DATA) -> dict[str, Any]:
    """The experiments file, parsed (once per path).

    Raises:
        ExperimentDataError: it is not TOML.
    """
    try:
        with path.open("rb") as file:
            return tomllib.load(file)
    except tomllib.TOMLDecodeError as exc:
        raise ExperimentDataError(f"{path.name} is not valid TOML: {exc}") from None


#: What a value of the experiments file must be: a type, or types of which any will do.
Kind = type | tuple[type, ...]
#: How a message names a kind; a list is one of strings.
_KIND_NAMES: dict[Kind, str] = {
    str: "a string",
    int: "an integer",
    (int, float): "a number",
    list: "a list of strings",
    dict: "a table",
}


def data_table(
    value: object, where: str, kinds: Mapping[str, Kind], optional: Collection[str] = ()
) -> dict[str, Any]:
    """`value` as a table of the experiments file: the keys of `kinds`, each value of its kind.

    Raises:
        ExperimentDataError: not a table, a key missing (not `optional`) or not known, or
            a value of another kind (`true` is not a number).
    """
    if not isinstance(value, dict):
        raise ExperimentDataError(f"{where} must be a table, not {value!r}")
    missing = [key for key in kinds if key not in value and key not in optional]
    unknown = [key for key in value if key not in kinds]
    if missing or unknown:
        said = [f"missing {', '.join(missing)}"] if missing else []
        said += [f"unknown {', '.join(unknown)} (known: {', '.join(kinds)})"] if unknown else []
        raise ExperimentDataError(f"{where}: {'; '.join(said)}")
    for key, item in value.items():
        kind = kinds[key]
        fits = isinstance(item, kind) and not isinstance(item, bool)
        if not fits or (isinstance(item, list) and not all(isinstance(x, str) for x in item)):
            raise ExperimentDataError(f"{where}: {key} must be {_KIND_NAMES[kind]}, not {item!r}")
    return value


_EXPERIMENT_KINDS: dict[str, Kind] = {
    "name": str,
    "title": str,
    "source": str,
    "game": str,
    "strategies": list,
    "seat_scheme": str,
    "games": int,
    "seed": int,
    "published": dict,
    "published_length": (int, float),
    "length_unit": str,
    "wins_counted_as": str,
    "remarks": list,
}
_EXPERIMENT_OPTIONAL = frozenset(
    f.name
    for f in fields(Experiment)
    if f.default is not MISSING or f.default_factory is not MISSING
)
_COUNTS: dict[str, Kind] = {"wins": int, "ties": int}
_CHOICES = {"seat_scheme": (FIXED, ROTATE), "wins_counted_as": ("outright", "fractional")}


def experiments_in(data: Mapping[str, Any]) -> dict[str, Experiment]:
    """The experiments of the parsed experiments file (its `[[experiment]]` tables), by name.

    Raises:
        ExperimentDataError: an entry that is not an `Experiment`: a key missing or not
            known, a value of another kind or choice, a name given twice.
    """
    entries = data.get("experiment", [])
    if not isinstance(entries, list):
        raise ExperimentDataError("experiment must be an array of tables ([[experiment]])")
    found: dict[str, Experiment] = {}
    for number, entry in enumerate(entries, 1):
        name = entry.get("name") if isinstance(entry, dict) else None
        where = f"experiment {name!r}" if isinstance(name, str) else f"experiment number {number}"
        table = data_table(entry, where, _EXPERIMENT_KINDS, _EXPERIMENT_OPTIONAL)
        for key, choices in _CHOICES.items():
            if key in table and table[key] not in choices:
                raise ExperimentDataError(
                    f"{where}: {key} must be one of {', '.join(choices)}, not {table[key]!r}"
                )
        if table["name"] in found:
            raise ExperimentDataError(f"{where} is given twice")
        published = {
            strategy: Published(
                **data_table(counts, f"{where}, published {strategy}", _COUNTS, ("ties",))
            )
            for strategy, counts in table["published"].items()
        }
        values = {**table, "strategies": tuple(table["strategies"]), "published": published}
        if "remarks" in table:
            values["remarks"] = tuple(table["remarks"])
        if "published_length" in table:
            values["published_length"] = float(table["published_length"])
        found[table["name"]] = Experiment(**values)
    return found


def experiment_config(exp: Experiment, games: int | None = None) -> TournamentConfig:
    """The tournament of an experiment, checked against the registry.

    A size other than the report's gets its own tournament name (`kwartet-2020-n500`),
    so runs of different sizes never mix in one results file.

    Raises:
        ExperimentUnavailableError: its strategies or game are not registered yet.
    """
    from epigames.games import load_game, strategies_for

    try:
        game_name = load_game(exp.game).name
        known = strategies_for(game_name)
    except UnknownNameError as exc:
        raise ExperimentUnavailableError(f"experiment {exp.name} cannot run: {exc}") from None
    missing = [s for s in dict.fromkeys(exp.strategies) if s not in known]
    if missing:
        raise ExperimentUnavailableError(
            f"experiment {exp.name} needs strategies {', '.join(exp.strategies)} for "
            f"{game_name}, but {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
            f"not registered yet (registered: {', '.join(known) or 'none'})"
        )
    size = exp.games if games is None else games
    name = exp.name if size == exp.games else f"{exp.name}-n{size}"
    return checked_config(
        exp.game, exp.strategies, size, seed=exp.seed, seat_scheme=exp.seat_scheme, name=name
    )


def _pct(x: float) -> str:
    return "—" if math.isnan(x) else f"{100 * x:.1f}%"


def _ours(summary: Summary, exp: Experiment, strategy: str) -> tuple[float, float, float]:
    """Our comparable win count, with its Wilson interval as rates."""
    line = next(line for line in summary.strategies if line.label == strategy)
    count = line.fractional_wins if exp.wins_counted_as == "fractional" else float(line.wins)
    low, high = wilson_interval(count, line.games)
    return count, low, high


def reading(exp: Experiment, summary: Summary) -> list[str]:
    """Sentences comparing our numbers with the published ones, computed from both."""
    out = []
    n_ours, n_pub = summary.games, exp.games
    kind = "fractional wins" if exp.wins_counted_as == "fractional" else "outright wins"
    inside, outside = [], []
    for strategy, pub in exp.published.items():
        count, low, high = _ours(summary, exp, strategy)
        rate, pub_rate = count / n_ours, pub.wins / n_pub
        diff = 100 * (rate - pub_rate)
        if low <= pub_rate <= high:
            inside.append(f"{strategy} ({_pct(pub_rate)} published, ours {_pct(rate)})")
        else:
            side = "above" if pub_rate > high else "below"
            outside.append(
                f"{strategy}: published {_pct(pub_rate)} lies {side} our 95% interval "
                f"{_pct(low)}–{_pct(high)} (ours {_pct(rate)}, difference {diff:+.1f} "
                "percentage points)"
            )
    if inside:
        out.append(f"Within our 95% intervals ({kind}): {'; '.join(inside)}.")
    if outside:
        out.append("Outside our 95% intervals: " + "; ".join(outside) + ".")
    ours_rank = sorted(exp.published, key=lambda s: -_ours(summary, exp, s)[0])
    pub_rank = sorted(exp.published, key=lambda s: -exp.published[s].wins)
    if ours_rank == pub_rank:
        out.append(f"The ranking is the same: {' > '.join(ours_rank)}.")
    else:
        out.append(
            f"The ranking differs: published {' > '.join(pub_rank)}; ours {' > '.join(ours_rank)}."
        )
    tie_pubs = {s: p.ties for s, p in exp.published.items() if p.ties is not None}
    if tie_pubs:
        parts = []
        for strategy, ties in tie_pubs.items():
            line = next(x for x in summary.strategies if x.label == strategy)
            parts.append(f"{strategy} {_pct(line.ties / n_ours)} vs {_pct(ties / n_pub)} published")
        out.append("Shared wins (ties): " + "; ".join(parts) + ".")
    if exp.published_length is not None:
        low, high = summary.length_low, summary.length_high
        where = (
            "inside"
            if low <= exp.published_length <= high
            else ("above" if exp.published_length > high else "below")
        )
        out.append(
            f"Mean length: ours {summary.mean_length:.1f} moves (95% CI {low:.1f}–{high:.1f}), "
            f"published {exp.published_length:.1f} {exp.length_unit}, which lies {where} our "
            f"interval (ratio {summary.mean_length / exp.published_length:.2f})."
        )
    if n_ours != n_pub:
        out.append(f"We played {n_ours} games, the report {n_pub}; intervals are for our size.")
    return out


def markdown_table(
    columns: Sequence[str], align: str, rows: Iterable[Sequence[object]]
) -> list[str]:
    """A Markdown table's lines: the header, the rule (`align` has `l` or `r` per column),
    then one line per row."""
    rule = "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"
    return [
        "| " + " | ".join(columns) + " |",
        rule,
        *("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows),
    ]


def experiment_markdown(exp: Experiment, summary: Summary, command: str) -> str:
    """The Markdown report: configuration, our table beside theirs, the reading."""
    config = summary.config
    n_ours, n_pub = summary.games, exp.games
    kind = "fractional" if exp.wins_counted_as == "fractional" else "outright"
    lines = [
        f"# Experiment `{exp.name}`",
        "",
        f"{exp.title}.",
        "",
        f"- Source: {exp.source}.",
        f"- Game: `{config.game}`; seats: {config.seat_scheme} "
        f"({', '.join(config.strategies)}); seed {config.seed}; code version "
        f"{config.code_version}.",
        f"- Games: {n_ours} (report: {n_pub}).",
        f"- Reproduce: `{command}`",
        "",
        "## Wins",
        "",
        f"Win rates compare {kind} wins"
        + (" (a tie among k winners counts 1/k)" if kind == "fractional" else " (ties apart)")
        + "; intervals are Wilson 95%.",
        "",
        "| strategy | our wins | our ties | our win rate (95% CI) | published wins | "
        "published ties | published rate | difference |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for strategy, pub in exp.published.items():
        line = next(x for x in summary.strategies if x.label == strategy)
        count, low, high = _ours(summary, exp, strategy)
        rate, pub_rate = count / n_ours, pub.wins / n_pub
        shown = f"{count:.1f}" if kind == "fractional" else str(line.wins)
        lines.append(
            f"| {strategy} | {shown} | {line.ties} | {_pct(rate)} ({_pct(low)}–{_pct(high)}) "
            f"| {pub.wins} | {'—' if pub.ties is None else pub.ties} | {_pct(pub_rate)} "
            f"| {100 * (rate - pub_rate):+.1f} pp |"
        )
    lines += [
        "",
        "## Game length",
        "",
        f"Ours: {summary.mean_length:.1f} moves (95% CI {summary.length_low:.1f}–"
        f"{summary.length_high:.1f}); "
        + (
            f"published: {exp.published_length:.1f} {exp.length_unit}."
            if exp.published_length is not None
            else "the report gives no mean length."
        ),
        "",
        "## Per seat",
        "",
        "| seat | games | wins | ties | win rate (95% CI) | mean return (95% CI) |",
        "|---|---:|---:|---:|---|---|",
    ]
    for seat in summary.seats:
        lines.append(
            f"| {seat.label} | {seat.games} | {seat.wins} | {seat.ties} | "
            f"{_pct(seat.win_rate)} ({_pct(seat.win_low)}–{_pct(seat.win_high)}) | "
            f"{seat.mean_return:.2f} ({seat.return_low:.2f}–{seat.return_high:.2f}) |"
        )
    lines += ["", "## Reading", ""]
    lines += [f"- {sentence}" for sentence in reading(exp, summary)]
    lines += [f"- {remark}" for remark in exp.remarks]
    lines += [f"- Note: {note}" for note in summary.notes]
    lines += [
        "",
        "_Generated by `epigames experiment`; every number above is computed from the stored "
        "games or quoted from the report._",
        "",
    ]
    return "\n".join(lines)
