"""Rich tables of a tournament summary, for the terminal."""

from __future__ import annotations

import io
import math
from typing import TYPE_CHECKING

from rich.box import SIMPLE_HEAD
from rich.console import Console, Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text

# Annotations only: the summary's `_repr_html_` calls `summary_html` here.
if TYPE_CHECKING:
    from epigames.tournament.stats import Line, Summary


def _pct(x: float) -> str:
    return "—" if math.isnan(x) else f"{100 * x:.1f}"


def _num(x: float, digits: int = 2) -> str:
    return "—" if math.isnan(x) else f"{x:.{digits}f}"


def _returns(mean: float, low: float, high: float) -> tuple[str, str]:
    """A mean return and its interval, to two decimals, or one for scores in the hundreds
    (match points: one decimal keeps the tables within 80 columns)."""
    largest = max((abs(x) for x in (mean, low, high) if not math.isnan(x)), default=0.0)
    digits = 1 if largest >= 100 else 2
    return _num(mean, digits), f"{_num(low, digits)}–{_num(high, digits)}"


def _table(
    title: str, first: str, lines: list[Line], baseline: float | None, length: bool = True
) -> Table:
    """One table that fits 80 columns, also when stdout is a pipe (rich then assumes 80).

    Columns are one space apart. No header is ever cut: each column is at least as wide
    as its header, and only the label column gives way on a narrow terminal, by wrapping
    its cells (a strategy name such as `greedy/truthful/believe`). Without `length` the
    game length column is left out (seats and team positions play every game: the header
    gives the mean length).
    """
    table = Table(
        title=title,
        title_justify="left",
        header_style="bold",
        box=SIMPLE_HEAD,
        pad_edge=False,
        padding=0,
        collapse_padding=True,
    )
    table.add_column(first, overflow="fold", min_width=len(first))

    def number(header: str, justify: JustifyMethod = "right") -> None:
        table.add_column(header, justify=justify, no_wrap=True, min_width=len(header))

    for name in ("games", "wins", "ties", "frac", "win%"):
        number(name)
    number("95% CI", "left")
    if baseline is not None:
        number("vs 1/n")
    number("return")
    number("95% CI", "left")
    if length:
        number("length")
    for line in lines:
        cells = [
            line.label,
            str(line.games),
            str(line.wins),
            str(line.ties),
            _num(line.fractional_wins, 1),
            _pct(line.win_rate),
            f"{_pct(line.win_low)}–{_pct(line.win_high)}",
        ]
        if baseline is not None:
            diff = line.win_rate - baseline
            cells.append("—" if math.isnan(diff) else f"{100 * diff:+.1f}")
        cells += _returns(line.mean_return, line.return_low, line.return_high)
        if length:
            cells.append(_num(line.mean_length, 1))
        table.add_row(*cells)
    return table


def summary_renderable(summary: Summary) -> RenderableType:
    """The per-strategy and per-seat tables (and per team, with partners), a header and notes."""
    config = summary.config
    head = Text.assemble(
        (f"{config.name}", "bold"),
        f": {config.game}, {', '.join(config.strategies)} ({config.seat_scheme} seats), "
        f"seed {config.seed}, {summary.games} of {config.games} games; mean length "
        f"{_num(summary.mean_length, 1)} moves [{_num(summary.length_low, 1)}, "
        f"{_num(summary.length_high, 1)}]; {summary.tie_games} games tied",
    )
    parts: list[RenderableType] = [
        head,
        _table("per strategy", "strategy", summary.strategies, None),
    ]
    if not summary.teams:
        parts.append(
            _table(
                "per seat (first-mover advantage; vs 1/n in percentage points)",
                "seat",
                summary.seats,
                1 / max(config.players, 1),
                length=False,
            )
        )
    else:
        # A seat wins with its team, so each seat's fair share is one team's.
        parts += [
            _table(
                "per seat (a seat wins when its team does; vs 1/teams in percentage points)",
                "seat",
                summary.seats,
                1 / len(summary.teams),
                length=False,
            ),
            _table("per team line-up (partners win together)", "team", summary.team_lineups, None),
            _table(
                "per team position (vs 1/teams in percentage points)",
                "team",
                summary.teams,
                1 / len(summary.teams),
                length=False,
            ),
        ]
    if summary.differences:
        parts.append(_differences(summary))
    winners = "k winning teams" if summary.teams else "k winners"
    parts.append(
        Text(
            f"win% counts a tie among {winners} as 1/k of a win (frac); "
            "intervals: Wilson for win%, normal for mean return; length in moves",
            style="dim",
        )
    )
    parts += [Text(f"note: {note}", style="yellow") for note in summary.notes]
    return Group(*parts)


#: How `summary_html` wraps the tables: preformatted, as rich writes them for Jupyter.
_PRE = (
    '<pre style="white-space:pre;overflow-x:auto;line-height:normal;'
    "font-family:Menlo,'DejaVu Sans Mono',consolas,'Courier New',monospace\">{code}</pre>"
)


def summary_html(summary: Summary) -> str:
    """The tables of `summary_renderable` as HTML with inline colours (for notebooks)."""
    # Not a Jupyter console: that one would also display the tables as it prints them.
    console = Console(
        record=True,
        width=100,
        file=io.StringIO(),
        color_system="truecolor",
        force_jupyter=False,
    )
    console.print(summary_renderable(summary))
    return console.export_html(inline_styles=True, code_format=_PRE)


def _differences(summary: Summary) -> Table:
    """The duplicate comparisons: each pair's difference of mean return on the same cards."""
    table = Table(
        title="on the same cards (duplicate seats: each deal played once per seating of a block)",
        title_justify="left",
        header_style="bold",
        box=SIMPLE_HEAD,
        pad_edge=False,
        padding=(0, 1, 0, 0),
    )
    table.add_column("strategies", overflow="fold")
    for header in ("blocks", "return difference", "95% CI"):
        table.add_column(header, justify="left" if header == "95% CI" else "right", no_wrap=True)
    for d in summary.differences:
        table.add_row(d.label, str(d.blocks), *_returns(d.mean, d.low, d.high))
    return table
