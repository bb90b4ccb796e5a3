"""The 2017 report's inference (`Seed2017Inference`) on hand-worked examples of its steps."""

from __future__ import annotations

from epigames.cards import Card, Suit, Trick
from epigames.games import load_game, replay
from epigames.games.klaverjas import KlaverjasState
from epigames.games.klaverjas.inference2017 import Seed2017Inference, value
from epigames.games.klaverjas.play import klaverjas_deck

DECK = klaverjas_deck(4)  # J 9 A 10 of each suit


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def observer(seat: int, hand: str, trump: Suit) -> Seed2017Inference:
    inference = Seed2017Inference.start(seat, cards(hand), DECK)
    inference.trump = trump
    return inference


def play(inference: Seed2017Inference, leader: int, plays: str) -> Trick:
    trick = Trick.start(leader)
    for i, card in enumerate(cards(plays)):
        trick = trick.play((leader + i) % 4, card)
        inference.observe(trick)
    return trick


def test_value_orders_trumps_and_plain_suits() -> None:
    order = sorted(cards("J♦ 9♦ A♦ 10♦"), key=lambda c: -value(c, Suit.DIAMONDS))
    assert [str(c) for c in order] == ["J♦", "9♦", "A♦", "10♦"]
    order = sorted(cards("J♠ 9♠ A♠ 10♠"), key=lambda c: -value(c, Suit.DIAMONDS))
    assert [str(c) for c in order] == ["A♠", "10♠", "J♠", "9♠"]


def test_step_1_and_2_void_and_no_trump_when_not_winning() -> None:
    # North (0) observes; trump ♦. East leads A♠, South follows 9♠, West discards J♣:
    # West's team (East) is winning, so West only shows a void in spades (step 2).
    north = observer(0, "J♥ 9♥ A♦ 10♦", Suit.DIAMONDS)
    play(north, 1, "A♠ 9♠ J♣")
    assert not north.may_hold(1, Card.parse("A♠"))  # step 1: played
    assert north.ruled_out(3, cards("J♠ 10♠")) == cards("J♠ 10♠")
    assert north.may_hold(3, Card.parse("J♦"))  # partner winning: no trump claim
    # East leads 9♣; South, not on the winning team, discards A♥ with no trump in the
    # trick: no ♣ and no trump at all.
    north = observer(0, "J♥ 9♥ A♦ 10♦", Suit.DIAMONDS)
    play(north, 1, "9♣ A♥")
    assert north.ruled_out(2, cards("J♣ A♣ 10♣ J♦ 9♦")) == cards("J♣ A♣ 10♣ J♦ 9♦")
    assert north.may_hold(2, Card.parse("J♠"))


def test_step_2_no_trump_above_the_winning_trump() -> None:
    # East leads A♠, South trumps with A♦, West (not on the winning team) discards J♣:
    # West has no spade and no trump above A♦, but may hold 10♦.
    north = observer(0, "J♥ 9♥ A♥ 10♥", Suit.DIAMONDS)
    play(north, 1, "A♠ A♦ J♣")
    assert north.ruled_out(3, cards("J♦ 9♦ 10♦ 10♠")) == cards("J♦ 9♦ 10♠")
    assert north.may_hold(3, Card.parse("10♦"))


def test_step_3_unsound_rule_makes_a_false_claim() -> None:
    # Hands (ranks=4): North A♠ J♥ 9♥ A♦, East 10♠ J♠ A♥ 9♣, South 9♠ 10♥ J♦ 9♦,
    # West A♣ J♣ 10♣ 10♦. North names ♦ and leads A♠; East plays 10♠ although it holds
    # J♠ (legal: it follows suit). 10♠ loses and is above every other spade in play,
    # so the 2017 inference decides East holds no other spade: false, East holds J♠.
    game = load_game("klaverjas(ranks=4,deals=1,undertrump=free)")
    hands = ["A♠ J♥ 9♥ A♦", "10♠ J♠ A♥ 9♣", "9♠ 10♥ J♦ 9♦", "A♣ J♣ 10♣ 10♦"]
    split = [h.split() for h in hands]
    deal = [split[i % 4][i // 4] for i in range(16)]
    actions = [*deal, "trump ♦", "A♠", "10♠", "9♠", "10♦"]
    state = replay(game, [game.parse_action(a) for a in actions])
    assert isinstance(state, KlaverjasState)
    view = state.observation(0)
    north = Seed2017Inference.from_view(view)
    jack = Card.parse("J♠")
    assert not north.may_hold(1, jack)  # step 3: the false claim
    # West trumped (step 2: no spades), so only South is left for J♠: step 4 "knows" it.
    assert north.knows_holds(2, jack)
    assert Card.parse("J♠") in state.hands()[1]
    # The exact engine makes no such claim.
    assert view.knowledge.possible_holders(jack) == frozenset({1, 2})
    # South's own view: 9♠ is its own, so the only other spade is J♠; same false claim.
    south = Seed2017Inference.from_view(state.observation(2))
    assert not south.may_hold(1, jack) and south.knows_holds(0, jack)


def test_step_3_needs_a_card_above_the_rest() -> None:
    # South follows with 9♠ under A♠ while J♠ is still out: no claim about South.
    north = observer(0, "J♥ 9♥ A♦ 10♦", Suit.DIAMONDS)
    play(north, 1, "A♠ 9♠")
    assert north.may_hold(2, Card.parse("J♠")) and north.may_hold(2, Card.parse("10♠"))


def test_step_4_single_possible_holder_becomes_known() -> None:
    # North leads A♠ and holds 10♠; South and West show voids in ♠, so the last unseen
    # spade, J♠, can only be East's.
    north = observer(0, "A♠ 10♠ J♥ 9♥", Suit.DIAMONDS)
    play(north, 0, "A♠ 9♠ J♣ A♣")  # East follows with 9♠; South and West do not
    assert north.knows_holds(1, Card.parse("J♠"))
