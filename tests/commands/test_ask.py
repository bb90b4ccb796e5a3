"""`epigames ask`: a formula about card holders or dice at a step of a seeded match; errors."""

from __future__ import annotations

import pytest

from epigames.commands.ask import _building
from epigames.games import load_game
from epigames.games.ask import ask
from epigames.games.steps import match_at
from tests.commands.helpers import run

pytest.importorskip("dd")

GAME = "klaverjas(ranks=3,deals=1)"


def test_answers_as_the_library_does(capsys: pytest.CaptureFixture[str]) -> None:
    text = "K_1 ~holds(2, A♥) & ~K_2 K_1 ~holds(2, A♥)"
    code, out, _ = run(["ask", GAME, "--seed", "1", "--at", "5", text], capsys)
    assert code == 0
    answer = ask(match_at(GAME, ["random"] * 4, 1, 5).state, text)
    lines = out.splitlines()
    assert lines[1].endswith(": true" if answer.value else ": false")
    assert f"deals consistent with the public information: {answer.worlds}" in out


def test_names_the_seats_that_know(capsys: pytest.CaptureFixture[str]) -> None:
    state = match_at(GAME, ["random"] * 4, 2, 0).state
    card = state.hands()[3][0]
    code, out, _ = run(["ask", GAME, "--seed", "2", f"holds(West, {card})"], capsys)
    assert code == 0 and ": true" in out
    assert "known by: West" in out


def test_players_replay_the_same_match(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["ask", "kwartet(players=3,kinds=3)", "--seed", "3", "--at", "4"]
    formula = "K_0 holds(1, ⟨1,1⟩) | ~holds(1, ⟨1,1⟩)"
    code, out, _ = run([*args, formula, "--players", "greedy,silent,random"], capsys)
    assert code == 0
    state = match_at("kwartet(players=3,kinds=3)", ["greedy", "silent", "random"], 3, 4).state
    value = ask(state, formula).value
    assert out.splitlines()[1].endswith(": true" if value else ": false")


def test_dice(capsys: pytest.CaptureFixture[str]) -> None:
    formula = "K_Ann ~cup_111 & ~K_Ann cup_551"
    code, out, _ = run(["ask", "blufpoker", "--seed", "1", "--at", "3", formula], capsys)
    assert code == 0
    assert out.splitlines()[1:] == [
        "K_Ann ~cup_111 & ~K_Ann cup_551: true",
        "known by: Ann, Bob, Cas",
        "rolls consistent with the public information: 11",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["klaverjs", "top"], "unknown game 'klaverjs'"),
        ([GAME, "--at", "100000", "top"], "step 100000 is past the end"),
        ([GAME, "--at", "-1", "top"], "--at -1 is out of range"),
        ([GAME, "holds(0, 8♥)"], "unknown card '8♥'"),
        ([GAME, "holds(North, Z)"], "unknown card 'Z'"),
        ([GAME, "holds(Up, A♥)"], "unknown holder 'Up'"),
        ([GAME, "K_7 holds(0, A♥)"], "unknown seat '7'"),
        ([GAME, "K_1 (holds(0, A♥) &"], "unexpected end of input"),
        ([GAME, "K_1 holds(0, A♥ & p"], "'holds(' is not closed; expected ')' after"),
        ([GAME, "p"], "unknown atom 'p'"),
        (["blufpoker", "holds(0, A♥)"], "unknown atom 'holds(0, A♥)' for blufpoker; its atoms"),
        ([GAME, "cup_653"], "unknown atom 'cup_653'; atoms name who holds a card"),
        ([GAME, "--players", "random,,random,random", "top"], "empty name"),
        (
            [
                "kwartet(players=3,kinds=13)",
                "--limit",
                "2",
                "K_0 (" + " & ".join(f"~holds(2, ⟨{k},1⟩)" for k in range(1, 14)) + ")",
            ],
            "too large for an exact answer",
        ),
        ([GAME, "--limit", "-1", "top"], "--limit -1 is out of range"),
    ],
)
def test_errors_exit_2_with_one_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["ask", *args], capsys)
    assert code == 2 and message in " ".join(err.split()) and "Traceback" not in err
    assert out == ""


@pytest.mark.parametrize(
    ("game", "shown", "typed"),
    [
        ("kwartet(players=3,kinds=3)", "⟨2,2⟩", "<2,2>"),
        ("kwartet(players=3,kinds=3)", "⟨2,2⟩", "2,2"),
        ("kwartet(players=3,kinds=3)", "⟨2,2⟩", "2.2"),
        (GAME, "A♥", "AH"),
        (GAME, "J♠", "js"),
        ("kemps(ranks=5)", "6♥", "6h"),
    ],
)
def test_cards_may_be_written_in_ascii(
    game: str, shown: str, typed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    seats = load_game(game).num_players
    players = ",".join(["random"] * seats)
    truths = []
    for seat in range(seats):
        formula = f"holds({seat}, {{0}}) & K_{seat} holds({seat}, {{0}})"
        answers = []
        for card in (typed, shown):
            args = ["ask", game, "--seed", "3", "--at", "4", "--players", players]
            code, out, err = run([*args, formula.format(card)], capsys)
            assert code == 0, err
            lines = out.splitlines()
            answers.append((lines[1].rsplit(": ", 1)[1], lines[2:]))
        assert answers[0] == answers[1]
        truths.append(answers[0][0])
    assert "true" in truths  # someone holds the card: the atom was read, not taken as false


@pytest.mark.parametrize(
    ("formula", "caret"),
    [
        ("holds(0, A♥", "holds(0, A♥^"),
        ("K_1 holds(0, A♥ & K_2 p", "K_1 holds(0, A♥^"),
        ("~(holds(0, A♥) | holds(1, A♥)", "~(holds(0, A♥) | holds(1, A♥)^"),
    ],
)
def test_a_missing_parenthesis_is_named_where_it_belongs(
    formula: str, caret: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The caret stands where the `)` belongs, under the text as typed (no added quotes)."""
    code, _, err = run(["ask", GAME, formula], capsys)
    assert code == 2 and "Traceback" not in err
    lines = err.splitlines()
    head, typed, marker = lines[-3:]
    assert "unexpected '('" not in head and "')'" in head
    assert typed.strip() == formula
    assert typed[: marker.index("^")] + "^" == "  " + caret


def test_a_large_build_is_announced_with_its_size() -> None:
    big = match_at("kwartet", ["random"] * 4, 0, 0).state
    assert "38,416 combinations" in _building(big, None)
    assert _building(big, 10) == "Answering…"  # refused at once: nothing to wait for
    assert _building(match_at(GAME, ["random"] * 4, 0, 0).state, None) == "Answering…"
    assert _building(match_at("blufpoker", ["random"] * 3, 0, 3).state, None) == "Answering…"
