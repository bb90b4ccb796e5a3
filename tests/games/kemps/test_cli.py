"""`epigames play kemps`: --seat, --json, and clear errors for bad input."""

from __future__ import annotations

import json

import pytest

from epigames.games.kemps import Dealt
from tests.commands.test_play import run

SPEC = "kemps(ranks=5,max_turns=30)"
PLAYERS = "greedy,kbgreedy,blocking"


def test_json_lines_of_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", SPEC, "-p", PLAYERS, "--seed", "3", "--json"], capsys)
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["type"] == "match" and lines[0]["strategies"] == PLAYERS.split(",")
    kinds = {line.get("kind") for line in lines if line["type"] == "event"}
    assert {"deal", "dealt", "swap", "kemps", "end"} <= kinds


def test_a_seat_sees_only_its_own_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", SPEC, "-p", PLAYERS, "--seed", "3", "--seat", "West"], capsys)
    assert code == 0
    assert "as seen by West" in out and "West is dealt" in out
    assert "South is dealt" not in out and "North is dealt" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "kemps(ranks=2)"], "need at least 18 cards"),
        (["play", "kemps(table=0)"], "table=0"),
        (["play", "kemps", "-p", "greedy,gredy,random"], "unknown strategy 'gredy' for kemps"),
        (["play", SPEC, "--seat", "East"], "no seat 'East' in kemps"),
    ],
)
def test_bad_input_is_one_error_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(args, capsys)
    assert code == 2
    assert message in err and "Traceback" not in err + out


def test_dealt_is_private() -> None:
    assert not Dealt.public


TEAM_SPEC = "kemps(teams=true,players=4,table=4,ranks=5,max_turns=200)"


@pytest.mark.parametrize(("seat", "sees_signal"), [("South", True), ("West", False)])
def test_the_team_signal_reaches_the_partner_only(
    seat: str, sees_signal: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """In seed 1 North signals four of a kind and South calls Kemps! for it: North's partner
    South is shown the signal; opponent West sees only that North ended its turn."""
    args = ["play", TEAM_SPEC, "-p", "greedy,greedy,greedy,greedy", "--seed", "1"]
    code, out, _ = run([*args, "--seat", seat, "--json"], capsys)
    assert code == 0
    events = [e for e in map(json.loads, out.splitlines()) if e["type"] == "event"]
    texts = [e["text"] for e in events]
    assert ("signal" in {e["kind"] for e in events}) is sees_signal
    assert ("North makes the team's secret signal: four of a kind." in texts) is sees_signal
    assert "North ends the turn after 3 swaps." in texts
    called = "South calls Kemps! for North: right, four 2s leave the game (South's team has 1)."
    assert called in texts
