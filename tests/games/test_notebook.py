"""States and views as HTML tables for Jupyter (`games.notebook`, `_repr_html_`)."""

from __future__ import annotations

import re
from html import escape

from epigames.games import Match, State
from epigames.games.notebook import EVENTS_SHOWN, state_html, view_html

GAME = "kwartet(players=3,kinds=4)"


def dealt() -> State:
    match = Match(GAME, ["expert", "greedy", "mixed"], seed=7)
    match.run_chance()
    return match.state


def rows(html: str) -> list[list[str]]:
    """Every table row's cells, tags stripped."""
    return [
        [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", html)
    ]


def test_a_state_shows_every_seats_hand_and_who_saw_each_event() -> None:
    state = dealt()
    html = state._repr_html_()
    assert html == state_html(state)
    names = state.game.seat_names
    table = rows(html)
    for seat, name in enumerate(names):
        assert [name, escape(state.observation(seat).summary()), "0"] in table
    assert f"{names[state.current_player]} to move" in html
    # Each private deal is listed with the one seat that saw it.
    private = [e for e in state.events if not e.public]
    assert private
    for event in private:
        (seen,) = [r[1] for r in table if len(r) == 3 and r[2] == escape(event.text)]
        assert seen == ", ".join(n for s, n in enumerate(names) if event.visible_to(s))


def test_a_view_shows_its_own_hand_only_and_its_legal_actions() -> None:
    state = dealt()
    mover = state.current_player
    other = (mover + 1) % state.game.num_players
    mine = state.observation(mover)
    html = mine._repr_html_()
    assert html == view_html(mine)
    assert escape(mine.summary()) in html
    assert escape(state.observation(other).summary()) not in html
    # Its own private events only: the other seats' deals are not listed.
    for event in state.events:
        assert (escape(event.text) in html) == event.visible_to(mover)
    legal = [state.game.action_to_string(a) for a in mine.legal_actions]
    (cells,) = [r for r in rows(html) if r[0] == "legal actions"]
    assert cells[1].startswith(", ".join(legal[:EVENTS_SHOWN]))
    waiting = rows(state.observation(other)._repr_html_())
    assert ["legal actions", f"none ({state.game.seat_names[mover]} to move)"] in waiting


def test_a_finished_game_names_its_winners_and_counts_older_events() -> None:
    match = Match(GAME, ["expert", "greedy", "mixed"], seed=7)
    result = match.run()
    state = match.state
    html = state._repr_html_()
    winners = ", ".join(state.game.seat_names[s] for s in result.winners)
    assert f"game over; won by {winners}" in html
    assert len(state.events) > EVENTS_SHOWN
    assert f"… {len(state.events) - EVENTS_SHOWN} earlier" in html
    assert escape(state.events[-1].text) in html
    assert escape(state.events[-EVENTS_SHOWN - 1].text) not in html


def test_before_the_deal_chance_is_to_move() -> None:
    state = Match(GAME, ["expert", "greedy", "mixed"], seed=7).state
    assert "chance to move" in state._repr_html_()
