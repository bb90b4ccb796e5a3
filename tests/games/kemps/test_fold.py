"""The knowledge tracker folds the events of every move without making their facts
(`PublicTracker`): the same public information as replaying `event.facts`, event after
event (`PublicKemps.apply`), at any point it is asked, and the same errors."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from epigames.cards import CardLayout
from epigames.cards.errors import InconsistentCardsError
from epigames.cards.facts import start_from_counts
from epigames.games import load_game, play_match
from epigames.games.events import Event
from epigames.games.kemps import (
    GameDealt,
    Kemps,
    KempsGame,
    KempsState,
    Swapped,
    TableCleared,
    TableDealt,
    TurnEnded,
)
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


def _folded_both_ways(layout: CardLayout, log: list[Event]) -> tuple[str, object]:
    """The log folded by the tracker and through the facts: the value, or the error's
    message, which must be the same both ways."""
    found: list[tuple[str, object]] = []
    for fold in ("facts", "tracker"):
        try:
            if fold == "tracker":
                value = PublicTracker(layout).at(log, len(log))
            else:
                value = PublicKemps(start_from_counts(layout, log[0].facts))
                for event in log[1:]:
                    value = value.apply(event)
        except InconsistentCardsError as error:
            found.append(("error", str(error)))
        else:
            found.append(("value", value))
    assert found[0] == found[1]
    return found[0]


def test_a_run_of_moves_folds_and_raises_as_its_facts() -> None:
    # A table dealt or cleared and a Kemps are folded as one step (`PublicTracker._move_all`,
    # `_holds_all`): made-up runs that repeat a card or do not fit go as their facts do.
    events = _announcements("kemps", ("blocking", "blocking", "greedy"), 0)
    layout = load_game("kemps").card_layout
    assert layout is not None
    cleared = next(i for i, e in enumerate(events) if type(e) is TableCleared)
    dealt = next(i for i, e in enumerate(events) if i > cleared and type(e) is TableDealt)
    at_kemps = next(i for i, e in enumerate(events) if type(e) is Kemps)
    old, new, kemps = events[cleared], events[dealt], events[at_kemps]
    assert isinstance(old, TableCleared) and isinstance(new, TableDealt)
    assert isinstance(kemps, Kemps)
    players, gone = new.players, old.cards[0]  # on the discard pile from `cleared` on
    before, after = events[:dealt], events[: dealt + 1]
    runs: list[tuple[list[Event], str]] = [
        ([*before, new], "value"),
        # A card of the old table dealt again, a card dealt twice.
        ([*before, TableDealt((*new.cards[:-1], gone), players)], "error"),
        ([*before, TableDealt((*new.cards[:-1], new.cards[0]), players)], "error"),
        ([*after, TableCleared(new.cards, False, players)], "value"),
        ([*after, TableCleared((*new.cards[:-1], gone), False, players)], "error"),
        ([*after, TableCleared((*new.cards[:-1], new.cards[0]), False, players)], "error"),
        # Table cards called as a Kemps; a Kemps with a card twice, or one not the seat's.
        ([*after, Kemps(0, new.cards[:4], 1, False, players)], "error"),
    ]
    cards, seat = kemps.cards, kemps.seat
    for made in ((*cards[:3], cards[0]), (*cards[:3], gone)):
        runs.append(([*events[:at_kemps], Kemps(seat, made, 1, False, players)], "error"))
    assert [_folded_both_ways(layout, log)[0] for log, _ in runs] == [way for _, way in runs]


def test_swaps_of_the_cards_of_a_not_all_fact_fold_and_raise_as_their_facts() -> None:
    # A seat announced not to hold all of a rank puts that rank's cards down, one swap at a
    # time: the last one contradicts the fact (`PublicTracker._swap` with named cards).
    events = _announcements("kemps", ("blocking", "blocking", "greedy"), 0)
    layout = load_game("kemps").card_layout
    assert layout is not None
    for end in range(1, len(events)):
        tracker = PublicTracker(layout)
        public = tracker.at(events, end)
        whole = [
            (seat, cards)
            for seat, cards in public.not_all
            if cards.bit_count() == 4 and not public.public.holding[seat]
        ]
        if whole and type(events[end - 1]) is TurnEnded:
            break
    else:
        raise AssertionError("no seat with a not-all fact of a whole rank and no known card")
    seat, cards = whole[0]
    table = [
        c for c in layout.cards if public.public.holding[tracker._table] >> layout.card_index(c) & 1
    ]
    rank = [c for c in layout.cards if cards >> layout.card_index(c) & 1]
    log = events[:end]
    ways = []
    for taken, put in zip(table, rank, strict=False):
        log = [*log, Swapped(seat, 0, taken, put, len(layout.players))]
        ways.append(_folded_both_ways(layout, log)[0])
    assert ways == ["value", "value", "value", "error"]
