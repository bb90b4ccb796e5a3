"""`mc`'s simulator against the rules, and its trump choice on a clear hand."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys

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
from epigames.games.klaverjas.strategies import rollout
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


def policy_card(sim: Sim, state: KlaverjasState) -> tuple[int, int]:
    """The legal cards of the seat to play (a mask) and the rollout policy's card (a bit),
    all hands known."""
    seat = state.current_player
    h = [sim.mask(hand) for hand in state.hands()]
    n, led, wbit, wseat, _, _ = trick_state(sim, state)
    legal = sim.legal(h[seat], seat, n, led, wbit, wseat)
    return legal, int(rollout.pick(sim.table, rollout.ints(h), seat, legal, n, led, wbit, wseat))


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
        h, account = rollout.ints(hands), rollout.ints(acc)
        rollout.finish(sim.table, h, state.current_player, *trick_state(sim, state), account, -1)
        acc = [int(x) for x in account]
        while state.current_player != TERMINAL:
            _, card = policy_card(sim, state)
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


def strong_hearts() -> list[Card]:
    """A deal (in dealing order) where North, the eldest hand, holds J 9 A 10 K of hearts
    and three aces."""
    north = "J♥ 9♥ A♥ 10♥ K♥ A♠ A♣ A♦"
    others = [c for c in klaverjas_deck(8) if str(c) not in north.split()]
    random.Random(0).shuffle(others)
    hands = [[Card.parse(c) for c in north.split()], others[0:8], others[8:16], others[16:24]]
    # The cards go round from the eldest hand (North in the first deal).
    return [hands[i % 4][i // 4] for i in range(32)]


def test_mc_names_its_long_strong_suit_as_trump() -> None:
    """North (eldest) holds J 9 A 10 K of hearts and three aces: hearts, not a weak suit."""
    game = load_game("klaverjas(deals=1)")
    state = replay(game, strong_hearts())
    view = state.observation(0)
    assert isinstance(view, KlaverjasView) and view.is_my_turn and view.trump is None
    decision = MonteCarlo(random.Random(1)).choose(view)
    assert str(decision.action) == "trump ♥", decision.thought


_PLAY_MC = """
from epigames.games.match import play_match
specs = (
    "klaverjas(deals=2,ranks=4)",
    "klaverjas(deals=1,ranks=6,rules=rotterdam,undertrump=force)",
)
for spec in specs:
    result = play_match(spec, ["mc", "tactics", "mc", "random"], 3)
    print(spec, [str(entry.action) for entry in result.transcript], result.returns)
"""


@pytest.mark.skipif(not rollout.COMPILED, reason="numba (the fast extra) is not installed")
def test_compiled_rollouts_play_as_plain_python() -> None:
    """Seeded `mc` matches are move for move the same with the rollouts compiled by numba
    and run as plain Python (numba's `NUMBA_DISABLE_JIT`): one source, two speeds."""
    runs = [
        subprocess.run(
            [sys.executable, "-c", _PLAY_MC],
            env={**os.environ, "NUMBA_DISABLE_JIT": flag},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for flag in ("0", "1")
    ]
    assert runs[0].count("klaverjas") == 2
    assert runs[0] == runs[1]


def _surprises(sim: Sim, state: KlaverjasState, seat: int, chooser: int = -1) -> int:
    """`rollout.surprises` for `seat` on the true hands of `state`."""
    view = state.observation(seat)
    assert isinstance(view, KlaverjasView)
    plays = [x for p in view.deal_plays for x in (p.seat, sim.bit_of[p.card])]
    out = rollout.ints([0])
    hands = rollout.rows([[sim.mask(hand) for hand in state.hands()]])
    rollout.surprises(sim.table, hands, rollout.ints(plays), seat, chooser, sim.strength, out)
    return int(out[0])


@pytest.mark.parametrize("spec", SETTINGS[:4])
def test_the_true_deal_played_by_the_policy_surprises_nobody(spec: str) -> None:
    """Where every seat plays the rollout policy's card, the true deal explains every
    play (no surprise for any observer); one other card is one surprise for the other
    seats and none for the seat that played it."""
    game = load_game(spec)
    assert isinstance(game, KlaverjasGame)
    for seed in range(12):
        state = deal_to_play(spec, seed)
        view = state.observation(0)
        assert isinstance(view, KlaverjasView) and view.trump is not None
        sim = simulator(game, view.trump)
        deviated = -1
        while state.current_player != TERMINAL:
            for observer in range(4):
                expected = 0 if deviated in (-1, observer) else 1
                assert _surprises(sim, state, observer) == expected
            seat = state.current_player
            legal, card = policy_card(sim, state)
            if deviated < 0 and legal & (legal - 1) and seed % 2:
                card = next(b for b in range(32) if legal >> b & 1 and b != card)
                deviated = seat
            state.apply(next(c for c, b in sim.bit_of.items() if b == card))
            if state.current_player != TERMINAL and not state.observation(0).deal_plays:
                break  # the next deal: its plays start again


def test_a_trump_named_against_the_hand_is_a_surprise() -> None:
    """North holds J 9 A 10 K of hearts: naming hearts explains the hand, spades does not."""
    game = load_game("klaverjas(deals=1)")
    for suit, expected in ((Suit.HEARTS, 0), (Suit.SPADES, 1)):
        state = replay(game, strong_hearts())
        state.apply(next(b for b in state.legal_actions() if getattr(b, "suit", None) is suit))
        view = state.observation(1)
        assert isinstance(view, KlaverjasView) and view.trump_chooser == 0
        sim = simulator(game, suit)
        assert _surprises(sim, state, 1, chooser=0) == expected


def test_without_surprise_every_sampled_deal_counts_alike() -> None:
    state = deal_to_play("klaverjas(deals=1)", 3)
    view = state.observation(state.current_player)
    assert isinstance(view, KlaverjasView) and view.trump is not None
    player = MonteCarlo(random.Random(1))
    sim = player._sim(view, view.trump)
    hands = player._hands(sim, player._worlds(view, 5))
    player.surprise = None
    assert [int(w) for w in player.weights(sim, hands, view)] == [1] * 5
