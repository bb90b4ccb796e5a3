"""The knowledge tracker folds the events of every move without making their facts
(`PublicKemps.advance`): the same public information as replaying `event.facts`, event
after event (`PublicKemps.apply`), at any point it is asked."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from epigames.cards.facts import start_from_counts
from epigames.games import load_game, play_match
from epigames.games.kemps import GameDealt, KempsGame, KempsState
from epigames.games.kemps.knowledge import PublicKemps, PublicTracker

SETTINGS = (
    ("kemps", ("blocking", "blocking", "greedy"), 6),
    ("kemps(ranks=5)", ("random", "kbgreedy", "tom"), 6),
    ("kemps(ranks=6,players=2,table=4,redeal_after=1)", ("greedy", "random"), 6),
    ("kemps(teams=true,ranks=7)", ("tom", "random", "tom", "greedy"), 4),
)


def _announcements(game: str, players: tuple[str, ...], seed: int) -> list[object]:
    result = play_match(game, players, seed)
    return [event for event in result.events if event.public]


@pytest.mark.parametrize(("game", "players", "seeds"), SETTINGS)
def test_advance_is_the_facts_replayed(game: str, players: tuple[str, ...], seeds: int) -> None:
    loaded = load_game(game)
    assert isinstance(loaded, KempsGame)
    layout = loaded.card_layout
    kinds: Counter[str] = Counter()
    for seed in range(seeds):
        events = _announcements(game, players, seed)
        assert type(events[0]) is GameDealt
        public = PublicKemps(start_from_counts(layout, events[0].facts))
        for event in events[1:]:
            folded = public.advance(event)  # type: ignore[arg-type]
            assert folded == public.apply(event)  # type: ignore[arg-type]
            public = folded
            kinds[type(event).__name__] += 1
    assert kinds["Swapped"] > 10 and kinds["Kemps"] + kinds["Called"] > 3, kinds
    if "redeal_after=1" in game or game == "kemps":
        assert kinds["TableCleared"] > 10 and kinds["TableDealt"] > 10, kinds


@pytest.mark.parametrize(("game", "players", "seeds"), SETTINGS[:2])
def test_the_tracker_folds_as_the_facts_at_any_point(
    game: str, players: tuple[str, ...], seeds: int
) -> None:
    # The tracker folds on demand, from where it stopped (and from the start when asked
    # for an earlier point).
    rng = random.Random(seeds)
    state = load_game(game).new_initial_state()
    assert isinstance(state, KempsState)
    layout = state.game.card_layout
    asked = 0
    for seed in range(seeds):
        events = _announcements(game, players, seed)
        tracker = PublicTracker(layout)
        for n in sorted(rng.sample(range(1, len(events) + 1), min(40, len(events)))):
            public = PublicKemps(start_from_counts(layout, events[0].facts))  # type: ignore[attr-defined]
            for event in events[1:n]:
                public = public.apply(event)  # type: ignore[arg-type]
            assert tracker.at(events, n) == public  # type: ignore[arg-type]
            asked += 1
    assert asked > 50
