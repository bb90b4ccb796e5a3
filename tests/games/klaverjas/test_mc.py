"""`mc`'s simulator against the rules, and its trump choice on a clear hand."""

from __future__ import annotations

import itertools
import random

import pytest

from epigames.cards import KLAVERJAS, Card, Suit
from epigames.games import CHANCE, TERMINAL, load_game, replay
from epigames.games.klaverjas import (
    DealScored,
    KlaverjasGame,
    KlaverjasState,
    KlaverjasView,
    legal_cards,
    roem,
)
from epigames.games.klaverjas.play import klaverjas_deck
from epigames.games.klaverjas.strategies.mc import MonteCarlo, Sim, sim_for

SETTINGS = [
    f"klaverjas(deals=1,rules={r},undertrump={u}{extra})"
    for r in ("amsterdam", "rotterdam")
    for u in ("forbid", "force", "free")
    for extra in ("", ",ranks=4,four_kind=false")
]


def simulator(game: KlaverjasGame, trump: Suit) -> Sim:
    return sim_for(game.ranks, trump, game.rules, game.undertrump, game.four_kind)


def trick_state(sim: Sim, state: KlaverjasState) -> tuple[int, int, int, int, int, int]:
    """The trick on the table as `Sim` keeps it: n, led, wbit, wseat, tmask, tpts."""
    view = state.observation(0)
    assert isinstance(view, KlaverjasView) and view.trick is not None
    assert view.trump is not None
    plays = view.trick.plays
    if not plays:
        return 0, 0, 0, 0, 0, 0
    winner = view.trick.winner(view.trump, KLAVERJAS)
    bits = [sim.bit_of[p.card] for p in plays]
    return (
        len(plays),
        bits[0] >> 3,
        sim.bit_of[winner.card],
        winner.seat,
        sum(1 << b for b in bits),
        sum(sim.pts[b] for b in bits),
    )


def deal_to_play(spec: str, seed: int) -> KlaverjasState:
    """A state after the deal and the trump call (random ones), the first card to play."""
    game = load_game(spec)
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, KlaverjasState)
    while True:
        view = state.observation(max(state.current_player, 0))
        assert isinstance(view, KlaverjasView)
        if state.current_player != CHANCE and view.trump is not None:
            return state
        if state.current_player == CHANCE:
            state.apply(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("spec", SETTINGS)
def test_legal_cards_equal_the_rules(spec: str) -> None:
    """At every step of random deals, `Sim.legal` is `play.legal_cards`."""
    game = load_game(spec)
    assert isinstance(game, KlaverjasGame)
    for seed in range(30):
        rng = random.Random(seed)
        state = deal_to_play(spec, seed)
        view = state.observation(0)
        assert isinstance(view, KlaverjasView) and view.trump is not None
        sim = simulator(game, view.trump)
        while state.current_player != TERMINAL:
            seat = state.current_player
            view = state.observation(seat)
            assert isinstance(view, KlaverjasView) and view.trick is not None
            n, led, wbit, wseat, _, _ = trick_state(sim, state)
            hand = sim.mask(view.hand)
            expected = legal_cards(view.hand, view.trick, view.trump, game.rules, game.undertrump)
            assert sim.legal(hand, seat, n, led, wbit, wseat) == sim.mask(expected)
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("spec", SETTINGS)
def test_a_rollout_is_the_game_played_by_the_rollout_policy(spec: str) -> None:
    """From any point of a deal, `Sim.finish` ends where the game ends when every seat
    plays the rollout policy's card: the same points, roem, tricks and score."""
    game = load_game(spec)
    assert isinstance(game, KlaverjasGame)
    for seed in range(30):
        rng = random.Random(seed)
        state = deal_to_play(spec, seed)
        view = state.observation(0)
        assert isinstance(view, KlaverjasView) and view.trump is not None
        sim = simulator(game, view.trump)
        # Random cards up to a random point (the middle of a trick, often), then the policy.
        for _ in range(rng.randrange(4 * game.ranks)):
            state.apply(rng.choice(state.legal_actions()))
        table = state.observation(0)
        assert isinstance(table, KlaverjasView) and table.playing_team is not None
        hands = [sim.mask(hand) for hand in state.hands()]
        acc = [*table.points, *table.roem, *table.table.tricks]
        sim.finish(list(hands), state.current_player, *trick_state(sim, state), acc)
        while state.current_player != TERMINAL:
            seat = state.current_player
            h = [sim.mask(hand) for hand in state.hands()]
            n, led, wbit, wseat, _, _ = trick_state(sim, state)
            card = sim.pick(
                h, seat, sim.legal(h[seat], seat, n, led, wbit, wseat), n, led, wbit, wseat
            )
            state.apply(next(c for c, b in sim.bit_of.items() if b == card))
        scored = next(e for e in state.events if isinstance(e, DealScored))
        assert (acc[0], acc[1]) == scored.points
        assert (acc[2], acc[3]) == scored.roem
        a, b = state.returns()[:2]
        assert Sim.score(acc, table.playing_team, 0) == a - b
        assert Sim.score(acc, table.playing_team, 1) == b - a


@pytest.mark.parametrize("ranks", [8, 4])
def test_trick_roem_equals_the_rules(ranks: int) -> None:
    deck = klaverjas_deck(ranks)
    tricks = list(itertools.combinations(deck, 4))
    random.Random(ranks).shuffle(tricks)
    # Every four of a kind, and a few thousand other tricks.
    tricks = [tuple(c for c in deck if c.rank is r) for r in {c.rank for c in deck}] + tricks[:3000]
    for trump in Suit:
        for four_kind in (True, False):
            sim = Sim(ranks, trump, "amsterdam", "forbid", four_kind)
            for cards in tricks:
                assert sim.trick_roem(sim.mask(cards)) == roem(cards, trump, four_kind), cards


def test_mc_names_its_long_strong_suit_as_trump() -> None:
    """North (eldest) holds J 9 A 10 K of hearts and three aces: hearts, not a weak suit."""
    game = load_game("klaverjas(deals=1)")
    north = "J♥ 9♥ A♥ 10♥ K♥ A♠ A♣ A♦"
    others = [c for c in klaverjas_deck(8) if str(c) not in north.split()]
    random.Random(0).shuffle(others)
    hands = [[Card.parse(c) for c in north.split()], others[0:8], others[8:16], others[16:24]]
    # The cards go round from the eldest hand (North in the first deal).
    dealt = [hands[i % 4][i // 4] for i in range(32)]
    state = replay(game, dealt)
    view = state.observation(0)
    assert isinstance(view, KlaverjasView) and view.is_my_turn and view.trump is None
    decision = MonteCarlo(random.Random(1)).choose(view)
    assert str(decision.action) == "trump ♥", decision.thought
