"""Golden transcripts and tournament rows: 100 seeded games per game setting, unchanged.

For every setting of `tests.conformance.oracles.SETTINGS` (with the line-up of
`tests.golden.make.LINEUPS`) and seeds 0..99, the JSON-lines transcript printed by
`epigames play GAME --players LINEUP --seed SEED --json` and the row the tournament runner
stores for game SEED must hash to the digests kept in `tests/golden/<slug>.json` (see
`tests/golden/make.py` for exactly what is hashed). They guard the play loops (`play_match`,
`epigames play`, the tournament runner) against any change of behaviour.

When a change of behaviour is intended, regenerate the files and review their diff:

    python -m tests.golden.make
    # or: EPIGAMES_REGENERATE_GOLDEN=1 python3 -m pytest tests/games/test_golden.py
"""

from __future__ import annotations

import copy
import difflib
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from epigames.cli import app
from epigames.games import load_game, registered_games
from epigames.games.core import game_class
from tests.conformance.oracles import SETTINGS
from tests.golden import make
from tests.golden.make import Setting

ALL = make.settings()
#: Games of each setting replayed through the real runner and DuckDB file (the stored rows).
STORED_GAMES = 12
#: How many lines of a unified diff a failure shows.
DIFF_LINES = 40
#: How many failing seeds a failure lists one by one.
LISTED = 10


def _ids(setting: Setting) -> str:
    return setting.slug


def diff_head(expected: str, actual: str, what: str) -> str:
    """The first `DIFF_LINES` lines of a unified diff of two texts."""
    diff = difflib.unified_diff(
        expected.splitlines(),
        actual.splitlines(),
        f"golden {what}",
        f"current {what}",
        lineterm="",
    )
    lines = list(diff)
    more = f"\n... ({len(lines) - DIFF_LINES} more diff lines)" if len(lines) > DIFF_LINES else ""
    return "\n".join(lines[:DIFF_LINES]) + more


def compare(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """What differs between a golden file's content and a freshly computed one.

    One message per difference, naming the setting and the seed; for seed 0 (whose texts
    the file keeps in full) with the head of a unified diff. Empty when they are equal.
    """
    name = expected.get("setting", "?")
    problems: list[str] = []
    for key in ("format", "setting", "game", "lineup", "command", "tournament"):
        if expected.get(key) != actual.get(key):
            problems.append(
                f"{name}: {key} is {actual.get(key)!r}, golden file has {expected.get(key)!r}"
            )
    seeds_e: dict[str, dict[str, str]] = expected.get("seeds", {})
    seeds_a: dict[str, dict[str, str]] = actual.get("seeds", {})
    if seeds_e.keys() != seeds_a.keys():
        problems.append(
            f"{name}: seeds {sorted(seeds_a, key=int)[:3]}... ({len(seeds_a)}) differ from the "
            f"golden file's ({len(seeds_e)})"
        )
    failing: list[str] = []
    for seed in sorted(seeds_e.keys() & seeds_a.keys(), key=int):
        for kind in ("transcript", "rows"):
            if seeds_e[seed].get(kind) == seeds_a[seed].get(kind):
                continue
            if kind == "transcript":
                how = f"`{actual.get('command', '?').replace('SEED', seed)}`"
            else:
                how = f"tournament game index {seed}"
            message = f"{name} seed {seed}: {kind} differs ({how})"
            if seed == "0":
                message += ":\n" + diff_head(
                    make.join_lines(expected["seed0"][kind]),
                    make.join_lines(actual["seed0"][kind]),
                    f"{kind} of {name} seed 0",
                )
            failing.append(message)
    problems.extend(failing[:LISTED])
    if len(failing) > LISTED:
        problems.append(f"{name}: ... and {len(failing) - LISTED} more differing seeds")
    return problems


@pytest.mark.parametrize("setting", ALL, ids=_ids)
def test_transcripts_and_rows_match_golden(setting: Setting) -> None:
    if os.environ.get(make.REGENERATE_ENV) == "1":
        make.write(setting)
        pytest.skip(f"{make.REGENERATE_ENV}=1: regenerated {setting.path.name}")
    assert setting.path.exists(), (
        f"no golden file for {setting.given}; run `python -m tests.golden.make`"
    )
    problems = compare(make.load(setting), make.compute(setting))
    assert not problems, (
        f"{len(problems)} difference(s) from the golden file {setting.path.name} "
        "(if intended, regenerate: python -m tests.golden.make):\n" + "\n".join(problems)
    )


@pytest.mark.parametrize("setting", ALL, ids=_ids)
def test_golden_file_is_complete_and_consistent(setting: Setting) -> None:
    golden = make.load(setting)
    assert list(golden["seeds"]) == [str(s) for s in range(make.SEEDS)]
    for kind in ("transcript", "rows"):
        text = make.join_lines(golden["seed0"][kind])
        assert make.sha256(text) == golden["seeds"]["0"][kind], (setting.given, kind)
    assert golden["lineup"] == list(setting.lineup)


@pytest.mark.parametrize("setting", ALL, ids=_ids)
def test_the_command_prints_the_golden_transcript(setting: Setting) -> None:
    """The in-process transcript is byte for byte what `epigames play --json` prints."""
    result = CliRunner().invoke(app, setting.command(0))
    assert result.exit_code == 0, result.output
    expected = make.join_lines(make.load(setting)["seed0"]["transcript"])
    assert result.stdout == expected, diff_head(expected, result.stdout, setting.given)


@pytest.mark.parametrize("setting", ALL, ids=_ids)
def test_the_stored_rows_match_golden(setting: Setting, tmp_path: Path) -> None:
    """The first games, run by `run_tournament` into a DuckDB file and read back."""
    pytest.importorskip("duckdb")
    from epigames.tournament.config import checked_config
    from epigames.tournament.runner import run_tournament
    from epigames.tournament.store import TournamentStore

    golden = make.load(setting)
    config = checked_config(
        setting.given,
        setting.lineup,
        STORED_GAMES,
        seed=make.TOURNAMENT_SEED,
        name=make.TOURNAMENT_NAME,
    )
    with TournamentStore.open(tmp_path / "golden.duckdb") as store:
        run_tournament(config, store, jobs=1)
        rows = store.rows(config.name)
    assert [r.index for r in rows] == list(range(STORED_GAMES))
    for row in rows:
        digest = make.sha256(make.rows_text(config, [row]))
        assert digest == golden["seeds"][str(row.index)]["rows"], (
            f"{setting.given}: stored row of game {row.index} differs from the golden file: "
            f"{make.rows_text(config, [row])}"
        )


def test_every_game_and_setting_has_a_golden_file() -> None:
    built_in = {g for g in registered_games() if game_class(g).__module__.startswith("epigames.")}
    assert built_in <= {load_game(s.given).name for s in ALL}, "a registered game has no file"
    assert len(ALL) == sum(len(v) for v in SETTINGS.values()) + len(built_in - set(SETTINGS))
    files = {p.name for p in make.GOLDEN_DIR.glob("*.json")}
    assert files == {s.path.name for s in ALL}, "stale or missing golden files"


# -- the comparison can fail ------------------------------------------------------------


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    return make.load(ALL[0])


def test_compare_accepts_equal_content(golden: dict[str, Any]) -> None:
    assert compare(golden, copy.deepcopy(golden)) == []


def test_compare_reports_a_changed_transcript_digest(golden: dict[str, Any]) -> None:
    changed = copy.deepcopy(golden)
    changed["seeds"]["42"]["transcript"] = "0" * 64
    problems = compare(golden, changed)
    assert len(problems) == 1
    assert problems[0].startswith(f"{golden['setting']} seed 42: transcript differs")
    assert "--seed 42 --json" in problems[0]


def test_compare_reports_changed_rows_with_a_diff_for_seed_0(golden: dict[str, Any]) -> None:
    changed = copy.deepcopy(golden)
    row = changed["seed0"]["rows"][0]
    changed["seed0"]["rows"][0] = row.replace('"moves": ', '"moves": 1')
    changed["seeds"]["0"]["rows"] = make.sha256(make.join_lines(changed["seed0"]["rows"]))
    changed["seeds"]["7"]["rows"] = "f" * 64
    problems = compare(golden, changed)
    assert [p.split(":")[0] for p in problems] == [
        f"{golden['setting']} seed 0",
        f"{golden['setting']} seed 7",
    ]
    assert f"-{row}" in problems[0] and f"+{changed['seed0']['rows'][0]}" in problems[0]


def test_compare_reports_a_changed_setting_and_caps_the_list(golden: dict[str, Any]) -> None:
    changed = copy.deepcopy(golden)
    changed["lineup"] = ["random"] * len(golden["lineup"])
    for digests in changed["seeds"].values():
        digests["transcript"] = "1" * 64
    changed["seed0"]["transcript"] = changed["seed0"]["transcript"][:-1]
    problems = compare(golden, changed)
    assert problems[0].startswith(f"{golden['setting']}: lineup is")
    assert len(problems) == 1 + LISTED + 1
    assert problems[-1].endswith(f"and {make.SEEDS - LISTED} more differing seeds")
    assert '"type": "result"' in problems[1]  # the seed-0 diff shows the dropped line
