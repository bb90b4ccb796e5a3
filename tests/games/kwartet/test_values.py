"""Cards and actions as values: str/parse/repr round trips and precise errors."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from epigames.errors import InputError
from epigames.games.kwartet import ASKS, CARDS, SEAT_NAMES, Ask, Card, CardSyntaxError

cards = st.sampled_from(CARDS)


@given(cards)
def test_card_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(card.to_ascii()) == card
    assert Card.parse(f"<{card.kind},{card.member}>") == card
    assert Card.parse(f"{card.kind},{card.member}") == card
    assert eval(repr(card)) == card
    assert CARDS[card.index] is Card.from_index(card.index) and CARDS[card.index] == card


def test_card_notation() -> None:
    assert str(Card(8, 4)) == "⟨8,4⟩" and Card(8, 4).to_ascii() == "8.4"
    assert repr(Card(8, 4)) == "Card(8, 4)"
    assert sorted([Card(8, 4), Card(2, 1), Card(8, 1)]) == [Card(2, 1), Card(8, 1), Card(8, 4)]


@pytest.mark.parametrize("text", ["", "8", "8.", "8,", "8,4,1", "⟨8⟩", "a.b", "14.1", "8.5", "0.1"])
def test_bad_cards_are_input_errors(text: str) -> None:
    with pytest.raises(CardSyntaxError, match=r"card"):
        Card.parse(text)
    assert issubclass(CardSyntaxError, InputError)


@given(st.integers(0, 5), cards, st.sampled_from(sorted(SEAT_NAMES)))
def test_ask_round_trips(target: int, card: Card, players: int) -> None:
    ask = Ask(target, card)
    assert Ask.parse(str(ask)) == ask
    assert eval(repr(ask)) == ask
    assert ASKS[target][card.index] == ask
    if target < players:
        names = SEAT_NAMES[players]
        assert Ask.parse(ask.describe(names), names) == ask
        assert Ask.parse(f"ask {names[target].lower()} for {card.to_ascii()}", names) == ask


def test_ask_notation_and_errors() -> None:
    assert str(Ask(1, Card(8, 4))) == "ask 1 ⟨8,4⟩"
    assert Ask(1, Card(8, 4)).describe(SEAT_NAMES[4]) == "ask West ⟨8,4⟩"
    with pytest.raises(CardSyntaxError, match="'Up'"):
        Ask.parse("ask Up 8.4", SEAT_NAMES[4])
    with pytest.raises(CardSyntaxError, match="expected 'ask SEAT CARD'"):
        Ask.parse("give West 8.4")
