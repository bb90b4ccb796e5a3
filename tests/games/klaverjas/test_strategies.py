"""Klaverjas strategies: legal play, the tactics in hand-made positions, `mc`."""

from __future__ import annotations

import random
import statistics
from fractions import Fraction

import pytest

from epigames.cards import Card, Suit, Trick
from epigames.games import CHANCE, TERMINAL, load_game, play_match
from epigames.games.klaverjas import (
    CardPlayed,
    DealDone,
    KlaverjasGame,
    KlaverjasState,
    KlaverjasView,
    TrumpChosen,
)
from epigames.games.klaverjas.actions import BIDS, PASS
from epigames.games.klaverjas.play import klaverjas_deck
from epigames.games.klaverjas.strategies.mc import Deal
from epigames.games.klaverjas.strategies.tactics import (
    DealCounts,
    ExactBeliefs,
    KnowingPosition,
    Position,
    choose_trump,
    hand_score,
)
from tests.games.klaverjas.test_oracle import Enumeration, subsets

SETTINGS = (
    "klaverjas(deals=2)",
    "klaverjas(preset=2017)",
    "klaverjas(rules=rotterdam,undertrump=force,trump=bidding,deals=2)",
    "klaverjas(ranks=4,undertrump=free,trump=random,deals=3)",
)


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


@pytest.mark.parametrize("spec", SETTINGS)
@pytest.mark.parametrize("strategy", ["tactics", "tactics2017"])
def test_tactics_play_only_legal_cards(spec: str, strategy: str) -> None:
    # Match refuses an illegal action (IllegalActionError), so finishing is the check.
    for seed in range(15):
        result = play_match(spec, [strategy, "random", strategy, "random"], seed)
        assert result.moves > 0
        assert all(str(t.thought) for t in result.transcript if t.seat in (0, 2))


@pytest.mark.parametrize("spec", ["klaverjas(ranks=4,deals=2)", "klaverjas(preset=2017)"])
def test_mc_plays_legal_cards_and_is_deterministic(spec: str) -> None:
    names = ["mc", "tactics", "mc", "tactics"]
    first = play_match(spec, names, 5)
    assert first.digest() == play_match(spec, names, 5).digest()
    assert any("sampled deals" in str(t.thought) for t in first.transcript if t.seat == 0)


def test_mc_beats_random() -> None:
    # Paired: each seed's deal is played with mc on both sides (a fixed seed, so the
    # outcome is fixed too; the margin is a one-sided test at about 2.5%).
    diffs = []
    for seed in range(12):
        ns = play_match("klaverjas(ranks=6,deals=1)", ["mc", "random"] * 2, 100 + seed)
        ew = play_match("klaverjas(ranks=6,deals=1)", ["random", "mc"] * 2, 100 + seed)
        diffs.append((ns.returns[0] - ns.returns[1] + ew.returns[1] - ew.returns[0]) / 2)
    mean = statistics.mean(diffs)
    se = statistics.stdev(diffs) / len(diffs) ** 0.5
    assert mean - 2 * se > 0, (mean, se)


@pytest.mark.parametrize(
    "spec",
    [
        "klaverjas(deals=1)",
        "klaverjas(deals=1,rules=rotterdam,undertrump=force)",
        "klaverjas(deals=1,undertrump=free)",
        "klaverjas(deals=1,rules=rotterdam)",
    ],
)
def test_rollout_deal_follows_the_rules(spec: str) -> None:
    """`mc`'s simulator gives the legal cards and the deal score of the real game."""
    game = load_game(spec)
    assert isinstance(game, KlaverjasGame)
    deck = klaverjas_deck(8)
    index = {c: i for i, c in enumerate(deck)}
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_initial_state()
        deal: Deal | None = None
        while state.current_player != TERMINAL:
            p = state.current_player
            if p == CHANCE:
                state.apply(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            view = state.observation(p)
            assert isinstance(view, KlaverjasView)
            if view.trump is None:
                state.apply(rng.choice(state.legal_actions()))
                continue
            if deal is None:
                assert view.playing_team is not None
                deal = Deal(8, view.trump, game.rules, game.undertrump, True, view.playing_team)
                deal.hands = [[index[c] for c in h] for h in state.hands()]
                deal.turn = p
            assert deal.next_seat() == p
            legal = state.legal_actions()
            assert sorted(index[c] for c in legal) == sorted(deal.legal(p))  # type: ignore[index]
            card = rng.choice(legal)
            state.apply(card)
            deal.play(p, index[card])  # type: ignore[index]
        assert deal is not None
        a, b = state.returns()[:2]
        assert deal.score(0) == a - b


class Fake:
    """Beliefs given as the cards each player may hold and the cards known held."""

    def __init__(self, may: dict[int, str], known: dict[int, str] | None = None) -> None:
        self.may = {p: set(cards(t)) for p, t in may.items()}
        self.known = {p: set(cards(t)) for p, t in (known or {}).items()}

    def may_hold(self, player: int, card: Card) -> bool:
        return card in self.may.get(player, set()) or card in self.known.get(player, set())

    def knows_holds(self, player: int, card: Card) -> bool:
        return card in self.known.get(player, set())


def position(
    seat: int, legal: str, trick: list[tuple[int, str]], beliefs: Fake, unplayed: str
) -> Position:
    t = Trick.start(trick[0][0] if trick else seat)
    for s, c in trick:
        t = t.play(s, Card.parse(c))
    hand = cards(legal)
    return Position(seat, hand, hand, t, Suit.DIAMONDS, cards(unplayed), beliefs)


UNPLAYED = "J♦ 9♦ A♦ 10♦ K♦ 7♦ A♠ 10♠ K♠ Q♠ 7♠ A♥ 10♥ 7♥ A♣ 7♣"


def test_seat_1_leads_top_trump_with_its_highest_card() -> None:
    beliefs = Fake({1: "9♦ K♠", 3: "A♦ Q♠"})
    choice = position(0, "J♦ 7♠ 7♥", [], beliefs, UNPLAYED).choose()
    assert choice.card == Card.parse("J♦") and "highest trump" in choice.text


def test_seat_1_leads_low_trump_when_partner_holds_the_top() -> None:
    beliefs = Fake({1: "9♦ K♠", 3: "A♦ Q♠"}, known={2: "J♦"})
    choice = position(0, "7♦ K♦ 7♠", [], beliefs, UNPLAYED).choose()
    assert choice.card == Card.parse("7♦")
    assert "partner holds J♦" in choice.text


def test_seat_1_leads_a_winner_both_opponents_can_follow() -> None:
    beliefs = Fake({1: "9♦ K♠ 7♥", 3: "A♦ Q♠"})
    choice = position(0, "A♠ 7♥", [], beliefs, UNPLAYED).choose()
    assert choice.card == Card.parse("A♠")
    assert "none beats it" in choice.text


def test_seat_1_leads_lowest_without_a_sure_winner() -> None:
    beliefs = Fake({1: "9♦ A♠", 3: "A♦ Q♠"})
    assert position(0, "10♠ 7♥", [], beliefs, UNPLAYED).choose().card == Card.parse("7♥")


def test_seat_2_plays_low_when_the_next_player_may_trump() -> None:
    beliefs = Fake({2: "9♦", 0: "K♠"})  # South (next) has no ♠ but may trump
    choice = position(1, "A♠ 7♠", [(0, "Q♠")], beliefs, UNPLAYED).choose()
    assert choice.card == Card.parse("7♠")


def test_seat_2_plays_high_when_it_beats_lead_and_next_player() -> None:
    beliefs = Fake({2: "K♠ 9♦", 0: "7♣"})
    choice = position(1, "A♠ 7♠", [(0, "Q♠")], beliefs, UNPLAYED).choose()
    assert choice.card == Card.parse("A♠")


def test_seat_3_does_not_go_over_partners_lead() -> None:
    beliefs = Fake({3: "Q♠ K♠"})
    choice = position(2, "10♠ 7♠", [(0, "A♠"), (1, "7♣")], beliefs, UNPLAYED).choose()
    assert choice.card == Card.parse("7♠") and "partner" in choice.text


def test_seat_4_takes_the_trick_with_its_highest_card() -> None:
    choice = position(3, "A♠ 10♠ 7♠", [(0, "K♠"), (1, "Q♠"), (2, "7♣")], Fake({}), UNPLAYED)
    assert choice.choose().card == Card.parse("A♠")


def test_seat_4_plays_lowest_when_partner_wins() -> None:
    choice = position(3, "A♠ 10♠ 7♠", [(0, "Q♠"), (1, "K♠"), (2, "7♣")], Fake({}), UNPLAYED)
    assert choice.choose().card == Card.parse("7♠")


def test_trump_policy() -> None:
    hand = cards("J♥ 9♥ 10♥ 7♥ A♠ 7♣ 8♣ 8♦")
    assert hand_score(hand, Suit.HEARTS) == 20 + 14 + 10 + 0 + 20 + 6
    legal = [*BIDS.values(), PASS]
    assert choose_trump(hand, legal).action == BIDS[Suit.HEARTS]
    weak = cards("7♥ 8♥ 7♠ 8♠ 7♣ 8♣ 7♦ 8♦")
    assert choose_trump(weak, legal).action == PASS
    assert choose_trump(weak, list(BIDS.values())).action in BIDS.values()


# --- what `tactics` asks beyond the report: probabilities from counted deals --------


def brute_deals(oracle: Enumeration, seat: int, hand: int, player: int, cards: int) -> int:
    """The deals `seat` considers in which `player` holds none of `cards` (deck indices)."""
    a, b, c = (s for s in range(4) if s != seat)
    unseen = ((1 << len(oracle.deck)) - 1) & ~oracle.played & ~hand
    found = 0
    mine = not hand & cards if player == seat else None
    for hand_a in oracle.valid[a]:
        if hand_a & hand:
            continue
        rest = unseen & ~hand_a
        for hand_b in subsets(rest, oracle.sizes[b]):
            hand_c = rest & ~hand_b
            if hand_b in oracle.valid[b] and hand_c in oracle.valid[c]:
                if mine is None:
                    found += not {a: hand_a, b: hand_b, c: hand_c}[player] & cards
                else:
                    found += mine
    return found


@pytest.mark.parametrize(
    "spec",
    [
        "klaverjas(ranks=4,rules=rotterdam,undertrump=force,deals=2)",
        "klaverjas(ranks=4,undertrump=free,trump=random,deals=2)",
    ],
)
def test_counted_deals_equal_brute_force(spec: str) -> None:
    """`ExactBeliefs.deals_without` against enumerating the deals a seat considers."""
    game = load_game(spec)
    assert isinstance(game, KlaverjasGame)
    rng = random.Random(7)
    compared = 0
    for seed in range(3):
        history = play_match(spec, ["tactics", "random", "tactics2017", "random"], seed).history
        state = game.new_initial_state()
        assert isinstance(state, KlaverjasState)
        oracle: Enumeration | None = None
        for action in history:
            seen = len(state.events)
            state.apply(action)
            for event in state.events[seen:]:
                if isinstance(event, DealDone):
                    oracle = Enumeration(game)
                elif isinstance(event, TrumpChosen):
                    assert oracle is not None
                    oracle.trump = event.trump
                    oracle.trick = Trick.start((state.observation(0).table.dealer + 1) % 4)
                elif isinstance(event, CardPlayed):
                    assert oracle is not None
                    oracle.play(event.seat, event.card)
            if oracle is None or oracle.trick is None:
                continue
            seat = rng.randrange(4)
            view = state.observation(seat)
            hand = sum(1 << oracle.index[c] for c in view.hand)
            exact = ExactBeliefs(view)
            total = exact.deals()
            assert total == brute_deals(oracle, seat, hand, seat, 0)
            assert total == view.knowledge.worlds_count()
            for player in range(4):
                chosen = rng.sample(oracle.deck, rng.randint(1, 4))
                mask = sum(1 << c.index for c in chosen)
                in_deck = sum(1 << oracle.index[c] for c in chosen)
                expected = brute_deals(oracle, seat, hand, player, in_deck)
                assert exact.deals_without(player, mask) == expected, (seat, player, chosen)
                compared += 1
                unplayed = not oracle.played & in_deck
                if len(chosen) == 1 and player != seat and unplayed:
                    probability = view.knowledge.probability(chosen[0], player)
                    assert Fraction(expected, total) == 1 - probability
    assert compared > 150


def test_deal_counts_by_hand() -> None:
    # Three cards, one each, anyone may hold any: 3! deals; 2·2 without the first card.
    counts = DealCounts((1, 2, 3), [0b111] * 3, [1, 1, 1])
    assert counts.total == 6 and counts.without(1, 0b001) == 4
    assert counts.without(2, 0b111) == 0  # player 2 must hold one of them
    # Only player 3 may hold the first card: it is his in every deal.
    counts = DealCounts((1, 2, 3), [0b110, 0b110, 0b111], [1, 1, 1])
    assert counts.total == 2 and counts.without(3, 0b001) == 0
    assert counts.without(1, 0b010) == 1


class FakeChances(Fake):
    """`Fake` beliefs that count deals: each player holds `sizes[p]` of the cards it may."""

    def __init__(self, seat: int, may: dict[int, str], sizes: dict[int, int]) -> None:
        super().__init__(may)
        others = tuple(p for p in range(4) if p != seat)
        masks = [self.may_hold_mask(p) for p in others]
        self.counts = DealCounts(others, masks, [sizes[p] for p in others])

    def may_hold_mask(self, player: int) -> int:
        return sum(1 << c.index for c in self.may.get(player, ()))

    def deals(self) -> int:
        return self.counts.total

    def deals_without(self, player: int, cards: int) -> int:
        return self.counts.without(player, cards)


def knowing(
    seat: int, legal: str, trick: list[tuple[int, str]], beliefs: FakeChances, unplayed: str
) -> KnowingPosition:
    t = Trick.start(trick[0][0] if trick else seat)
    for s, c in trick:
        t = t.play(s, Card.parse(c))
    hand = cards(legal)
    return KnowingPosition(seat, hand, hand, t, Suit.DIAMONDS, cards(unplayed), beliefs)


#: Unplayed cards for the seat 4 positions below (trump ♦); the trick's cards are played.
LEFT = "J♦ 9♦ A♦ 7♦ A♥ 10♥ 7♥ 9♥ K♣ 7♣ 8♣ Q♣"


def test_seat_4_gives_points_to_the_partners_trick() -> None:
    # East's 10♠ wins; West, void in ♠, gives its 10♥ (the A♥ is still out), not the 7♥.
    beliefs = FakeChances(3, {0: "A♥ 9♥ 8♣", 1: "J♦ 9♦ Q♣", 2: "A♦ 7♦ 7♣"}, {0: 3, 1: 3, 2: 3})
    trick = [(0, "8♠"), (1, "10♠"), (2, "9♠")]
    choice = knowing(3, "10♥ K♣ 7♥", trick, beliefs, LEFT).choose()
    assert choice.card == Card.parse("10♥") and "partner's 10♠ takes it" in choice.text
    # The report's seat 4 plays its lowest card.
    report = position(3, "10♥ K♣ 7♥", trick, beliefs, LEFT).choose()
    assert report.card == Card.parse("7♥")


def test_seat_4_keeps_the_best_card_left_of_its_suit() -> None:
    beliefs = FakeChances(3, {0: "9♥ 8♣ 7♣", 1: "J♦ 9♦ K♣", 2: "A♦ 7♦ 10♥"}, {0: 3, 1: 3, 2: 3})
    trick = [(0, "8♠"), (1, "10♠"), (2, "9♠")]
    choice = knowing(3, "A♥ Q♣ 7♥", trick, beliefs, LEFT).choose()
    assert choice.card == Card.parse("Q♣")  # the A♥ will take a trick of its own


#: Seat 3 (South, holding 10♥ K♣ 7♥) after North's 10♠ and East's 7♣.
SOUTH = "10♥ K♣ 7♥"
THIRD = [(0, "10♠"), (1, "7♣")]


def test_seat_3_gives_points_when_the_last_player_cannot_beat_the_partner() -> None:
    # West holds spades below the 10♠: it must follow and cannot trump.
    beliefs = FakeChances(2, {0: "A♥ 9♥", 1: "J♦ 9♦", 3: "9♠ 8♠ 8♣"}, {0: 2, 1: 2, 3: 3})
    left = f"{SOUTH} A♥ 9♥ J♦ 9♦ 9♠ 8♠ 8♣"
    choice = knowing(2, SOUTH, THIRD, beliefs, left).choose()
    assert choice.card == Card.parse("10♥") and "cannot beat 10♠" in choice.text
    assert position(2, SOUTH, THIRD, beliefs, left).choose().card == Card.parse("7♥")


def test_seat_3_keeps_its_points_when_the_last_player_likely_trumps() -> None:
    # West holds one of 9♠ J♦ 9♦ A♦: void in ♠ with a trump in 3 deals of 4.
    others = "9♠ J♦ 9♦ A♦"
    beliefs = FakeChances(2, {0: "A♥ 9♥", 1: others, 3: others}, {0: 2, 1: 3, 3: 1})
    place = knowing(2, SOUTH, THIRD, beliefs, f"{SOUTH} A♥ 9♥ {others}")
    assert beliefs.deals() == 4 and place.deals_beaten(Card.parse("10♠"), 3) == 3
    assert place.choose().card == Card.parse("7♥")


def test_seat_1_leads_to_the_partners_likely_trump() -> None:
    # No sure winner; South has shown no ♣ and may hold trumps: lead the ♣, not the 7♥.
    anything = "J♦ 9♦ A♥ 10♥ 9♥ K♣"
    beliefs = FakeChances(0, {1: anything, 2: "J♦ 9♦ 10♥ 9♥", 3: anything}, {1: 2, 2: 2, 3: 2})
    left = f"8♣ 7♥ {anything}"
    choice = knowing(0, "8♣ 7♥", [], beliefs, left).choose()
    assert choice.card == Card.parse("8♣") and "partner holds no ♣" in choice.text
    assert position(0, "8♣ 7♥", [], beliefs, left).choose().card == Card.parse("7♥")
