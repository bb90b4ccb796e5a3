"""The JSON Schemas of `epigames play --json`: complete, described, published, and met by
the seeded transcripts of every registered game and every golden setting."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from epigames.cli import run
from epigames.commands.play import json_lines
from epigames.commands.schema import schema_text
from epigames.games import Match, load_game, registered_games
from epigames.games.core import game_class
from epigames.games.schema import schema_markdown, transcript_schema, undescribed
from epigames.games.transcript import check_transcript
from tests.conformance.oracles import showcase_lineup
from tests.golden.make import Setting, load, settings

DOCS = Path(__file__).resolve().parents[2] / "docs" / "schema"


@cache
def validator(name: str) -> Draft202012Validator:
    schema = transcript_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@cache
def defs_by_kind(name: str) -> dict[str, list[str]]:
    """`type` (or an event's `kind`) → the names of the definitions it may be."""
    found: dict[str, list[str]] = {}
    for title, line in transcript_schema(name)["$defs"].items():
        props = line["properties"]
        key = props["kind"]["const"] if "kind" in props else props["type"]["const"]
        found.setdefault(key, []).append(title)
    return found


def check_lines(game: str, lines: list[dict[str, Any]]) -> None:
    """Every line meets the game's schema, and the definition its `type`/`kind` names."""
    name = load_game(game).name
    schema = transcript_schema(name)
    check = validator(name)
    for number, line in enumerate(lines, 1):
        key = line["kind"] if line["type"] == "event" else line["type"]
        titles = defs_by_kind(name).get(key)
        assert titles, f"line {number}: no definition for {key!r} in the {name} schema"
        errors = {
            title: list(Draft202012Validator(schema["$defs"][title]).iter_errors(line))
            for title in titles
        }
        assert any(not e for e in errors.values()), (
            f"line {number} {json.dumps(line, ensure_ascii=False)[:300]}: "
            + "; ".join(f"{t}: {e[0].message}" for t, e in errors.items())
        )
        check.validate(line)


def check_decisions(lines: list[dict[str, Any]]) -> None:
    """Every decision's action is among its legal actions."""
    for line in lines:
        if line["type"] == "decision":
            assert line["action"] in line["legal"], line


@pytest.mark.parametrize("name", registered_games())
def test_every_game_declares_its_events_and_describes_every_field(name: str) -> None:
    assert game_class(name).event_types, f"{name} declares no event_types"
    assert undescribed(name) == []
    validator(name)  # a valid JSON Schema


@pytest.mark.parametrize("setting", settings(), ids=lambda s: s.slug)
def test_golden_transcripts_meet_the_schema(setting: Setting) -> None:
    """Seed 0 as the golden file keeps it, and seed 1 played now."""
    kept = [json.loads(line) for line in load(setting)["seed0"]["transcript"]]
    check_lines(setting.game, kept)
    check_decisions(kept)
    played = json_lines(Match(setting.game, setting.lineup, 1), None)
    check_lines(setting.game, played)
    check_decisions(played)


@pytest.mark.parametrize("name", registered_games())
def test_views_and_knowledge_lines_meet_the_schema(name: str) -> None:
    """A seat's view with full knowledge traces, for every registered game's showcase."""
    game, lineup = showcase_lineup(name)
    lines = json_lines(Match(game, lineup, 3), 1, trace_knowledge="full")
    assert any(line["type"] == "knowledge" for line in lines)
    check_lines(game, lines)


def test_klaverjas_names_every_card_s_seat_the_leader_and_one_trump() -> None:
    lines = json_lines(Match("klaverjas(deals=1)", ["random"] * 4, 5), None)
    events = [line for line in lines if line["type"] == "event"]
    trump = next(e for e in events if e["kind"] == "trump")
    leader = trump["leader"]
    plays = [e for e in events if e["kind"] == "card"]
    assert plays[0]["seat"] == leader
    tricks = [e for e in events if e["kind"] == "trick"]
    for trick in tricks:
        assert len(trick["played_by"]) == len(trick["cards"]) == 4
        assert trick["played_by"][0] == leader
        leader = trick["winner"]
    score = next(e for e in events if e["kind"] == "score")
    assert score["trump"] == trump["trump"] and "suit" not in trump
    # The last trick's 10 is in its points and in the deal's points; 162 in all.
    assert tricks[-1]["last"] and sum(score["points"]) == 162


def test_the_published_schemas_are_the_generated_ones() -> None:
    """docs/schema holds what `epigames schema --write docs/schema` writes today."""
    for name in registered_games():
        assert (DOCS / f"{name}.schema.json").read_text(encoding="utf-8") == schema_text(name)
        assert (DOCS / f"{name}.md").read_text(encoding="utf-8") == schema_markdown(name)


def test_the_command_prints_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["schema", "klaverjas(deals=2)"]) == 0
    assert json.loads(capsys.readouterr().out) == transcript_schema("klaverjas")
    assert run(["schema", "kemps", "--markdown"]) == 0
    assert "| `played_by` |" not in capsys.readouterr().out
    assert run(["schema", "klaverjes"]) == 2
    assert "klaverjes" in capsys.readouterr().err


def test_replay_checks_the_legal_actions() -> None:
    lines = json_lines(Match("kwartet(players=3,kinds=4)", ["random"] * 3, 2), None)
    first = next(i for i, line in enumerate(lines) if line["type"] == "decision")
    changed = [dict(line) for line in lines]
    changed[first]["legal"] = changed[first]["legal"][1:]
    report = check_transcript([json.dumps(line) for line in changed])
    assert report.difference is not None
    assert report.difference.line == first + 1
    assert "legal actions" in report.difference.transcript
    assert check_transcript([json.dumps(line) for line in lines]).difference is None
