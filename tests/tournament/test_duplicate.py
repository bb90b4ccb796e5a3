"""Duplicate seats: each block of a rotation played on the same cards, compared pairwise."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from epigames.tournament import (
    DUPLICATE,
    ROTATE,
    TournamentStore,
    checked_config,
    mean_interval,
    run_tournament,
    summarize,
)
from epigames.tournament.render import summary_renderable
from epigames.tournament.seeds import duplicate_block, seed_index, solo_teams
from tests.tournament.helpers import cli, fake_config, run_fake

KLAVERJAS = "klaverjas(ranks=3,deals=1)"


def test_the_games_of_a_block_share_a_seed_and_no_other_game_does() -> None:
    pairs = ((0, 2), (1, 3))
    assert duplicate_block(pairs) == 2
    assert [seed_index(i, DUPLICATE, pairs) for i in range(6)] == [0, 0, 1, 1, 2, 2]
    assert [seed_index(i, DUPLICATE, solo_teams(3)) for i in range(7)] == [0, 0, 0, 1, 1, 1, 2]
    assert [seed_index(i, ROTATE, pairs) for i in range(4)] == [0, 1, 2, 3]


def test_a_block_deals_the_same_cards_to_each_seating(tmp_path: Path) -> None:
    config = checked_config(KLAVERJAS, ("tactics", "random"), 8, seed=3, seat_scheme=DUPLICATE)
    with TournamentStore.open(tmp_path / "r.duckdb") as store:
        run_tournament(config, store, jobs=1)
        rows = store.rows(config.name)
    assert len({row.seed for row in rows}) == 4
    for first, second in zip(rows[::2], rows[1::2], strict=True):
        assert first.seed == second.seed
        # The teams changed places: each strategy played both sides of the same deal.
        assert first.strategies[0] == second.strategies[1] != first.strategies[1]


def test_differences_are_the_paired_means_over_blocks(tmp_path: Path) -> None:
    config = fake_config(games=61, scheme=DUPLICATE)
    path = tmp_path / "r.duckdb"
    run_fake(path, config)
    with TournamentStore.open(path, read_only=True) as store:
        summary = summarize(config, store.seat_records("t"))
        rows = store.rows("t")
    # By hand: per block of three games (one per rotation), each strategy's mean.
    blocks: dict[int, dict[str, list[float]]] = {}
    for row in rows:
        if row.index >= 60:
            continue
        block = blocks.setdefault(row.index // 3, {})
        for name, ret in zip(row.strategies, row.returns, strict=True):
            block.setdefault(name, []).append(ret)
    labels = [d.label for d in summary.differences]
    assert labels == ["a − b", "a − strong", "b − strong"]
    for diff, (x, y) in zip(
        summary.differences, [("a", "b"), ("a", "strong"), ("b", "strong")], strict=True
    ):
        values = np.array([np.mean(b[x]) - np.mean(b[y]) for _, b in sorted(blocks.items())])
        assert diff.blocks == 20
        assert (diff.mean, diff.low, diff.high) == pytest.approx(mean_interval(values))
    # The synthetic `strong` scores 2 more than the others, and pairing shows it.
    assert summary.differences[1].high < 0
    assert any("1 stored games are not in a whole block" in note for note in summary.notes)
    assert "differences" in summary.to_dict()


def test_rotated_tournaments_have_no_differences(tmp_path: Path) -> None:
    config = fake_config(games=30)
    path = tmp_path / "r.duckdb"
    run_fake(path, config)
    with TournamentStore.open(path, read_only=True) as store:
        summary = summarize(config, store.seat_records("t"))
    assert summary.differences == []
    assert "differences" not in summary.to_dict()


def test_the_summary_shows_the_differences_within_80_columns(tmp_path: Path) -> None:
    config = checked_config(KLAVERJAS, ("tactics", "random"), 12, seed=5, seat_scheme=DUPLICATE)
    with TournamentStore.open(tmp_path / "r.duckdb") as store:
        run_tournament(config, store, jobs=1)
        summary = summarize(config, store.seat_records(config.name))
    out = io.StringIO()
    Console(file=out, width=80).print(summary_renderable(summary))
    text = out.getvalue()
    assert "on the same cards" in text and "tactics − random" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    # Team labels and match scores fit without wrapping.
    assert "North+South" in text and "tactics+tactics" in text


def test_the_command_plays_duplicate_seats(tmp_path: Path) -> None:
    db = str(tmp_path / "r.duckdb")
    args = ("tournament", KLAVERJAS, "--players", "tactics,random", "--games", "4", "--db", db)
    done = cli(*args, "--duplicate", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["tournament"]["seat_scheme"] == "duplicate"
    assert [d["label"] for d in data["differences"]] == ["tactics − random"]
    refused = cli(*args, "--duplicate", "--fixed-seats")
    assert refused.returncode == 2
    assert "--duplicate rotates the seats" in refused.stderr
    assert "Traceback" not in refused.stderr
