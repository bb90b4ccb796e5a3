"""The knowledge tracker folds the events of every move without making their facts
(`PublicTracker`): the same public information as replaying `event.facts`, event after
event (`PublicKemps.apply`), at any point it is asked, and the same errors."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from epigames.cards.errors import InconsistentCardsError
from epigames.cards.facts import start_from_counts
from epigames.games import load_game, play_match
from epigames.games.events import Event
from epigames.games.kemps import GameDealt, KempsGame, KempsState, Swapped
from epigames.games.kemps.knowledge import PublicKemps, PublicTracker

SETTINGS = (
    ("kemps", ("blocking", "blocking", "greedy"), 6),
    ("kemps(ranks=5)", ("random", "kbgreedy", "tom"), 6),
    ("kemps(ranks=6,players=2,table=4,redeal_after=1)", ("greedy", "random"), 6),
    ("kemps(teams=true,ranks=7)", ("tom", "random", "tom", "greedy"), 4),
)


def _announcements(game: str, players: tuple[str, ...], seed: int) -> list[Event]:
    result = play_match(game, players, seed)
    return [event for event in result.events if event.public]


@pytest.mark.parametrize(("game", "players", "seeds"), SETTINGS)
def test_the_tracker_folds_each_event_as_its_facts(
    game: str, players: tuple[str, ...], seeds: int
) -> None:
    loaded = load_game(game)
    assert isinstance(loaded, KempsGame)
    layout = loaded.card_layout
    kinds: Counter[str] = Counter()
    for seed in range(seeds):
        events = _announcements(game, players, seed)
        assert type(events[0]) is GameDealt
        public = PublicKemps(start_from_counts(layout, events[0].facts))
        tracker = PublicTracker(layout)
        assert tracker.at(events, 1) == public
        for n, event in enumerate(events[1:], 2):
            public = public.apply(event)
            assert tracker.at(events, n) == public
            # The room for unknown cards it keeps along, which its steps check.
            info = public.public
            assert tracker._rooms == [
                count - mask.bit_count()
                for count, mask in zip(info.counts, info.holding, strict=True)
            ]
            kinds[type(event).__name__] += 1
            kinds["reshuffled"] += bool(getattr(event, "reshuffled", False))
    assert kinds["Swapped"] > 10 and kinds["Kemps"] + kinds["Called"] > 3, kinds
    if "redeal_after=1" in game or game == "kemps":
        assert kinds["TableCleared"] > 10 and kinds["TableDealt"] > 10, kinds
        assert kinds["NewHand"] > 3 and kinds["reshuffled"] > 3, kinds


def test_the_tracker_raises_as_the_facts_do() -> None:
    events = _announcements("kemps", ("greedy",) * 3, 0)
    layout = load_game("kemps").card_layout
    assert layout is not None
    first = next(i for i, e in enumerate(events) if type(e) is Swapped)
    swap = events[first]
    assert isinstance(swap, Swapped)
    # The player puts down a card that lies on the table in another slot.
    dealt = events[0]
    assert isinstance(dealt, GameDealt)
    other = next(c for c in dealt.table if c is not swap.taken)
    bad = Swapped(swap.seat, swap.slot, swap.taken, other, swap.players)
    log = [*events[:first], bad]
    public = PublicKemps(start_from_counts(layout, events[0].facts))
    for event in events[1:first]:
        public = public.apply(event)
    with pytest.raises(InconsistentCardsError) as expected:
        public.apply(bad)
    with pytest.raises(InconsistentCardsError) as got:
        PublicTracker(layout).at(log, len(log))
    assert str(got.value) == str(expected.value)


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
            public = PublicKemps(start_from_counts(layout, events[0].facts))
            for event in events[1:n]:
                public = public.apply(event)
            assert tracker.at(events, n) == public
            asked += 1
    assert asked > 50
