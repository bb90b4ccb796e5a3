"""`epigames play kwartet`: what agents learn, --trace-knowledge, and no leaks with --seat."""

from __future__ import annotations

import json

import pytest

from epigames.commands.play import json_lines, match_steps
from epigames.games import Match, load_game, play_match
from epigames.games.kwartet import Dealt, KwartetState
from tests.commands.test_play import run
from tests.conformance.oracles import kwartet_hidden

SPEC = "kwartet(players=3,kinds=4)"
PLAYERS = "random,random,random"


def known_by_view(state: KwartetState, seat: int) -> dict[str, str]:
    knowledge = state.observation(seat).knowledge
    names = state.game.seat_names
    out = {}
    for card in state.game.deck:
        holder = knowledge.holder(card)
        if holder is not None:
            out[str(card)] = names[holder]
    return out


def test_json_trace_lists_each_agents_known_holders(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", SPEC, "--seed", "4", "--json", "--trace-knowledge"], capsys)
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    result = play_match(SPEC, ["random"] * 3, 4)
    traces = [line for line in lines if line["type"] == "knowledge"]
    assert len(traces) == result.moves + 1  # after the deal and after every ask
    # Each trace follows the last event of its action and equals the views' knowledge.
    state = load_game(SPEC).new_initial_state()
    assert isinstance(state, KwartetState)
    names = state.game.seat_names
    history = list(result.history)
    for trace in traces:
        while len(state.history) < trace["step"]:
            state.apply(history.pop(0))
        assert trace["known"] == {names[s]: known_by_view(state, s) for s in range(3)}
        assert trace["worlds"] == {
            names[s]: state.observation(s).knowledge.worlds_count() for s in range(3)
        }
    position = {id(line): i for i, line in enumerate(lines)}
    for trace in traces:
        before = lines[position[id(trace)] - 1]
        assert before["type"] == "event" and before["step"] == trace["step"]
    assert lines[-1]["type"] == "result"


def test_json_trace_for_one_seat_shows_only_its_knowledge(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["play", SPEC, "--seed", "4", "--json", "--trace-knowledge", "--seat", "1"]
    code, out, _ = run(args, capsys)
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    traces = [line for line in lines if line["type"] == "knowledge"]
    assert traces and all(set(t["known"]) == {"Northwest"} for t in traces)
    # The deal lines: only the seat's own hand.
    dealt = [line for line in lines if line.get("kind") == "dealt"]
    assert [line["seat"] for line in dealt] == [1]
    # Nothing hidden from the seat at that point appears in any line.
    result = play_match(SPEC, ["random"] * 3, 4)
    state = load_game(SPEC).new_initial_state()
    history = list(result.history)
    for line in lines[1:-1]:
        while len(state.history) < line["step"]:
            state.apply(history.pop(0))
        if line["type"] == "decision":
            continue  # the seat's own thoughts, from its own view
        text = json.dumps(line, ensure_ascii=False)
        assert not {t for t in kwartet_hidden(state, 1) if t in text}, line


def test_without_trace_json_has_no_knowledge_lines() -> None:
    match = Match(SPEC, ["random"] * 3, 4)
    assert not [line for line in json_lines(match, None) if line["type"] == "knowledge"]


def test_transcript_names_what_agents_learn(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", SPEC, "--seed", "4", "--players", PLAYERS], capsys)
    assert code == 0
    names = load_game(SPEC).seat_names
    expected = []
    previous: dict[int, dict[str, str]] = {}
    for step in match_steps(Match(SPEC, ["random"] * 3, 4), range(3), knowledge=True):
        assert isinstance(step.state, KwartetState)
        if step.entry is not None:
            for seat in range(3):
                now = known_by_view(step.state, seat)
                new = {
                    c: h
                    for c, h in now.items()
                    if h != names[seat] and previous.get(seat, {}).get(c) != h
                }
                for card, holder in new.items():
                    expected.append((names[seat], holder, card))
        if step.known:
            previous = {s: known_by_view(step.state, s) for s in range(3)}
    assert expected, "nobody learned anything: the test would be vacuous"
    learned = [line.strip() for line in out.splitlines() if " now knows " in line]
    for name, holder, card in expected:
        assert any(
            line.startswith(f"{name} now knows ") and f": {holder}" in line and card in line
            for line in learned
        ), (name, holder, card)
    assert sum(line.count("⟨") for line in learned) == len(expected)
    assert "lays down kind" in out and "Final scores" in out


def test_seat_transcript_shows_only_the_seats_own_knowledge(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["play", SPEC, "--seed", "4", "--seat", "Northeast", "--trace-knowledge"]
    code, out, _ = run(args, capsys)
    assert code == 0
    learned = [line.strip() for line in out.splitlines() if " now knows " in line]
    traced = [line.strip() for line in out.splitlines() if line.strip().startswith("[")]
    assert learned and traced
    assert all(line.startswith("Northeast now knows ") for line in learned)
    assert all(line.startswith("[Northeast knows]") for line in traced)
    # No card still hidden from Northeast at the end is named in a knowledge line.
    result = play_match(SPEC, ["random"] * 3, 4)
    others = [e for e in result.events if isinstance(e, Dealt) and e.seat != 2]
    assert others
    state = load_game(SPEC).new_initial_state()
    for action in result.history:
        state.apply(action)
    final_hidden = kwartet_hidden(state, 2)
    for line in learned + traced:
        assert not {t for t in final_hidden if t in line}, line


def test_full_game_of_the_issue_is_readable(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["play", "kwartet", "--players", "greedy,silent,mixed,random", "--seed", "1"], capsys
    )
    assert code == 0
    assert " now knows " in out and "Game over" in out and "Final scores" in out
