"""Plots of a stored tournament, written as PNG and SVG files (matplotlib, Agg backend).

Four figures: win rates with Wilson 95% bars (per strategy), return distributions (per
strategy), game lengths (histogram) and the per-seat advantage (win rate minus 1/n).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from epigames.errors import InputError
from epigames.tournament.extras import import_extra
from epigames.tournament.stats import Line, Summary

#: The file stems `write_plots` produces (each as .png and .svg).
PLOTS = ("win_rates", "returns", "lengths", "seat_advantage")


def _pyplot() -> Any:
    matplotlib = import_extra("matplotlib", "tournament", "plots need")
    matplotlib.use("Agg")  # files only: no display needed, same output everywhere
    import matplotlib.pyplot as plt

    return plt


def _errors(lines: list[Line], shift: float = 0.0) -> tuple[list[float], list[list[float]]]:
    rates = [100 * (line.win_rate - shift) for line in lines]
    low = [
        100 * (line.win_rate - line.win_low) if not math.isnan(line.win_low) else 0.0
        for line in lines
    ]
    high = [
        100 * (line.win_high - line.win_rate) if not math.isnan(line.win_high) else 0.0
        for line in lines
    ]
    return rates, [low, high]


def _title(summary: Summary) -> str:
    config = summary.config
    return f"{config.game} · {summary.games} games · {config.seat_scheme} seats"


def write_plots(
    summary: Summary, records: dict[str, np.ndarray[Any, Any]], out: str | Path
) -> list[Path]:
    """Write the four figures as PNG and SVG into `out` (created if missing).

    Args:
        summary: the tournament's summary (for rates and intervals).
        records: its per-(game, seat) records (`TournamentStore.seat_records`).
        out: the directory.

    Returns:
        The files written, PNG and SVG for each name in `PLOTS`.
    """
    plt = _pyplot()
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} is a file; expected a directory for the plots")
    out.mkdir(parents=True, exist_ok=True)
    if summary.games == 0:
        raise InputError(f"tournament {summary.config.name!r} has no games to plot yet")
    written: list[Path] = []

    def finish(fig: Any, ax: Any, stem: str, title: str, legend: bool = True) -> None:
        """Title the figure (with the tournament's line), add the legend, write both files."""
        ax.set_title(f"{title}\n{_title(summary)}", fontsize=10)
        if legend:
            ax.legend(fontsize=8)
        fig.tight_layout()
        for ext in ("png", "svg"):
            path = out / f"{stem}.{ext}"
            fig.savefig(path, dpi=120)
            written.append(path)
        plt.close(fig)

    # With partners a seat wins when its team does: its fair share is one team's.
    sides = len(summary.teams) or summary.config.players
    fair = 100 / sides

    # Win rates with Wilson intervals.
    lines = summary.strategies
    fig, ax = plt.subplots(figsize=(7, 4))
    rates, err = _errors(lines)
    ax.bar([line.label for line in lines], rates, yerr=err, capsize=6, color="tab:blue")
    ax.axhline(fair, color="grey", linestyle="--", linewidth=1, label=f"1/{sides} = {fair:.1f}%")
    for i in range(len(lines)):
        ax.annotate(
            f"{rates[i]:.1f}%", (i, rates[i]), textcoords="offset points", xytext=(8, 2), fontsize=8
        )
    ax.set_ylabel("win rate, % (ties as 1/k; Wilson 95% CI)")
    finish(fig, ax, "win_rates", "Win rate per strategy")

    # Return distributions: discrete returns get one bar group per value.
    fig, ax = plt.subplots(figsize=(7, 4))
    returns = records["ret"].astype(np.float64)
    names = records["strategy"]
    integral = bool(np.all(np.equal(np.mod(returns, 1), 0)))
    labels = [line.label for line in lines]
    if integral and np.ptp(returns) <= 40:
        values = np.arange(returns.min(), returns.max() + 1)
        width = 0.8 / len(labels)
        for k, label in enumerate(labels):
            mine = returns[names == label]
            counts = np.array([np.count_nonzero(mine == v) for v in values]) / max(len(mine), 1)
            ax.bar(values + (k - (len(labels) - 1) / 2) * width, counts, width, label=label)
        ax.set_xticks(values)
    else:
        bins = np.histogram_bin_edges(returns, bins=30)
        for label in labels:
            mine = returns[names == label]
            ax.hist(mine, bins=bins, histtype="step", density=True, label=label, linewidth=1.5)
    ax.set_xlabel("return")
    ax.set_ylabel("share of games")
    finish(fig, ax, "returns", "Return distribution per strategy")

    # Game lengths.
    fig, ax = plt.subplots(figsize=(7, 4))
    lengths = records["moves"][records["seat"] == 0]
    ax.hist(lengths, bins=min(60, max(5, len(np.unique(lengths)))), color="tab:green")
    ax.axvline(
        summary.mean_length,
        color="black",
        linestyle="--",
        linewidth=1,
        label=f"mean {summary.mean_length:.1f}",
    )
    ax.set_xlabel("game length (moves)")
    ax.set_ylabel("games")
    finish(fig, ax, "lengths", "Game length")

    # Per-seat advantage: win rate minus the fair share, with intervals.
    fig, ax = plt.subplots(figsize=(7, 4))
    seats = summary.seats
    diffs, err = _errors(seats, shift=1 / sides)
    colors = ["tab:red" if d < 0 else "tab:blue" for d in diffs]
    ax.bar([line.label for line in seats], diffs, yerr=err, capsize=6, color=colors)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel(f"win rate − 1/{sides}, percentage points")
    finish(fig, ax, "seat_advantage", "Seat advantage (first mover = seat 0)", legend=False)
    return written
