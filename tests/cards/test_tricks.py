"""Tricks: led suit, winners under trump and rank orders, follow-suit helpers, card points."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, strategies as st

from epigames.cards.deck import PIQUET_DECK, RANKS, SUITS, Card, Hand, Rank, Suit, deck
from epigames.cards.tricks import (
    HIGH_CARD,
    KLAVERJAS,
    KLAVERJAS_POINTS,
    CardPoints,
    Play,
    RankOrder,
    Trick,
    TrickError,
    beats,
    highest_trump_in,
    must_follow,
    trumps_above,
)
from epigames.errors import InputError

# Klaverjas's orders written out as text, highest first, independently of the module.
KJ_TRUMP = ["J", "9", "A", "10", "K", "Q", "8", "7"]
KJ_PLAIN = ["A", "10", "K", "Q", "J", "9", "8", "7"]


def trick(text: str, leader: int = 0, players: int = 4) -> Trick:
    """Cards played in turn from `leader`, e.g. trick("K♥ 7♠ A♥")."""
    out = Trick.start(leader)
    for i, word in enumerate(text.split()):
        out = out.play((leader + i) % players, Card.parse(word))
    return out


# --- the trick value ----------------------------------------------------------------------


def test_a_trick_records_seats_cards_and_led_suit() -> None:
    empty = Trick.start(2)
    assert empty.led_suit is None and len(empty) == 0 and empty.next_seat(4) == 2
    t = trick("K♥ 7♠ A♥", leader=2)
    assert t.led_suit is Suit.HEARTS
    assert [p.seat for p in t] == [2, 3, 0]
    assert [str(c) for c in t.cards] == ["K♥", "7♠", "A♥"]
    assert t.next_seat(4) == 1
    assert trick("K♥ 7♠ A♥", leader=1).next_seat(4) == 0  # after seat 3 comes seat 0
    assert trick("K♥ 7♠", leader=1).next_seat(3) == 0
    assert t == trick("KH 7S AH", leader=2) and hash(t) == hash(trick("KH 7S AH", leader=2))
    assert empty.play(2, Card.parse("KH")) != empty  # a new value; the old one unchanged
    assert len(empty) == 0
    assert str(t) == "trick led by 2: 2:K♥ 3:7♠ 0:A♥"


def test_malformed_tricks_are_refused() -> None:
    with pytest.raises(TrickError, match="expected the leader to play first"):
        Trick.start(0).play(1, Card.parse("KH"))
    with pytest.raises(TrickError, match="seat playing twice"):
        trick("KH 7S").play(0, Card.parse("AH"))
    with pytest.raises(TrickError, match="card played twice"):
        trick("KH 7S").play(2, Card.parse("KH"))
    with pytest.raises(TrickError, match="no winner yet"):
        Trick.start(0).winner(None, HIGH_CARD)
    assert issubclass(TrickError, InputError)


# --- winners --------------------------------------------------------------------------------


def test_trump_beats_plain() -> None:
    t = trick("K♥ 7♠ A♥ 10♥")
    assert t.winner(Suit.SPADES, KLAVERJAS) == Play(1, Card.parse("7♠"))
    assert t.winner(Suit.SPADES, HIGH_CARD).seat == 1
    # Without trumps the 7♠ is only a discard and the A♥ wins.
    assert t.winner(None, KLAVERJAS).seat == 2
    assert t.winner(Suit.CLUBS, KLAVERJAS).seat == 2


def test_led_suit_beats_off_suit_discards() -> None:
    t = trick("7♥ A♠ A♣ A♦")
    assert t.winner(None, HIGH_CARD).seat == 0
    assert t.winner(None, KLAVERJAS).seat == 0
    assert t.winner(Suit.HEARTS, KLAVERJAS).seat == 0
    # A discard never wins even when it is the first card after the lead.
    assert trick("8♦ K♣ 7♦").winner(None, HIGH_CARD).seat == 0
    assert trick("7♦ K♣ 8♦").winner(None, HIGH_CARD).seat == 2


def test_klaverjas_trump_order_jack_then_nine() -> None:
    assert trick("A♥ 9♥ J♥ 10♥").winner(Suit.HEARTS, KLAVERJAS).card == Card.parse("J♥")
    assert trick("A♥ 10♥ 9♥ K♥").winner(Suit.HEARTS, KLAVERJAS).card == Card.parse("9♥")
    assert trick("7♦ 9♥ A♥").winner(Suit.HEARTS, KLAVERJAS).card == Card.parse("9♥")
    assert trick("8♥ 7♥").winner(Suit.HEARTS, KLAVERJAS).card == Card.parse("8♥")
    # The same cards outside trumps: the ace is highest, 10 above K, the jack below Q.
    assert trick("A♥ 9♥ J♥ 10♥").winner(Suit.SPADES, KLAVERJAS).card == Card.parse("A♥")
    assert trick("K♥ 10♥").winner(None, KLAVERJAS).card == Card.parse("10♥")
    assert trick("J♥ Q♥ 9♥").winner(None, KLAVERJAS).card == Card.parse("Q♥")
    # High-card order: plain aces high, jack below queen in trumps too.
    assert trick("J♥ Q♥ 9♥").winner(Suit.HEARTS, HIGH_CARD).card == Card.parse("Q♥")
    assert trick("K♥ 10♥").winner(None, HIGH_CARD).card == Card.parse("K♥")


def test_rank_orders_are_as_the_rules_say() -> None:
    assert [r.text for r in KLAVERJAS.trump] == KJ_TRUMP
    assert [r.text for r in KLAVERJAS.plain] == KJ_PLAIN
    assert HIGH_CARD.plain == HIGH_CARD.trump == tuple(reversed(RANKS))


def reference_winner(t: Trick, trump: Suit | None, order: RankOrder) -> int:
    """The winner's seat by the rule's words: highest trump if any, else highest of led."""
    trumps = [p for p in t if p.card.suit is trump]
    if trumps:
        return min(trumps, key=lambda p: order.trump.index(p.card.rank)).seat
    led = [p for p in t if p.card.suit is t.led_suit]
    return min(led, key=lambda p: order.plain.index(p.card.rank)).seat


tricks_ = st.lists(st.sampled_from(PIQUET_DECK), min_size=1, max_size=4, unique=True).map(
    lambda cs: trick(" ".join(map(str, cs)))
)
trumps = st.sampled_from([None, *SUITS])


@given(tricks_, trumps, st.sampled_from([KLAVERJAS, HIGH_CARD]))
def test_winner_agrees_with_the_reference(t: Trick, trump: Suit | None, order: RankOrder) -> None:
    win = t.winner(trump, order)
    assert win.seat == reference_winner(t, trump, order)
    assert win in t.plays
    assert win.card.suit in (trump, t.led_suit)  # never a discard
    # The winner beats every other card of the trick, played before or after it.
    for p in t:
        if p != win:
            assert not beats(p.card, win.card, t.plays[0].card.suit, trump, order)


def test_beats_examples() -> None:
    k, seven_s, ace_c = Card.parse("K♥"), Card.parse("7♠"), Card.parse("A♣")
    assert beats(seven_s, k, Suit.HEARTS, Suit.SPADES, KLAVERJAS)
    assert not beats(k, seven_s, Suit.HEARTS, Suit.SPADES, KLAVERJAS)
    assert beats(k, ace_c, Suit.HEARTS, None, HIGH_CARD)  # led suit over a discard
    assert not beats(ace_c, seven_s, Suit.HEARTS, None, HIGH_CARD)  # two discards: no


def test_ranks_outside_the_order_are_errors() -> None:
    # A 2 has no place in Klaverjas's orders; it matters only when it competes.
    with pytest.raises(TrickError, match="2♥ has no place in the trump order J 9 A"):
        trick("J♥ 2♥").winner(Suit.HEARTS, KLAVERJAS)
    with pytest.raises(TrickError, match="plain order"):
        trick("J♥ 2♥").winner(None, KLAVERJAS)
    assert trick("J♥ 2♠").winner(None, KLAVERJAS).seat == 0  # the 2♠ is a discard


@pytest.mark.parametrize(
    ("trump", "plain"),
    [((), (Rank.ACE,)), ((Rank.ACE, Rank.ACE), (Rank.ACE,)), (("A",), (Rank.ACE,))],
)
def test_bad_rank_orders(trump: tuple[Rank, ...], plain: tuple[Rank, ...]) -> None:
    with pytest.raises(TrickError, match="expected"):
        RankOrder(trump=trump, plain=plain)


# --- follow-suit helpers -------------------------------------------------------------------


def test_must_follow() -> None:
    hand = Hand.parse("7♣ 9♥ J♥ A♠")
    assert must_follow(hand, trick("K♥ 7♠")) == (Card.parse("9♥"), Card.parse("J♥"))
    assert must_follow(hand, trick("K♦")) == ()  # cannot follow
    assert must_follow(hand, Trick.start(0)) == ()  # nothing led yet
    assert must_follow(hand.cards, trick("8♣ A♣")) == (Card.parse("7♣"),)


@given(st.sets(st.sampled_from(PIQUET_DECK)), tricks_)
def test_must_follow_is_the_hand_of_the_led_suit(hand: set[Card], t: Trick) -> None:
    led = t.led_suit
    assert led is not None
    assert must_follow(Hand(hand), t) == Hand(hand).of_suit(led)
    assert set(must_follow(hand, t)) == {c for c in hand if c.suit is led}


def test_highest_trump_in() -> None:
    t = trick("K♥ A♠ 7♦ 9♠")
    assert highest_trump_in(t, Suit.SPADES, KLAVERJAS) == Play(3, Card.parse("9♠"))
    assert highest_trump_in(t, Suit.SPADES, HIGH_CARD) == Play(1, Card.parse("A♠"))
    assert highest_trump_in(t, Suit.CLUBS, KLAVERJAS) is None
    assert highest_trump_in(t, None, KLAVERJAS) is None
    assert highest_trump_in(Trick.start(0), Suit.SPADES, KLAVERJAS) is None
    # Trump led: the leader's card counts too.
    assert highest_trump_in(trick("J♠ 9♠"), Suit.SPADES, KLAVERJAS) == Play(0, Card.parse("J♠"))


@given(tricks_, st.sampled_from(SUITS))
def test_highest_trump_wins_whenever_there_is_one(t: Trick, trump: Suit) -> None:
    top = highest_trump_in(t, trump, KLAVERJAS)
    if top is None:
        assert all(c.suit is not trump for c in t.cards)
    else:
        assert t.winner(trump, KLAVERJAS) == top


def test_trumps_above() -> None:
    hand = Hand.parse("J♠ A♠ 7♠ K♥")
    nine = Card.parse("9♠")
    assert trumps_above(hand, nine, Suit.SPADES, KLAVERJAS) == (Card.parse("J♠"),)
    # In high-card order the jack ranks below the ace but still above the nine.
    assert trumps_above(hand, nine, Suit.SPADES, HIGH_CARD) == (Card.parse("J♠"), Card.parse("A♠"))
    assert trumps_above(hand, Card.parse("Q♠"), Suit.SPADES, HIGH_CARD) == (Card.parse("A♠"),)
    assert trumps_above(hand, Card.parse("8♠"), Suit.SPADES, KLAVERJAS) == (
        Card.parse("J♠"),
        Card.parse("A♠"),
    )
    assert trumps_above(hand, None, Suit.SPADES, KLAVERJAS) == hand.of_suit(Suit.SPADES)
    assert trumps_above(hand, None, Suit.DIAMONDS, KLAVERJAS) == ()
    with pytest.raises(TrickError, match="K♥ is not a trump"):
        trumps_above(hand, Card.parse("K♥"), Suit.SPADES, KLAVERJAS)


@given(st.sets(st.sampled_from(PIQUET_DECK)), tricks_, st.sampled_from(SUITS))
def test_overtrumping_cards_win_the_trick(hand: set[Card], t: Trick, trump: Suit) -> None:
    top = highest_trump_in(t, trump, KLAVERJAS)
    free = set(hand) - set(t.cards)
    above = trumps_above(free, None if top is None else top.card, trump, KLAVERJAS)
    seat = 9  # any seat not yet in the trick
    for card in free:
        if card.suit is not trump:
            continue
        wins = t.play(seat, card).winner(trump, KLAVERJAS).card == card
        # With a trump in the trick, a trump wins exactly when it is above the highest one.
        if top is not None:
            assert wins == (card in above)
        else:
            assert card in above and wins


# --- points ---------------------------------------------------------------------------------


@pytest.mark.parametrize("trump", SUITS)
def test_klaverjas_points_total_152(trump: Suit) -> None:
    assert sum(KLAVERJAS_POINTS.points(c, trump) for c in PIQUET_DECK) == 152
    assert sum(KLAVERJAS_POINTS.points(c, trump) for c in PIQUET_DECK if c.suit is trump) == 62


def test_klaverjas_points_examples() -> None:
    t = trick("J♥ 9♥ A♠ 7♣")
    assert KLAVERJAS_POINTS.trick_points(t, Suit.HEARTS) == 20 + 14 + 11 + 0
    assert KLAVERJAS_POINTS.trick_points(t, Suit.SPADES) == 2 + 0 + 11 + 0
    assert KLAVERJAS_POINTS.trick_points(t, None) == 2 + 0 + 11 + 0
    assert sum(KLAVERJAS_POINTS.points(c, None) for c in deck(8)) == 120
    assert KLAVERJAS_POINTS.points(Card.parse("2♥"), None) == 0  # not in the table


def test_bad_point_tables() -> None:
    with pytest.raises(TrickError, match="expected each Rank once"):
        CardPoints.of(trump={Rank.ACE: -1}, plain={})
    with pytest.raises(TrickError, match="expected each Rank once"):
        CardPoints(trump=((Rank.ACE, 1), (Rank.ACE, 2)), plain=())
    assert CardPoints.of(trump={}, plain={Rank.ACE: 1}) == CardPoints((), ((Rank.ACE, 1),))


def _outcome(fn: object, *args: object) -> object:
    try:
        return fn(*args)  # type: ignore[operator]
    except TrickError as exc:
        return str(exc)


def _winner_by_beats(trick: Trick, trump: Suit | None, order: RankOrder) -> Play:
    best = trick.plays[0]
    for play in trick.plays[1:]:
        if beats(play.card, best.card, trick.plays[0].card.suit, trump, order):
            best = play
    return best


def _top_by_strength(trick: Trick, trump: Suit | None, order: RankOrder) -> Play | None:
    best = None
    for play in trick.plays:
        if play.card.suit is trump and (
            best is None or order.strength(play.card, trump) > order.strength(best.card, trump)
        ):
            best = play
    return best


@pytest.mark.parametrize("seed", range(20))
def test_winner_and_top_trump_are_beats_and_strength_card_by_card(seed: int) -> None:
    # Both read strengths from the order's tables; they must still answer (and raise on a
    # card outside the order) as the plain definitions do.
    rng = random.Random(seed)
    cards = list(deck(13))
    for _ in range(300):
        trick = Trick.start(0)
        for seat, card in enumerate(rng.sample(cards, rng.randint(1, 4))):
            trick = trick.play(seat, card)
        for trump in (*SUITS, None):
            for order in (KLAVERJAS, HIGH_CARD):
                assert _outcome(trick.winner, trump, order) == _outcome(
                    _winner_by_beats, trick, trump, order
                )
                assert _outcome(highest_trump_in, trick, trump, order) == _outcome(
                    _top_by_strength, trick, trump, order
                )
