"""`epigames play`: transcripts, one seat's view, JSON lines, errors."""

from __future__ import annotations

import json

import pytest

from epigames.games import load_game, play_match, replay
from epigames.games.kwartet import Dealt
from tests.commands.helpers import run
from tests.conformance.oracles import kwartet_hidden

SPEC = "kwartet(players=3,kinds=4)"


def test_full_transcript(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", SPEC, "--seed", "3"], capsys)
    result = play_match(SPEC, ["random"] * 3, 3)
    assert code == 0
    for event in result.events:
        assert event.text in out
    assert out.count(" thinks: ") == result.moves
    assert "Final scores" in out and "winner" in out


def test_seat_transcript_shows_nothing_hidden(capsys: pytest.CaptureFixture[str]) -> None:
    seat = 1
    code, out, _ = run(["play", SPEC, "--seed", "3", "--seat", "Northwest"], capsys)
    assert code == 0
    result = play_match(SPEC, ["random"] * 3, 3)
    for event in result.events:
        assert (event.text in out) == event.visible_to(seat), event.text
    names = load_game(SPEC).seat_names
    thinkers = {
        line.split(" thinks:")[0].split()[-1] for line in out.splitlines() if " thinks:" in line
    }
    assert thinkers == {names[seat]}
    # Line by line: nothing but the seat's own thoughts may name a card that is hidden from it
    # at that point (cards in other hands never named by a public event so far).
    state = replay(SPEC, [a for a in result.history if not hasattr(a, "target")])
    visible = [e for e in result.events if e.visible_to(seat)]
    history = list(result.history)[len(state.history) :]
    pointer = 0
    hidden = kwartet_hidden(state, seat)
    for line in out.splitlines():
        if " thinks: " in line:
            continue
        if pointer < len(visible) and line.strip().endswith(visible[pointer].text):
            pointer += 1
            while history and len(state.events) < result.events.index(visible[pointer - 1]) + 1:
                state.apply(history.pop(0))
            hidden = kwartet_hidden(state, seat)
            continue
        assert not {t for t in hidden if t in line}, line
    assert pointer == len(visible)


def test_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", SPEC, "--seed", "3", "--json"], capsys)
    lines = [json.loads(line) for line in out.splitlines()]
    result = play_match(SPEC, ["random"] * 3, 3)
    assert code == 0 and lines[0]["type"] == "match" and lines[-1]["type"] == "result"
    events = [line for line in lines if line["type"] == "event"]
    assert [{k: v for k, v in e.items() if k != "step"} for e in events] == [
        {"type": "event", **e.to_dict()} for e in result.events
    ]
    # One step number: every chance outcome and decision, in order, then its events.
    actions = [line for line in lines if line["type"] in ("chance", "decision")]
    assert [line["step"] for line in actions] == list(range(1, len(result.history) + 1))
    history = [load_game(SPEC).action_to_string(a) for a in result.history]
    assert [line.get("outcome", line.get("action")) for line in actions] == history
    steps = [line["step"] for line in lines[1:-1]]
    assert steps == sorted(steps)
    assert sum(1 for line in events if line["kind"] == "dealt") == 3
    assert sum(1 for line in lines if line["type"] == "decision") == result.moves
    assert lines[-1] == {
        "type": "result",
        "returns": list(result.returns),
        "winners": list(result.winners),
        "moves": result.moves,
    }


def test_json_lines_for_one_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", SPEC, "--seed", "3", "--json", "--seat", "2"], capsys)
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and lines[0]["viewer"] == 2
    for line in lines:
        if line["type"] == "decision":
            assert line["seat"] == 2
        if line["type"] == "event":
            assert line["public"] or line["seat"] == 2
    result = play_match(SPEC, ["random"] * 3, 3)
    others = [e for e in result.events if isinstance(e, Dealt) and e.seat != 2]
    deal_end = next(i for i, line in enumerate(lines) if line.get("kind") == "deal")
    head = json.dumps(lines[: deal_end + 1], ensure_ascii=False)
    for event in others:
        assert not any(str(c) in head for c in event.cards)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["kwartt"], "unknown game 'kwartt'"),
        (["kwartet(players=9)"], "out of range 3..6"),
        (["kwartet", "--players", "random,gredy,random,random"], "unknown strategy 'gredy'"),
        (["kwartet", "--players", "random,random"], "needs 4 strategies; got 2"),
        (["kwartet", "--players", "random,,random,random"], "empty name"),
        (["kwartet", "--seat", "Up"], "no seat 'Up'"),
        (["kwartet", "--seat", "4"], "no seat '4'"),
        (["kwartet", "--seed", "-1"], "seed -1"),
    ],
)
def test_errors_exit_2_with_one_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["play", *args], capsys)
    assert code == 2 and message in " ".join(err.split()) and "Traceback" not in err
    assert out == ""


def test_help_lists_games_and_strategies(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--help"], capsys)
    assert code == 0
    flat = " ".join(out.split())
    assert "kwartet (strategies: aggressive, defensive, expert," in flat
    assert "--seat" in flat and "--json" in flat
