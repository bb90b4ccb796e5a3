"""Playing cards as values: spellings, ordering, decks, hands and deal outcomes."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st

from epigames.cards.deck import (
    CARDS,
    PIQUET_DECK,
    RANKS,
    STANDARD_DECK,
    SUITS,
    Card,
    CardParseError,
    DeckError,
    Hand,
    Rank,
    Suit,
    deal_outcomes,
    deck,
    undealt,
)
from epigames.errors import InputError

cards = st.sampled_from(CARDS)
# What `repr` output needs in scope to evaluate back.
NAMESPACE = {"Card": Card, "Rank": Rank, "Suit": Suit, "Hand": Hand}


def key(card: Card) -> tuple[int, int]:
    """The (suit, rank) sort key, written out independently of `Card.index`."""
    return ("CDHS".index(card.suit.letter), "23456789TJQKA".index(card.rank.letter))


# --- spellings ---------------------------------------------------------------------------


def test_examples_of_each_spelling() -> None:
    jack = Card(Rank.JACK, Suit.HEARTS)
    for text in ["J♥", "JH", "jh", "Jh", " J♡ ", "j♥"]:
        assert Card.parse(text) == jack
    ten = Card(Rank.TEN, Suit.SPADES)
    for text in ["10♠", "TS", "ts", "10s", "T♠"]:
        assert Card.parse(text) == ten
    assert str(jack) == "J♥" and str(ten) == "10♠"
    assert jack.ascii() == "JH" and ten.ascii() == "10S"
    assert repr(jack) == "Card(Rank.JACK, Suit.HEARTS)"


def test_dutch_letters() -> None:
    assert Card.parse("BH", dutch=True) == Card(Rank.JACK, Suit.HEARTS)  # boer van harten
    assert Card.parse("vk", dutch=True) == Card(Rank.QUEEN, Suit.CLUBS)  # vrouw, klaveren
    assert Card.parse("HR", dutch=True) == Card(Rank.KING, Suit.DIAMONDS)  # heer, ruiten
    assert Card.parse("A♠", dutch=True) == Card(Rank.ACE, Suit.SPADES)
    assert Card(Rank.QUEEN, Suit.SPADES).dutch() == "V♠"
    assert [r.dutch for r in RANKS[-4:]] == ["B", "V", "H", "A"]
    assert [s.dutch for s in SUITS] == ["K", "R", "H", "S"]


@given(cards)
def test_every_spelling_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) is card  # parse hands out the shared objects
    assert Card.parse(card.ascii()) is card
    assert Card.parse(card.ascii().lower()) is card
    assert Card.parse(card.rank.letter + card.suit.letter) is card
    assert Card.parse(card.rank.letter.lower() + str(card.suit)) is card
    assert Card.parse(card.dutch(), dutch=True) is card
    assert Card.parse((card.rank.dutch + card.suit.dutch).lower(), dutch=True) is card
    assert eval(repr(card), NAMESPACE) == card
    assert str(card) == card.rank.text + str(card.suit)


@pytest.mark.parametrize(
    "text",
    ["", " ", "1H", "11H", "JX", "J", "H", "JHH", "10", "1O♠", "J♥♥", "BH", "JK", "J-H", "J H"],
)
def test_bad_text_is_a_parse_error_quoting_it(text: str) -> None:
    with pytest.raises(CardParseError) as caught:
        Card.parse(text)
    assert repr(text) in str(caught.value)
    assert "expected" in str(caught.value)
    assert isinstance(caught.value, InputError)


@pytest.mark.parametrize("text", ["JH", "JC", "JD", "KH", "TS"])
def test_english_only_spellings_are_not_dutch(text: str) -> None:
    # Dutch has no rank J, K or T and no suit letters C, D: these must not read as cards.
    with pytest.raises(CardParseError, match="B, V, H or A"):
        Card.parse(text, dutch=True)


@given(st.text(max_size=4))
def test_any_text_is_a_card_that_round_trips_or_a_parse_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except CardParseError as error:
        assert repr(text) in str(error)
    else:
        assert Card.parse(str(card)) == card
        assert str(card) in {str(c) for c in CARDS}


def test_a_card_needs_a_rank_and_a_suit() -> None:
    with pytest.raises(DeckError, match="expected Card\\(Rank, Suit\\)"):
        Card(Suit.HEARTS, Rank.JACK)  # type: ignore[arg-type]
    with pytest.raises(DeckError):
        Card("J", "H")  # type: ignore[arg-type]


# --- ordering and hashing ------------------------------------------------------------------


def test_suit_and_rank_order_examples() -> None:
    assert Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS < Suit.SPADES
    assert Rank.TWO < Rank.NINE < Rank.TEN < Rank.JACK < Rank.QUEEN < Rank.KING < Rank.ACE
    assert Card.parse("A♣") < Card.parse("2♦")  # suit first
    assert Card.parse("10♥") < Card.parse("J♥")
    assert [str(c) for c in sorted(Hand.parse("A♠ 2♠ 10♣ K♦ J♥"))] == [
        "10♣",
        "K♦",
        "J♥",
        "2♠",
        "A♠",
    ]


@given(cards, cards)
def test_order_is_by_suit_then_rank(a: Card, b: Card) -> None:
    assert (a < b) == (key(a) < key(b))
    assert (a <= b) == (key(a) <= key(b))
    assert (a > b) == (key(a) > key(b))
    assert (a >= b) == (key(a) >= key(b))
    assert (a == b) == (key(a) == key(b))
    assert (hash(a) == hash(b)) or a != b


@given(st.lists(cards))
def test_sorting_agrees_with_the_key(some: list[Card]) -> None:
    assert sorted(some) == sorted(some, key=key)


def test_cards_equal_by_value_and_hash_alike() -> None:
    built = Card(Rank.JACK, Suit.HEARTS)
    assert built == Card.parse("JH") and hash(built) == hash(Card.parse("JH"))
    assert len({built, Card.parse("jh"), Card.parse("J♥")}) == 1
    assert CARDS[built.index] == built


def test_cards_do_not_compare_with_other_things() -> None:
    text: object = "JH"
    with pytest.raises(TypeError):
        _ = Card.parse("JH") < text
    with pytest.raises(TypeError):
        _ = Suit.HEARTS < Rank.ACE
    assert Card.parse("JH") != text


# --- decks ----------------------------------------------------------------------------------


def test_deck_sizes_and_ranks() -> None:
    assert len(STANDARD_DECK) == 52 and deck() == STANDARD_DECK
    assert len(PIQUET_DECK) == 32
    assert {c.rank for c in PIQUET_DECK} == {
        Rank.SEVEN,
        Rank.EIGHT,
        Rank.NINE,
        Rank.TEN,
        Rank.JACK,
        Rank.QUEEN,
        Rank.KING,
        Rank.ACE,
    }
    small = deck(4)
    assert len(small) == 16
    assert {c.rank for c in small} == {Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE}
    assert {c.suit for c in small} == set(SUITS)
    assert [str(c) for c in deck(1)] == ["A♣", "A♦", "A♥", "A♠"]
    kemps = deck([Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX])
    assert len(kemps) == 20 and max(c.rank for c in kemps) == Rank.SIX
    assert deck(13, suits=[Suit.HEARTS]) == tuple(c for c in CARDS if c.suit is Suit.HEARTS)


@pytest.mark.parametrize("ranks", range(1, 14))
def test_decks_are_sorted_distinct_and_top_ranks(ranks: int) -> None:
    cards_ = deck(ranks)
    assert len(cards_) == 4 * ranks == len(set(cards_))
    assert list(cards_) == sorted(cards_)
    lowest = min(c.rank for c in cards_)
    assert lowest == RANKS[13 - ranks]


@pytest.mark.parametrize(
    "ranks",
    [0, 14, -1, True, [], [Rank.ACE, Rank.ACE], ["A"]],
)
def test_bad_deck_requests(ranks: object) -> None:
    with pytest.raises(DeckError, match="expected"):
        deck(ranks)  # type: ignore[arg-type]


def test_bad_deck_suits() -> None:
    with pytest.raises(DeckError, match="suits"):
        deck(4, suits=[])
    with pytest.raises(DeckError, match="suits"):
        deck(4, suits=[Suit.HEARTS, Suit.HEARTS])


# --- hands ----------------------------------------------------------------------------------


@given(st.lists(cards, unique=True))
def test_a_hand_is_its_cards_sorted_whatever_the_order(some: list[Card]) -> None:
    hand = Hand(some)
    assert hand.cards == tuple(sorted(some, key=key))
    assert hand == Hand(reversed(some)) and hash(hand) == hash(Hand(reversed(some)))
    assert len(hand) == len(some) and all(c in hand for c in some)
    assert Hand.parse(str(hand)) == hand
    assert eval(repr(hand), NAMESPACE) == hand
    for suit in SUITS:
        assert hand.of_suit(suit) == tuple(c for c in sorted(some) if c.suit is suit)
        assert hand.has_suit(suit) == any(c.suit is suit for c in some)
    assert hand.suits() == {c.suit for c in some}


def test_hand_helpers() -> None:
    hand = Hand.parse("J♥ 9h, A♠ 7♣")
    assert str(hand) == "7♣ 9♥ J♥ A♠"
    assert hand.of_suit(Suit.HEARTS) == (Card.parse("9H"), Card.parse("JH"))
    assert hand.of_suit(Suit.DIAMONDS) == ()
    assert hand.has_suit(Suit.CLUBS) and not hand.has_suit(Suit.DIAMONDS)
    assert Card.parse("KH") not in hand
    assert hand.without(Card.parse("A♠")) == Hand.parse("7♣ 9♥ J♥")
    assert hand.with_card(Card.parse("8♦")) == Hand.parse("7♣ 8♦ 9♥ J♥ A♠")
    assert hand == Hand.parse("B♥ 9♥ A♠ 7♣", dutch=True)
    assert Hand.parse("") == Hand() and len(Hand()) == 0


def test_hand_errors() -> None:
    with pytest.raises(DeckError, match="repeated: J♥"):
        Hand.parse("J♥ jh 7♣")
    with pytest.raises(DeckError, match="does not hold"):
        Hand.parse("J♥").without(Card.parse("7♣"))
    with pytest.raises(DeckError, match="repeated"):
        Hand.parse("J♥").with_card(Card.parse("JH"))
    with pytest.raises(DeckError, match="cards only"):
        Hand(["JH"])  # type: ignore[list-item]
    with pytest.raises(CardParseError, match="'XX'"):
        Hand.parse("JH XX")


# --- dealing --------------------------------------------------------------------------------


@given(st.sets(st.sampled_from(PIQUET_DECK), max_size=31))
def test_deal_outcomes_are_uniform_over_the_undealt_cards(dealt: set[Card]) -> None:
    outcomes = deal_outcomes(PIQUET_DECK, dealt)
    cards_ = [c for c, _ in outcomes]
    assert cards_ == [c for c in PIQUET_DECK if c not in dealt]  # the deck's order
    assert math.isclose(math.fsum(p for _, p in outcomes), 1.0)
    assert {p for _, p in outcomes} == {1 / (32 - len(dealt))}
    assert undealt(PIQUET_DECK, dealt) == tuple(cards_)


def test_dealing_a_whole_deck_one_card_per_chance_step() -> None:
    small = deck(4)
    dealt: list[Card] = []
    for step in range(16):
        outcomes = deal_outcomes(small, dealt)
        assert len(outcomes) == 16 - step
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        dealt.append(outcomes[(7 * step) % len(outcomes)][0])
    assert sorted(dealt) == list(small)
    with pytest.raises(DeckError, match="all 16 cards are dealt"):
        deal_outcomes(small, dealt)


def test_deal_errors() -> None:
    with pytest.raises(DeckError, match="not in the deck: 2♣"):
        deal_outcomes(deck(4), [Card.parse("2C")])
    with pytest.raises(DeckError, match="repeated"):
        deal_outcomes((*deck(4), Card.parse("AS")))
    with pytest.raises(DeckError, match="dealt"):
        deal_outcomes(())
