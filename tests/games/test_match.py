"""`play_match`: its argument checks, seed streams and the transcript."""

from __future__ import annotations

import pytest

from epigames.games import MatchSetupError, UnknownStrategyError, load_game, play_match
from epigames.games.match import seed_streams


def test_play_match_checks_its_arguments() -> None:
    with pytest.raises(MatchSetupError, match="needs 3 strategies; got 2"):
        play_match("kwartet(players=3)", ["random", "random"], 0)
    with pytest.raises(MatchSetupError, match="seed -1"):
        play_match("kwartet", ["random"] * 4, -1)
    with pytest.raises(UnknownStrategyError):
        play_match("kwartet", ["random", "random", "random", "x"], 0)


def test_seed_streams_are_independent_and_reproducible() -> None:
    chance, seats = seed_streams(42, 4)
    draws = [g.random() for g in [chance, *seats]]
    assert len(set(draws)) == 5
    chance2, seats2 = seed_streams(42, 4)
    assert [g.random() for g in [chance2, *seats2]] == draws


def test_transcript_records_decisions_and_their_events() -> None:
    result = play_match("kwartet(players=3,kinds=4)", ["random"] * 3, 5)
    game = load_game(result.game)
    for entry in result.transcript:
        event = result.events[entry.first_event]
        assert event.kind == "ask" and event.asker == entry.seat  # type: ignore[attr-defined]
        assert (
            entry.thought.text.startswith("I ask ") and str(entry.action.card) in entry.thought.text
        )  # type: ignore[attr-defined]
        assert game.seat_names[entry.action.target] in entry.thought.text  # type: ignore[attr-defined]
    assert result.events[-1].kind == "end"
