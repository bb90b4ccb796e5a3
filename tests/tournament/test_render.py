"""The summary tables fit 80 columns (CI and pipes) and never cut a header."""

from __future__ import annotations

import io
import math
import re
from html import unescape
from pathlib import Path

import pytest
from rich.console import Console

from epigames.tournament import TournamentConfig, TournamentStore, summarize
from epigames.tournament.render import _returns, summary_renderable
from tests.tournament.helpers import run_fake

HEADERS = ("games", "wins", "ties", "frac", "win%", "95% CI", "return", "length")


@pytest.mark.parametrize(
    "strategies",
    [
        ("a", "b", "strong"),
        ("greedy/truthful/believe", "knowledge", "bayes", "random/bluff/call"),
    ],
)
def test_tables_fit_80_columns_without_cutting_headers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, strategies: tuple[str, ...]
) -> None:
    config = TournamentConfig(name="t", game="fake", strategies=strategies, games=240, seed=7)
    path = tmp_path / "r.duckdb"
    run_fake(path, config)
    with TournamentStore.open(path, read_only=True) as store:
        summary = summarize(config, store.seat_records("t"))
    monkeypatch.delenv("COLUMNS", raising=False)
    out = io.StringIO()
    Console(file=out).print(summary_renderable(summary))  # not a terminal: rich uses 80
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in out.getvalue()
    headers = [line for line in lines if " games " in line and " wins " in line]
    assert len(headers) == 2, lines
    for line, names in zip(headers, (HEADERS, HEADERS[:-1]), strict=True):
        for name in names:
            assert f" {name} " in f"{line} ", (name, line)
    # Seats play every game: their table leaves the length (in the header line) out.
    assert " length" not in headers[1]
    assert "vs 1/n" in headers[1]
    for name in strategies:  # a long label wraps inside its column; nothing is lost
        assert name in "".join(line.split(" ", 2)[1] for line in lines if line.strip())


def test_undefined_returns_show_as_dashes() -> None:
    # A line with no games has no mean; one game has no interval: neither may break a table.
    assert _returns(math.nan, math.nan, math.nan) == ("—", "—–—")
    assert _returns(150.0, math.nan, math.nan) == ("150.0", "—–—")
    assert _returns(1.5, 1.0, 2.0) == ("1.50", "1.00–2.00")


def test_a_summary_shows_itself_in_a_notebook_as_the_terminal_tables(tmp_path: Path) -> None:
    config = TournamentConfig(name="t<1>", game="fake", strategies=("a&b", "c", "d"), games=60)
    path = tmp_path / "r.duckdb"
    run_fake(path, config)
    with TournamentStore.open(path, read_only=True) as store:
        summary = summarize(config, store.seat_records(config.name))
    html = summary._repr_html_()
    assert html.startswith("<pre") and html.rstrip().endswith("</pre>")
    assert "<1>" not in html and "a&b" not in html  # escaped
    out = io.StringIO()
    Console(file=out, width=100).print(summary_renderable(summary))
    shown = unescape(re.sub(r"<[^>]+>", "", html))
    assert [line.rstrip() for line in shown.splitlines()] == [
        line.rstrip() for line in out.getvalue().splitlines()
    ]
    assert '<span style="font-weight: bold">t&lt;1&gt;</span>' in html
