"""`epigames replay FILE`: a transcript replays on its own, in every registered game, and a
changed or broken one is found out with the step and line, never with a traceback."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from epigames.commands.play import json_lines
from epigames.games import Match, load_game, registered_games
from epigames.games.core import game_class
from epigames.games.kemps import KempsState, Swapped
from epigames.games.transcript import FORMAT, TranscriptError, check_transcript
from tests.commands.helpers import run
from tests.conformance.oracles import showcase_lineup
from tests.golden.make import LINEUPS

#: The smallest golden setting of each game, with its golden line-up.
SMALL = {
    "blufpoker": "blufpoker(players=2,penalties=2)",
    "kemps": "kemps(ranks=5,max_turns=40)",
    "klaverjas": (
        "klaverjas(ranks=4,undertrump=free,trump=random,deals=3,target=150,four_kind=false)"
    ),
    "kwartet": "kwartet(players=3,kinds=5)",
}
KEMPS = "kemps(ranks=5,max_turns=40)"
#: The line-up of each setting: the golden one, or a game's showcase (the template game).
AGENTS = dict(LINEUPS)
for _name in registered_games():
    if _name not in SMALL and game_class(_name).__module__.startswith("epigames."):
        _spec, AGENTS[_spec] = showcase_lineup(_name)
        SMALL[_name] = _spec


def transcript(spec: str, seed: int, **options: str) -> list[str]:
    """The lines `epigames play SPEC --json` prints for the golden line-up."""
    match = Match(spec, AGENTS[spec], seed)
    return [json.dumps(line) for line in json_lines(match, None, **options)]


def test_every_registered_game_has_a_setting_here() -> None:
    assert set(SMALL) == set(registered_games())


@pytest.mark.parametrize("spec", SMALL.values())
def test_a_transcript_replays_through_the_rules(spec: str) -> None:
    lines = transcript(spec, 2)
    report = check_transcript(lines)
    result = Match(spec, AGENTS[spec], 2).run()
    assert report.difference is None
    assert report.steps == len(result.history) and report.game == str(load_game(spec))


def test_the_cli_says_it_agrees_or_where_it_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = transcript(KEMPS, 4)
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run(["replay", str(good)], capsys)
    assert code == 0 and "every event and the result agree" in out
    # Two cards of South's first hand drawn the other way round (the table's six come
    # first): the deal is the same, South's hand is in another order.
    chances = [i for i, line in enumerate(lines) if json.loads(line)["type"] == "chance"]
    first, second = json.loads(lines[chances[7]]), json.loads(lines[chances[8]])
    first["outcome"], second["outcome"] = second["outcome"], first["outcome"]
    changed = list(lines)
    changed[chances[7]], changed[chances[8]] = json.dumps(first), json.dumps(second)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(changed) + "\n", encoding="utf-8")
    code, out, err = run(["replay", str(bad)], capsys)
    dealt = next(i for i, line in enumerate(lines) if json.loads(line).get("kind") == "dealt")
    assert code == 1 and err == ""
    assert f"at step {json.loads(lines[dealt])['step']} (line {dealt + 1})" in out
    assert '"kind": "dealt", "cards": [' in out


def test_a_changed_decision_or_result_is_a_difference() -> None:
    lines = transcript(KEMPS, 4)
    decisions = [i for i, line in enumerate(lines) if json.loads(line)["type"] == "decision"]
    swap = next(i for i in decisions if json.loads(lines[i])["action"].startswith("swap"))
    data = json.loads(lines[swap])
    data["action"] = "swap 9 " + data["action"].split()[2]
    report = check_transcript([*lines[:swap], json.dumps(data), *lines[swap + 1 :]])
    assert report.difference is not None
    assert report.difference.step == data["step"] and report.difference.line == swap + 1
    assert "the table has slots 1 to 6" in report.difference.rules
    result = json.loads(lines[-1])
    result["returns"] = [r + 1 for r in result["returns"]]
    report = check_transcript([*lines[:-1], json.dumps(result)])
    assert report.difference is not None and report.difference.line == len(lines)
    short = check_transcript(lines[: decisions[-1]])
    assert short.difference is not None and "no more steps" in short.difference.transcript


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda lines: [lines[0], lines[1][:20], *lines[2:]], "line 2 is not JSON"),
        (lambda lines: ["[1, 2]", *lines], "line 1: expected a JSON object with a 'type'"),
        (lambda lines: lines[1:], "line 1: expected the 'match' header"),
        (lambda lines: [], "is empty"),
        (lambda lines: [lines[0], *lines[2:]], "step 2 where step 1 was expected"),
        (
            lambda lines: [lines[0].replace(f'"format": {FORMAT}', '"format": 1'), *lines[1:]],
            "format 1; this version replays format",
        ),
        (
            lambda lines: [lines[0], '{"type": "oops", "step": 1}', *lines[1:]],
            "unknown line type 'oops'",
        ),
        (
            lambda lines: [lines[0], '{"type": "chance", "step": "one"}', *lines[1:]],
            "needs a 'step' number from 1, not 'one'",
        ),
        (
            lambda lines: [lines[0].replace('"game": "kemps(', '"game": "kemp('), *lines[1:]],
            "unknown game 'kemp'",
        ),
    ],
    ids=["json", "object", "header", "empty", "gap", "format", "type", "step", "game"],
)
def test_a_broken_file_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: object, message: str
) -> None:
    lines = change(transcript(KEMPS, 1))  # type: ignore[operator]
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 2 and out == ""
    assert message in " ".join(err.split()) and "Traceback" not in err


def test_a_seats_transcript_or_a_missing_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = Match(KEMPS, LINEUPS[KEMPS], 1)
    lines = [json.dumps(line) for line in json_lines(match, 1)]
    with pytest.raises(TranscriptError, match="as seat 1 sees it"):
        check_transcript(lines)
    code, _, err = run(["replay", str(tmp_path / "none.jsonl")], capsys)
    assert code == 2 and "cannot read transcript" in err and "Traceback" not in err


def test_kemps_lines_number_slots_from_1_and_mark_the_last_swap() -> None:
    """The swap event's slot is the action's; a turn ended by its last swap says so."""
    spec = "kemps(players=4,table=3,ranks=6,max_swaps=1,redeal_after=1,max_turns=40)"
    lines = [json.loads(line) for line in transcript(spec, 3)]
    header = lines[0]
    places = ["table", "deck", "discard", "out"]
    assert header["holders"] == ["South", "West", "North", "East", *places]
    assert header["holder_labels"] == list(load_game(spec).holder_labels)
    decisions = {line["step"]: line for line in lines if line["type"] == "decision"}
    swaps = [line for line in lines if line.get("kind") == "swap"]
    assert swaps
    for swap in swaps:
        assert decisions[swap["step"]]["action"].split()[1] == str(swap["slot"])
        assert f"(slot {swap['slot']})" in swap["text"]
        assert swap["ends_turn"] and "the last swap of the turn" in swap["text"]  # max_swaps=1
    endings = {line["step"] for line in lines if line.get("kind") in ("turn", "kemps")}
    assert {swap["step"] for swap in swaps} <= endings  # no `done`: the swap's step ends it


def test_a_swap_before_the_limit_does_not_end_the_turn() -> None:
    game = load_game("kemps(ranks=5)")
    state = game.new_initial_state()
    assert isinstance(state, KempsState)
    deal = "6♥ 5♦ 3♦ 3♣ 4♠ 6♣  2♥ 5♥ 4♥ 5♣  5♠ 6♦ 2♠ 4♣  2♦ 4♦ 2♣ 3♥"
    for card in deal.split():
        state.apply(game.parse_action(card))
    state.apply(game.parse_action("swap 2 4♥"))
    event = state.events[-1]
    assert isinstance(event, Swapped) and not event.ends_turn and event.to_dict()["slot"] == 2


def test_full_knowledge_lines_give_exact_probabilities_and_deals() -> None:
    lines = [json.loads(line) for line in transcript(KEMPS, 2, trace_knowledge="full")]
    traces = [line for line in lines if line["type"] == "knowledge"]
    assert traces
    game = load_game(KEMPS)
    layout = game.card_layout
    assert layout is not None
    state = game.new_initial_state()
    history = list(Match(KEMPS, LINEUPS[KEMPS], 2).run().history)
    for trace in traces[:: max(1, len(traces) // 8)]:
        while len(state.history) < trace["step"]:
            state.apply(history.pop(0))
        for seat, name in enumerate(game.seat_names):
            knowledge = state.observation(seat).knowledge
            assert trace["worlds"][name] == knowledge.worlds_count()
            possible = trace["possible"][name]
            assert len(possible) == len(layout.cards)
            for card, places in possible.items():
                assert sum(Fraction(p) for p in places.values()) == 1, card
                known = trace["known"][name].get(card)
                if known is not None:
                    assert places == {known: "1"}
