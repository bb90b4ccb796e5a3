"""The team game's rules seen from outside: who sees a signal, the call window, bad calls."""

from __future__ import annotations

import json

import pytest

from epigames.errors import InputError
from epigames.games import Match, load_game
from epigames.games.kemps.events import Signalled
from tests.conformance.oracles import kemps_hidden

GAME = "kemps(teams=true,ranks=6,max_turns=60)"


def test_partners_sit_opposite_and_share_the_team_score() -> None:
    game = load_game(GAME)
    assert game.teams == ((0, 2), (1, 3))
    for seed in range(6):
        state = Match(game, ["greedy", "random", "kbgreedy", "random"], seed).run()
        returns = state.returns
        assert returns[0] == returns[2] and returns[1] == returns[3]


def test_only_the_partner_sees_a_signal() -> None:
    seen = 0
    for seed in range(20):
        match = Match(GAME, ["greedy"] * 4, seed)
        match.run()
        for event in match.state.events:
            if isinstance(event, Signalled):
                partner = (event.seat + 2) % 4
                assert event.visible_to(event.seat) and event.visible_to(partner)
                opponents = ((event.seat + 1) % 4, (event.seat + 3) % 4)
                assert not any(event.visible_to(s) for s in opponents)
                seen += 1
    assert seen > 0, "no seeded game had a signal: choose other seeds"


def test_no_view_shows_a_signal_it_was_not_given() -> None:
    """Played by greedy players (random ones seldom hold four of a kind): after a signal,
    an opponent's whole view (JSON and summary) holds no hidden token — the signal's text
    among them — while the partner's view does show the signal."""
    checked = 0
    for seed in range(6):
        match = Match(GAME, ["greedy"] * 4, seed)
        while not match.state.is_terminal():
            before = len(match.state.events)
            match.step()
            state = match.state
            new = [e for e in state.events[before:] if isinstance(e, Signalled)]
            if not new:
                continue
            signal = new[0]
            for seat in range(4):
                view = state.observation(seat)
                text = json.dumps(view.to_dict(), ensure_ascii=False) + view.summary()
                hidden = kemps_hidden(state, seat)
                assert (signal.text in hidden) is not signal.visible_to(seat)
                assert not {token for token in hidden if token in text}
                assert (signal.text in text) is signal.visible_to(seat)
                checked += 1
    assert checked > 0, "no seeded game had a signal: choose other seeds"


def test_a_call_window_follows_every_turn_and_refuses_bad_calls() -> None:
    match = Match(GAME, ["random"] * 4, 3, humans={1})
    match.advance()
    state = match.state
    # West's first decision: its own turn or a call window after South's turn.
    legal = {str(a) for a in state.legal_actions()}
    if "pass" not in legal:
        match.apply(state.game.parse_action("done"))
        match.advance()
        legal = {str(a) for a in match.state.legal_actions()}
    assert "pass" in legal
    assert {"kemps 3", "stop 0", "stop 2"} <= legal
    with pytest.raises(InputError, match="against an opponent, not East"):
        match.apply(match.state.game.parse_action("stop 3"))  # Stop Kemps against the partner
    with pytest.raises(InputError, match="for one's partner, East"):
        match.apply(match.state.game.parse_action("kemps 0"))  # Kemps! for an opponent
    match.apply(match.state.game.parse_action("pass"))  # nothing was lost: the call is still open
