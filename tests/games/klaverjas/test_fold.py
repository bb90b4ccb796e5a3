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


@pytest.mark.parametrize(("game", "ranks"), SETTINGS)
def test_possible_cards_from_the_fold_are_the_knowledges(game: str, ranks: int) -> None:
    # What the tactics read on most decisions without making the knowledge: the same
    # possible holders as the card engine's and the public counts, for every seat.
    asked = folded = 0
    for seed in range(10):
        result = play_match(game, ("tactics", "random", "tactics2017", "random"), seed)
        state = load_game(game).new_initial_state()
        for action in result.history:
            state.apply(action)
            records = state._records
            start = records.table.deal_start
            if start < 0:
                continue
            events = records.announcements
            for seat in range(4):
                view = state.observation(seat)
                fast = records.tracker.possible(events, start, len(events), seat, view.hand)
                folded += fast is not None
                knowledge = state.observation(seat).knowledge
                expected = (knowledge.possible_masks(), knowledge.public.counts)
                assert view.possible_cards() == expected
                assert fast is None or fast == expected
                asked += 1
    assert asked > 500 and folded > asked // 2


def test_possible_cards_refuse_a_hand_that_does_not_fit() -> None:
    # A hand with a card on the table is not decided by the fold: the engine says why.
    layout = layout_for(3)
    game = "klaverjas(ranks=3,deals=1)"
    state = replay(load_game(game), list(play_match(game, ("random",) * 4, 1).history)[:20])
    records = state._records
    events, start = records.announcements, records.table.deal_start
    played = [e.card for e in events if isinstance(e, CardPlayed)]
    north = state.observation(0).hand
    tracker = PublicTracker(layout)
    assert tracker.possible(events, start, len(events), 0, north) is not None
    assert tracker.possible(events, start, len(events), 0, (*north[1:], played[0])) is None
    with pytest.raises(ValueError, match="no card knowledge"):
        tracker.possible(events, -1, len(events), 0, north)
