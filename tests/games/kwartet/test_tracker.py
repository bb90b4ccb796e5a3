"""Kwartet's public tracker folds the announcements as a fold from the start would.

One tracker serves every view of a state, and views are read in any order: a view made
earlier may ask after a later one has moved the tracker on, and a clone's tracker goes on
from its copy. Whatever the order, the tracker's answer at `n` announcements equals a new
tracker's fold of the first `n`.
"""

from __future__ import annotations

import pickle
import random

import pytest

from epigames.cards import PublicInfo
from epigames.games import Match
from epigames.games.core import TERMINAL
from epigames.games.kwartet import KwartetState
from epigames.games.kwartet.events import Asked, DealDone
from epigames.games.kwartet.knowledge import PublicTracker


def _same(a: PublicInfo, b: PublicInfo) -> bool:
    return (a.counts, a.holding, a.lacking, a.removed, a.constraints, a.groups) == (
        b.counts,
        b.holding,
        b.lacking,
        b.removed,
        b.constraints,
        b.groups,
    )


@pytest.mark.parametrize("seed", range(3))
def test_the_tracker_answers_any_point_as_a_fold_from_the_start(seed: int) -> None:
    match = Match("kwartet(players=4,kinds=6,ask_own=false)", ("random",) * 4, seed)
    match.run()
    state = match.state
    assert isinstance(state, KwartetState) and state.current_player == TERMINAL
    records = state._records
    announcements = records.announcements
    assert type(announcements[0]) is DealDone
    # Points that end a public step (the deal, or an ask, with the laydowns it caused):
    # before each ask, and at the end.
    ends = [i for i, event in enumerate(announcements) if type(event) is Asked]
    ends.append(len(announcements))
    rng = random.Random(seed)
    tracker = records.tracker
    for n in rng.sample(ends, len(ends)):  # forwards and backwards, at random
        fresh = PublicTracker(tracker._layout).at(announcements, n)
        assert _same(tracker.at(announcements, n), fresh), n
    copied = tracker.copy()
    restored = pickle.loads(pickle.dumps(tracker))
    last = len(announcements)
    for other in (copied, restored):
        assert _same(other.at(announcements, last), tracker.at(announcements, last))


def test_there_is_no_public_information_before_the_deal() -> None:
    match = Match("kwartet(players=3,kinds=3)", ("random",) * 3, 0)
    state = match.state
    assert isinstance(state, KwartetState)
    tracker = state._records.tracker
    with pytest.raises(ValueError, match="before the deal is over"):
        tracker.at([], 0)
