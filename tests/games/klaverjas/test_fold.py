"""The knowledge tracker folds a `CardPlayed` without making its facts (`card_played`):
the same `PublicInfo` as replaying `event.facts`, card after card."""

from __future__ import annotations

import pytest

from epigames.cards.facts import apply_facts, start_from_counts
from epigames.games import play_match
from epigames.games.klaverjas.events import CardPlayed, DealDone
from epigames.games.klaverjas.knowledge import card_played, layout_for

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
