"""The acceptance test of Klaverjas knowledge: the card engine against brute force.

On reduced decks, both rule sets and every undertrump mode, at every step of many seeded
deals and for every seat: enumerate every deal of the cards the seat has not seen that
fits its own hand and the hand sizes, keep those under which every card played so far was
legal (checked with `legal_cards`, never with the events' facts), and compare the
engine's known holders, possible holders and exact probabilities with the counts.

The enumeration is organised to stay fast without knowing anything about the facts:
whether a play was legal depends only on the player's own hand, so the hands each seat
may hold now are filtered one play at a time, and the deals a seat considers are the
ways to combine the other seats' possible hands.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

import pytest

from epigames.cards import KLAVERJAS, Card, Suit, Trick
from epigames.games import load_game, play_match
from epigames.games.klaverjas import CardPlayed, DealDone, KlaverjasGame, TrumpChosen, legal_cards
from epigames.games.klaverjas.rules import KlaverjasState

TABLE = 4

#: (game, matches): 34 deals per setting with 3 ranks, 16 with 4; 300 deals in all.
SETTINGS = [
    (f"klaverjas(ranks={ranks},rules={rules},undertrump={under},trump={trump},deals=2)", matches)
    for ranks, matches in ((3, 17), (4, 8))
    for rules in ("amsterdam", "rotterdam")
    for under, trump in (("forbid", "eldest"), ("force", "bidding"), ("free", "random"))
]


def subsets(mask: int, size: int) -> Iterator[int]:
    """Every sub-bitmask of `mask` with `size` bits."""
    bits = [1 << i for i in range(mask.bit_length()) if mask >> i & 1]
    for chosen in itertools.combinations(bits, size):
        yield sum(chosen)


class Enumeration:
    """The hands each seat may hold now, given only the public plays of this deal."""

    def __init__(self, game: KlaverjasGame) -> None:
        self.game = game
        self.deck = game.deck
        self.index = {card: i for i, card in enumerate(self.deck)}
        full = (1 << len(self.deck)) - 1
        size = len(self.deck) // 4
        # Every seat may hold any `size` cards before the first play.
        self.valid = [set(subsets(full, size)) for _ in range(4)]
        self.played = 0
        self.sizes = [size] * 4
        self.trump: Suit | None = None
        self.trick: Trick | None = None

    def cards(self, mask: int) -> tuple[Card, ...]:
        return tuple(c for i, c in enumerate(self.deck) if mask >> i & 1)

    def play(self, seat: int, card: Card) -> None:
        """Keep the hands of `seat` from which the play was legal; the card leaves them."""
        assert self.trump is not None and self.trick is not None
        g, trick, bit = self.game, self.trick, 1 << self.index[card]
        kept = set()
        for hand in self.valid[seat]:
            if hand & bit and card in legal_cards(
                self.cards(hand), trick, self.trump, g.rules, g.undertrump
            ):
                kept.add(hand & ~bit)
        self.valid[seat] = kept
        for other in range(4):
            if other != seat:
                self.valid[other] = {h for h in self.valid[other] if not h & bit}
        self.played |= bit
        self.sizes[seat] -= 1
        trick = trick.play(seat, card)
        if len(trick) == 4:
            trick = Trick.start(trick.winner(self.trump, KLAVERJAS).seat)
        self.trick = trick

    def counts(self, seat: int, hand: int) -> tuple[int, dict[tuple[int, int], int]]:
        """The deals `seat` (holding `hand`) considers: how many, and per (card, seat)."""
        assert hand in self.valid[seat]
        a, b, c = (s for s in range(4) if s != seat)
        unseen = ((1 << len(self.deck)) - 1) & ~self.played & ~hand
        valid_b, valid_c = self.valid[b], self.valid[c]
        by_hand: list[dict[int, int]] = [{}, {}, {}]
        total = 0
        for hand_a in self.valid[a]:
            if hand_a & hand:
                continue
            rest = unseen & ~hand_a
            for hand_b in subsets(rest, self.sizes[b]):
                hand_c = rest & ~hand_b
                if hand_b in valid_b and hand_c in valid_c:
                    total += 1
                    for k, h in enumerate((hand_a, hand_b, hand_c)):
                        by_hand[k][h] = by_hand[k].get(h, 0) + 1
        per_card: dict[tuple[int, int], int] = {}
        for k, holder in enumerate((a, b, c)):
            for h, n in by_hand[k].items():
                for i in range(len(self.deck)):
                    if h >> i & 1:
                        per_card[i, holder] = per_card.get((i, holder), 0) + n
        return total, per_card


def check(state: KlaverjasState, oracle: Enumeration) -> int:
    """Compare every seat's knowledge with the enumeration; returns the claims compared."""
    compared = 0
    for seat in range(4):
        view = state.observation(seat)
        hand = sum(1 << oracle.index[c] for c in view.hand)
        total, per_card = oracle.counts(seat, hand)
        assert total > 0
        knowledge = view.knowledge
        assert knowledge.worlds_count() == total
        for i, card in enumerate(oracle.deck):
            if hand >> i & 1:
                assert knowledge.holder(card) == seat
                continue
            if oracle.played >> i & 1:
                assert knowledge.holder(card) == TABLE
                continue
            possible = {h for h in range(4) if per_card.get((i, h), 0)}
            assert knowledge.possible_holders(card) == possible, (seat, card)
            known = next(iter(possible)) if len(possible) == 1 else None
            assert knowledge.holder(card) == known, (seat, card)
            for h in range(4):
                expected = Fraction(per_card.get((i, h), 0), total)
                assert knowledge.probability(card, h) == expected, (seat, card, h)
                compared += 1
    return compared


#: The agents, seated differently per seed: how a card is chosen changes which histories
#: are checked (tactics and mc follow suit, trump and signal very unlike random play).
AGENTS = ("random", "tactics", "tactics2017", "mc")


def lineup(seed: int) -> list[str]:
    """Seat `i` plays `AGENTS[(seed + i) % 4]`: every agent in every seat over four seeds."""
    return [AGENTS[(seed + seat) % len(AGENTS)] for seat in range(4)]


def run_match(spec: str, seed: int) -> tuple[int, int, int]:
    """Replay one seeded match of mixed agents, checking every step; (deals, steps, claims)."""
    game = load_game(spec)
    assert isinstance(game, KlaverjasGame)
    history = play_match(spec, lineup(seed), seed).history
    state = game.new_initial_state()
    assert isinstance(state, KlaverjasState)
    oracle: Enumeration | None = None
    deals = steps = claims = 0
    for action in history:
        seen = len(state.events)
        state.apply(action)
        for event in state.events[seen:]:
            if isinstance(event, DealDone):
                oracle = Enumeration(game)
                deals += 1
            elif isinstance(event, TrumpChosen):
                assert oracle is not None
                oracle.trump = event.trump
                oracle.trick = Trick.start((state.observation(0).table.dealer + 1) % 4)
            elif isinstance(event, CardPlayed):
                assert oracle is not None
                oracle.play(event.seat, event.card)
        if oracle is not None:
            claims += check(state, oracle)
            steps += 1
    return deals, steps, claims


@pytest.mark.parametrize(("spec", "matches"), SETTINGS)
def test_engine_knowledge_equals_brute_force(spec: str, matches: int) -> None:
    deals = claims = 0
    for seed in range(matches):
        d, _, c = run_match(spec, seed)
        deals, claims = deals + d, claims + c
    assert deals == 2 * matches
    assert claims > 0


def test_the_oracle_covers_300_deals() -> None:
    assert sum(2 * matches for _, matches in SETTINGS) >= 300
