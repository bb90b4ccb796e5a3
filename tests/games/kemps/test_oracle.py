"""Kemps knowledge against brute force: every seat, every step, on reduced decks.

The oracle keeps, for each seat, every deal of the cards it cannot see that fits what
the seat observed, with its weight under the game's chance, and updates it event by
event from the events' meaning (not from their facts): a swap moves two cards, a turn
without a Kemps rules out the deals where the player's hand is four of a kind, a Kemps
moves the four cards out, a hidden new hand branches into every choice of cards from
the deck, a reshuffle puts the discard pile into the deck, a new table moves cards from
the deck. In the team game a signal the seat sees keeps the deals where the signaller's
hand is four of a kind, a right call moves the target's cards out, and a wrong one rules
out the deals where the target's hand is four of a kind. The card engine's answers
(possible holders, known holders, exact probabilities, the number of deals) must be what
that enumeration says.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from epigames.cards import Card
from epigames.games import CHANCE, load_game, play_match
from epigames.games.events import Event
from epigames.games.kemps import (
    Called,
    Dealt,
    GameDealt,
    Kemps,
    KempsState,
    NewHand,
    Signalled,
    Swapped,
    TableCleared,
    TableDealt,
    TurnEnded,
)
from epigames.games.kemps.events import Places

World = tuple[int, ...]


class Oracle:
    """One seat's consistent deals, with their weights, from its log alone."""

    def __init__(self, seat: int, deck: tuple[Card, ...], players: int) -> None:
        self.seat, self.deck, self.players = seat, deck, players
        self.index = {card: i for i, card in enumerate(deck)}
        self.at = Places.of(players)
        self.worlds: Counter[World] = Counter()
        self.deal: GameDealt | None = None
        self.done = 0

    def update(self, log: tuple[Event, ...]) -> None:
        for event in log[self.done :]:
            self.absorb(event)
        self.done = len(log)

    def _map(self, change) -> None:  # type: ignore[no-untyped-def]
        out: Counter[World] = Counter()
        for world, weight in self.worlds.items():
            for new in change(list(world)):
                out[tuple(new)] += weight
        self.worlds = out

    def _hand(self, world: list[int], seat: int) -> list[int]:
        return [c for c, h in enumerate(world) if h == seat]

    def _one_rank(self, world: list[int], seat: int) -> bool:
        hand = self._hand(world, seat)
        return len(hand) == 4 and len({self.deck[c].rank for c in hand}) == 1

    def _out(self, world: list[int], seat: int, cards: list[int], reshuffled: bool) -> list[int]:
        for c in cards:
            world[c] = self.at.out
        if reshuffled:
            world = [self.at.deck if h == self.at.discard else h for h in world]
        return world

    def absorb(self, event: Event) -> None:
        at, index = self.at, self.index
        if type(event) is GameDealt:
            self.deal = event
        elif type(event) is Dealt and event.seat == self.seat and self.deal is not None:
            if not self.worlds:  # the first deal: every way to give out the unseen cards
                self.worlds = Counter({w: 1 for w in self._first_worlds(self.deal, event.cards)})
                return
            drawn = [index[c] for c in event.cards]  # my new hand, drawn from the deck

            def mine(world: list[int]) -> list[list[int]]:
                if any(world[c] != at.deck for c in drawn):
                    return []
                for c in drawn:
                    world[c] = self.seat
                return [world]

            self._map(mine)
        elif type(event) is Swapped:
            taken, put = index[event.taken], index[event.put]

            def swap(world: list[int]) -> list[list[int]]:
                if world[put] != event.seat or world[taken] != at.table:
                    return []
                world[put], world[taken] = at.table, event.seat
                return [world]

            self._map(swap)
        elif type(event) is TurnEnded:

            def no_kemps(world: list[int]) -> list[list[int]]:
                ranks = {self.deck[c].rank for c in self._hand(world, event.seat)}
                return [world] if len(ranks) > 1 else []

            self._map(no_kemps)
        elif type(event) is Kemps:
            cards = sorted(index[c] for c in event.cards)

            def kemps(world: list[int]) -> list[list[int]]:
                if self._hand(world, event.seat) != cards:
                    return []
                return [self._out(world, event.seat, cards, event.reshuffled)]

            self._map(kemps)
        elif type(event) is Signalled:

            def signalled(world: list[int]) -> list[list[int]]:
                return [world] if self._one_rank(world, event.seat) else []

            self._map(signalled)
        elif type(event) is Called and event.right:
            cards = sorted(index[c] for c in event.cards)

            def right(world: list[int]) -> list[list[int]]:
                if self._hand(world, event.target) != cards:
                    return []
                return [self._out(world, event.target, cards, event.reshuffled)]

            self._map(right)
        elif type(event) is Called:

            def wrong(world: list[int]) -> list[list[int]]:
                return [] if self._one_rank(world, event.target) else [world]

            self._map(wrong)
        elif type(event) is NewHand and event.seat != self.seat:

            def draw(world: list[int]) -> list[list[int]]:
                pile = [c for c, h in enumerate(world) if h == at.deck]
                out = []
                for chosen in itertools.combinations(pile, event.n):
                    new = list(world)
                    for c in chosen:
                        new[c] = event.seat
                    out.append(new)
                return out

            self._map(draw)
        elif type(event) is TableCleared:

            def clear(world: list[int]) -> list[list[int]]:
                for card in event.cards:
                    assert world[index[card]] == at.table
                    world[index[card]] = at.discard
                if event.reshuffled:
                    world = [at.deck if h == at.discard else h for h in world]
                return [world]

            self._map(clear)
        elif type(event) is TableDealt:
            cards = [index[c] for c in event.cards]

            def deal(world: list[int]) -> list[list[int]]:
                if any(world[c] != at.deck for c in cards):
                    return []
                for c in cards:
                    world[c] = at.table
                return [world]

            self._map(deal)

    def _first_worlds(self, deal: GameDealt, hand: tuple[Card, ...]) -> list[World]:
        at, index = self.at, self.index
        base = [at.deck] * len(self.deck)
        for card in deal.table:
            base[index[card]] = at.table
        for card in hand:
            base[index[card]] = self.seat
        unseen = [c for c, h in enumerate(base) if h == at.deck]
        others = [s for s in range(self.players) if s != self.seat]
        worlds: list[World] = []

        def give(rest: list[int], seats: list[int], world: list[int]) -> None:
            if not seats:
                worlds.append(tuple(world))
                return
            for chosen in itertools.combinations(rest, deal.hand_sizes[seats[0]]):
                new = list(world)
                for c in chosen:
                    new[c] = seats[0]
                left = [c for c in rest if c not in chosen]
                give(left, seats[1:], new)

        give(unseen, others, base)
        return worlds


def check(state: KempsState, oracle: Oracle) -> None:
    seat = oracle.seat
    view = state.observation(seat)
    oracle.update(view.log)
    knowledge = view.knowledge
    worlds = oracle.worlds
    assert worlds, "the true deal must be among the oracle's"
    # Every consistent deal is equally likely: the engine counts deals.
    assert len(set(worlds.values())) == 1, "the oracle's weights are not uniform"
    assert knowledge.worlds_count() == len(worlds)
    total = sum(worlds.values())
    n_holders = knowledge.layout.n_holders
    # Uniform weights (asserted above): a holder's share of a card is its count of deals.
    table = np.array(list(worlds), dtype=np.int8)
    counts = [np.bincount(table[:, c], minlength=n_holders) for c in range(len(oracle.deck))]
    for c, card in enumerate(oracle.deck):
        weight = next(iter(worlds.values()))
        shares = Counter({h: int(n) * weight for h, n in enumerate(counts[c]) if n})
        assert knowledge.possible_holders(card) == frozenset(shares), (seat, card)
        expected = next(iter(shares)) if len(shares) == 1 else None
        assert knowledge.holder(card) == expected, (seat, card)
        for h in range(n_holders):
            assert knowledge.probability(card, h) == Fraction(shares[h], total), (seat, card, h)
    # A hand of one rank (the joint question `tom` asks before a Stop Kemps): its deals.
    ranks: dict[object, list[int]] = {}
    for c, card in enumerate(oracle.deck):
        ranks.setdefault(card.rank, []).append(c)
    for s in range(len(state.hands())):
        for cs in ranks.values():
            holding = int(np.all(table[:, cs] == s, axis=1).sum()) * next(iter(worlds.values()))
            assert knowledge.probability_holds_all(s, [oracle.deck[c] for c in cs]) == Fraction(
                holding, total
            ), (seat, s, cs)
    truth = tuple(state.location(card) for card in oracle.deck)
    assert truth in worlds


CASES = [
    # The report's 20-card game: it ends at the first Kemps; kbgreedy waits, so tables
    # are redealt and the discard pile is reshuffled into the deck.
    ("kemps(ranks=5,max_turns=60)", ("kbgreedy", "greedy", "blocking"), range(4)),
    ("kemps(ranks=5,max_turns=60)", ("kbgreedy", "kbgreedy", "random"), range(2)),
    # Two seats: several Kemps, each followed by a hidden new hand.
    ("kemps(players=2,table=4,ranks=5,max_turns=80)", ("greedy", "blocking2023"), range(4)),
    ("kemps(players=2,table=4,ranks=6,max_turns=60)", ("kbgreedy", "greedy"), range(2)),
]


@pytest.mark.parametrize(("spec", "agents", "seeds"), CASES)
def test_every_seat_at_every_step_matches_enumeration(
    spec: str, agents: tuple[str, ...], seeds: range
) -> None:
    game = load_game(spec)
    seen: Counter[str] = Counter()
    for seed in seeds:
        result = play_match(spec, agents, seed)
        state = game.new_initial_state()
        assert isinstance(state, KempsState)
        oracles = [Oracle(s, game.deck, game.num_players) for s in range(game.num_players)]  # type: ignore[attr-defined]
        for action in result.history:
            state.apply(action)
            if state.current_player == CHANCE or not state.observation(0).log:
                continue
            for oracle in oracles:
                check(state, oracle)
        seen.update(type(e).__name__ for e in state.events)
        seen["reshuffle"] += sum(1 for e in state.events if getattr(e, "reshuffled", False))
    # The cases exercise what the knowledge must get through.
    assert seen["TableCleared"] and seen["Kemps"] and seen["Swapped"] and seen["TurnEnded"]
    if game.num_players == 2:  # type: ignore[attr-defined]
        assert seen["NewHand"]
    else:
        assert seen["reshuffle"]


#: Seeds per team case: enough for signals, right and wrong calls.
SEEDS = 3

TEAM_CASES = [
    # Greedy partners signal and call Kemps!; random opponents call Stop Kemps at random
    # (mostly wrong: "no four of a kind" for everyone), sometimes right.
    ("kemps(teams=true,ranks=5,max_turns=30)", ("greedy", "random", "kbgreedy", "random")),
    ("kemps(teams=true,ranks=5,max_turns=30)", ("random", "blocking", "random", "greedy")),
]


@pytest.mark.parametrize(("spec", "agents"), TEAM_CASES)
def test_team_game_every_seat_at_every_step_matches_enumeration(
    spec: str, agents: tuple[str, ...]
) -> None:
    game = load_game(spec)
    seen: Counter[str] = Counter()
    for seed in range(SEEDS):
        result = play_match(spec, agents, seed)
        state = game.new_initial_state()
        assert isinstance(state, KempsState)
        oracles = [Oracle(s, game.deck, game.num_players) for s in range(game.num_players)]  # type: ignore[attr-defined]
        checked = [0] * game.num_players
        for action in result.history:
            state.apply(action)
            if state.current_player == CHANCE or not state.observation(0).log:
                continue
            for seat, oracle in enumerate(oracles):
                log = len(state.observation(seat).log)
                if log != checked[seat]:  # the knowledge changes only with the log
                    check(state, oracle)
                    checked[seat] = log
        for event in state.events:
            name = type(event).__name__
            if type(event) is Called:
                name = f"{'stop' if event.stop else 'kemps'} {'right' if event.right else 'wrong'}"
            seen[name] += 1
    assert seen["Signalled"] and seen["kemps right"] and seen["stop wrong"], seen


def test_a_signal_is_a_case_split_until_a_swap_shows_its_rank() -> None:
    """South sees 2s and 3s only: North's signal may be 4s, 5s or 6s (three cases, counted
    and sampled exactly); North's swap of a 4 leaves one case; a wrong Kemps! after it."""
    from epigames.games.kemps import DONE, PASS, SIGNAL, Call, Swap
    from epigames.games.kemps.knowledge import SplitKnowledge

    game = load_game("kemps(teams=true,ranks=5,redeal_after=100)")
    deck = game.deck  # type: ignore[attr-defined]
    twos, threes, fours, fives, sixes = (deck[i : i + 4] for i in range(0, 20, 4))
    table = (twos[0], twos[1], threes[0], threes[1])
    hands = (
        (twos[2], twos[3], threes[2], threes[3]),
        (fives[0], fives[1], sixes[0], sixes[1]),
        fours,
        (fives[2], fives[3], sixes[2], sixes[3]),
    )
    passes = [PASS] * 4
    history = [
        *table,
        *(card for hand in hands for card in hand),
        DONE,
        *passes,  # South
        DONE,
        *passes,  # West
        SIGNAL,
        PASS,
        PASS,
        PASS,
        PASS,  # North signals; South passes all the same
        DONE,
        *passes,  # East
        DONE,
        *passes,  # South
        DONE,
        *passes,  # West
        Swap(0, fours[0]),
        DONE,
        PASS,  # North puts a 4 down: its hand was the 4s
        Call(2, False),  # South calls Kemps! for North: wrong now
    ]
    state = game.new_initial_state()
    assert isinstance(state, KempsState)
    oracles = [Oracle(s, deck, 4) for s in range(4)]
    cases_seen = []
    for action in history:
        state.apply(action)
        if state.current_player == CHANCE or not state.observation(0).log:
            continue
        for oracle in oracles:
            check(state, oracle)
        knowledge = state.observation(0).knowledge
        cases_seen.append(len(knowledge.cases) if isinstance(knowledge, SplitKnowledge) else 1)
        if isinstance(knowledge, SplitKnowledge):
            import random

            world = knowledge.sample_world(random.Random(len(cases_seen)))
            assert tuple(world) in oracles[0].worlds
        # Only the partners see the signal.
        assert not any(type(e) is Signalled for s in (1, 3) for e in state.observation(s).log)
    assert max(cases_seen) == 3 and cases_seen[-1] == 1
    called = state.events[-1]
    assert type(called) is Called and not called.right
    assert state.returns() == (-1.0, 0.0, -1.0, 0.0)
