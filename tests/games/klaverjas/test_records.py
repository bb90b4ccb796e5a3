"""The public records of Klaverjas: what the table keeps equals what the log says."""

from __future__ import annotations

import random

import pytest

from epigames.cards import Play
from epigames.games import CHANCE, load_game
from epigames.games.klaverjas import CardPlayed, DealDone, KlaverjasState, TrumpChosen


@pytest.mark.parametrize("spec", ["klaverjas(deals=2)", "klaverjas(deals=2,trump=bidding)"])
def test_the_table_keeps_the_deals_plays_hand_sizes_and_chooser(spec: str) -> None:
    """At every step of seeded random games the table's plays, hand sizes and trump
    chooser are those read from this deal's public announcements, one by one."""
    rng = random.Random(7)
    checked = 0
    for _ in range(3):
        state = load_game(spec).new_initial_state()
        assert isinstance(state, KlaverjasState)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(outcomes[rng.randrange(len(outcomes))][0])
                continue
            view = state.observation(rng.randrange(4))
            plays: list[Play] = []
            sizes: list[int] = []
            chooser = None
            for event in view.deal_events:
                if isinstance(event, DealDone):
                    sizes = list(event.hand_sizes)
                elif isinstance(event, CardPlayed):
                    plays.append(Play(event.seat, event.card))
                    sizes[event.seat] -= 1
                elif isinstance(event, TrumpChosen) and event.chooser >= 0:
                    chooser = event.chooser
            table = view.table
            assert table.plays == tuple(plays)
            assert table.sizes == tuple(sizes)
            assert table.chooser == chooser
            assert view.to_dict(include_log=False)["hand_sizes"] == sizes
            checked += 1
            state.apply(rng.choice(list(state.legal_actions())))
    assert checked > 100
