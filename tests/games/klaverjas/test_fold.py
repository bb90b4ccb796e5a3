"""The knowledge tracker folds a `CardPlayed` without making its facts (`card_played`),
on demand from where it stopped: the same `PublicInfo` as replaying `event.facts`, card
after card."""

from __future__ import annotations

import random

import pytest

from epigames.cards.facts import apply_facts, start_from_counts
from epigames.games import load_game, play_match, replay
from epigames.games.klaverjas.events import CardPlayed, DealDone
from epigames.games.klaverjas.knowledge import PublicTracker, card_played, layout_for

SETTINGS = (
    ("klaverjas(preset=2017)", 8),
    ("klaverjas(rules=rotterdam,undertrump=force,trump=bidding,deals=2)", 8),
    ("klaverjas(ranks=4,undertrump=forbid,deals=2)", 4),
)


@pytest.mark.parametrize(("game", "ranks"), SETTINGS)
def test_card_played_is_its_facts_replayed(game: str, ranks: int) -> None:
    layout = layout_for(ranks)
    cards = lacked = 0
    for seed in range(12):
        result = play_match(game, ("random", "tactics", "random", "tactics2017"), seed)
        public = None
        for event in result.events:
            if isinstance(event, DealDone):
                public = start_from_counts(layout, event.facts)
            elif isinstance(event, CardPlayed):
                assert public is not None
                folded = card_played(public, event)
                assert folded == apply_facts(public, event.facts)
                public = folded
                cards += 1
                lacked += bool(event.lacks)
    assert cards > 100 and lacked > 10


@pytest.mark.parametrize(("game", "ranks"), SETTINGS)
def test_the_tracker_folds_as_apply_facts_does_at_any_point(game: str, ranks: int) -> None:
    # The tracker folds on demand, from where it stopped.
    layout = layout_for(ranks)
    rng = random.Random(ranks)
    asked = 0
    for seed in range(8):
        state = replay(load_game(game), list(play_match(game, ("random",) * 4, seed).history))
        records = state._records
        events = records.announcements
        tracker = PublicTracker(layout)
        start = -1
        for n in range(1, len(events) + 1):
            if isinstance(events[n - 1], DealDone):
                start = n - 1
            if start < 0 or rng.random() < 0.6:
                continue
            public = start_from_counts(layout, events[start].facts)
            for event in events[start + 1 : n]:
                public = apply_facts(public, event.facts)
            assert tracker.at(events, start, n) == public
            asked += 1
    assert asked > 50
