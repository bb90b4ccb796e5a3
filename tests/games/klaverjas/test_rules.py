"""Klaverjas rules: legality in every setting, what plays tell, tricks, roem, scoring."""

from __future__ import annotations

import random

import pytest

from epigames.cards import Card, Hand, Suit, Trick
from epigames.errors import IllegalActionError, InputError
from epigames.games import TERMINAL, load_game, play_match, replay
from epigames.games.klaverjas import (
    BIDS,
    PASS,
    DealScored,
    KlaverjasGame,
    KlaverjasState,
    MatchOver,
    TrumpChosen,
    inference,
    legal_cards,
    roem,
    score_deal,
)
from epigames.games.klaverjas.play import klaverjas_deck, refusal

HEARTS, SPADES = Suit.HEARTS, Suit.SPADES
SETTINGS = [(r, u) for r in ("amsterdam", "rotterdam") for u in ("forbid", "force", "free")]


def trick(text: str, leader: int = 0) -> Trick:
    """A trick led by `leader`, e.g. `K♠ 7♠` (seats follow clockwise)."""
    t = Trick.start(leader)
    for i, card in enumerate(text.split()):
        t = t.play((leader + i) % 4, Card.parse(card))
    return t


def legal(hand: str, played: str, rules: str, under: str, trump: Suit = HEARTS) -> str:
    cards = Hand.parse(hand).cards
    return " ".join(str(c) for c in legal_cards(cards, trick(played), trump, rules, under))


# --- legality, case by case (trump ♥ throughout) ---------------------------------------


@pytest.mark.parametrize(("rules", "under"), SETTINGS)
def test_the_leader_plays_anything(rules: str, under: str) -> None:
    assert legal("7♣ J♥ A♠", "", rules, under) == "7♣ J♥ A♠"


@pytest.mark.parametrize(("rules", "under"), SETTINGS)
def test_plain_suit_led_follow_with_any_card_of_it(rules: str, under: str) -> None:
    assert legal("7♠ 8♠ A♠ J♥ K♣", "K♠ A♠", rules, under) == "7♠ 8♠ A♠"


@pytest.mark.parametrize(("rules", "under"), SETTINGS)
def test_trump_led_overtrump_if_able_even_over_partner(rules: str, under: str) -> None:
    # North leads 10♥, East 7♥: South's partner wins, South must still go over the 10♥.
    assert legal("8♥ A♥ K♠", "10♥ 7♥", rules, under) == "A♥"
    # Unable to go over the J♥: any trump.
    assert legal("8♥ Q♥ A♠", "J♥ 7♥", rules, under) == "8♥ Q♥"
    # No trump: anything.
    assert legal("8♠ A♦", "J♥ 7♥", rules, under) == "A♦ 8♠"


@pytest.mark.parametrize("under", ["forbid", "force", "free"])
def test_rotterdam_must_trump_even_when_partner_wins(under: str) -> None:
    # North leads A♠ and wins so far; South (North's partner) has no spades.
    assert legal("7♥ K♣", "A♠ 7♠", "rotterdam", under) == "7♥"


@pytest.mark.parametrize("under", ["forbid", "force", "free"])
def test_amsterdam_free_when_partner_wins(under: str) -> None:
    assert legal("7♥ K♣", "A♠ 7♠", "amsterdam", under) == "K♣ 7♥"
    # Partner wins with a trump: even undertrumping the partner is allowed.
    assert legal("7♥ K♣", "A♠ 9♥ 8♠", "amsterdam", under, trump=HEARTS) == "K♣ 7♥"


@pytest.mark.parametrize(("rules", "under"), SETTINGS)
def test_opponent_wins_must_trump_and_overtrump(rules: str, under: str) -> None:
    # East cannot follow North's A♠ and holds trump.
    assert legal("7♥ K♣", "A♠", rules, under) == "7♥"
    # South cannot follow; East trumped with the Q♥: South must go over it if able.
    assert legal("7♥ A♥ K♣", "A♠ Q♥", rules, under) == "A♥"


def test_cannot_overtrump_the_three_undertrump_modes() -> None:
    # South has no spade, East trumped with the J♥; South holds 7♥ and K♣.
    played = "A♠ J♥"
    for rules in ("amsterdam", "rotterdam"):
        assert legal("7♥ K♣", played, rules, "forbid") == "K♣"
        assert legal("7♥ K♣", played, rules, "force") == "7♥"
        assert legal("7♥ K♣", played, rules, "free") == "K♣ 7♥"
        # Nothing but trumps: the lower trump is allowed in every mode.
        assert legal("7♥ 8♥", played, rules, "forbid") == "7♥ 8♥"
        assert legal("7♥ 8♥", played, rules, "force") == "7♥ 8♥"


@pytest.mark.parametrize(("rules", "under"), SETTINGS)
def test_no_trump_and_no_led_suit_plays_anything(rules: str, under: str) -> None:
    assert legal("7♣ K♦", "A♠ J♥", rules, under) == "7♣ K♦"
    assert legal("7♣ K♦", "A♠", rules, under) == "7♣ K♦"


def test_refusals_give_the_reason() -> None:
    def why(hand: str, played: str, card: str, rules: str = "rotterdam", under: str = "forbid"):
        t = trick(played)
        return refusal(Hand.parse(hand).cards, t, HEARTS, rules, under, Card.parse(card))

    assert why("7♠ 8♥", "A♠", "8♥") == "you must follow ♠"
    assert why("J♥ 8♥ K♣", "A♠ 9♥", "K♣") == "you must overtrump: you hold J♥"
    assert why("J♥ 8♥ K♣", "A♠ 9♥", "8♥") == "you must overtrump: you hold J♥"
    assert why("8♥ K♣", "A♠", "K♣") == "you must trump: you hold 8♥"
    assert why("8♥ K♣", "A♠ 9♥", "K♣", under="force") == "you must undertrump: you hold 8♥"
    assert why("8♥ K♣", "A♠ 9♥", "8♥").startswith("you may not undertrump")
    assert why("8♥ K♣", "A♠", "A♣") == "you do not hold A♣"
    assert why("8♥ K♣", "A♠", "8♥") is None


# --- what a play tells equals what legality allows --------------------------------------


@pytest.mark.parametrize(("rules", "under"), SETTINGS)
def test_inference_is_exactly_the_hands_that_allow_the_play(rules: str, under: str) -> None:
    """For random hands and tricks: a play is legal iff the hand avoids what it rules out."""
    deck = klaverjas_deck(8)
    rng = random.Random(f"{rules}{under}")
    checked = 0
    for _ in range(3000):
        cards = rng.sample(deck, 3 + rng.randrange(6))
        trump = rng.choice(list(Suit))
        before = rng.randrange(4)
        t = Trick.start(rng.randrange(4))
        for i in range(before):
            t = t.play((t.leader + i) % 4, cards[i])
        hand = cards[before:]
        allowed = legal_cards(hand, t, trump, rules, under)
        for card in hand:
            told = inference(t, trump, rules, under, card)
            fits = not any(told.covers(c, trump) for c in hand if c != card)
            assert (card in allowed) == fits, (str(t), trump, hand, card)
            assert not told.covers(card, trump) or card not in allowed
            checked += 1
    assert checked > 10000


def test_inference_examples() -> None:
    t = trick("A♠ J♥")  # South cannot follow; East trumped with the jack
    assert inference(t, HEARTS, "rotterdam", "forbid", Card.parse("7♥")).describe(HEARTS) == (
        "no ♠, no trump above J♥, only trumps"
    )
    assert inference(t, HEARTS, "rotterdam", "force", Card.parse("K♣")).describe(HEARTS) == (
        "no ♠, no trump (♥)"
    )
    assert inference(t, HEARTS, "rotterdam", "free", Card.parse("K♣")).describe(HEARTS) == (
        "no ♠, no trump above J♥"
    )
    partner = trick("A♠ 7♠")  # South's partner North wins
    assert inference(partner, HEARTS, "amsterdam", "forbid", Card.parse("K♣")).describe(HEARTS) == (
        "no ♠"
    )
    assert inference(partner, HEARTS, "rotterdam", "forbid", Card.parse("K♣")).describe(HEARTS) == (
        "no ♠, no trump (♥)"
    )


# --- tricks, roem, scores ----------------------------------------------------------------


def test_trick_winner() -> None:
    assert trick("K♠ A♠ 7♥ 10♠").winner(HEARTS, _order()).seat == 2
    assert trick("K♠ A♠ 7♣ 10♠").winner(HEARTS, _order()).seat == 1
    assert trick("9♥ A♥ J♥ 10♥").winner(HEARTS, _order()).seat == 2
    assert trick("7♠ A♣ A♦ 8♠").winner(HEARTS, _order()).seat == 3


def _order():
    from epigames.cards import KLAVERJAS

    return KLAVERJAS


@pytest.mark.parametrize(
    ("cards", "four_kind", "expected"),
    [
        ("7♠ 8♠ 9♠ A♦", True, 20),
        ("7♠ 8♠ 9♠ 10♠", True, 50),
        ("9♠ J♠ 10♠ Q♠", True, 50),
        ("7♠ 8♠ 10♠ J♠", True, 0),
        ("K♥ Q♥ 7♠ 8♣", True, 20),
        ("K♥ Q♥ J♥ 7♠", True, 40),
        ("10♥ J♥ Q♥ K♥", True, 70),
        ("K♠ Q♠ 7♣ 8♦", True, 0),
        ("J♠ J♥ J♦ J♣", True, 200),
        ("A♠ A♥ A♦ A♣", True, 100),
        ("10♠ 10♥ 10♦ 10♣", True, 100),
        ("9♠ 9♥ 9♦ 9♣", True, 0),
        ("J♠ J♥ J♦ J♣", False, 0),
    ],
)
def test_roem(cards: str, four_kind: bool, expected: int) -> None:
    assert roem(tuple(Card.parse(c) for c in cards.split()), HEARTS, four_kind) == expected


def _roem_by_suits(cards: tuple[Card, ...], trump: Suit, four_kind: bool) -> int:
    # The rule as written: per suit, the longest run of ranks in the natural order.
    total = 0
    for suit in Suit:
        values = {c.rank.value for c in cards if c.suit is suit}
        longest = max(
            (n for v in values for n in range(1, 5) if {*range(v, v + n)} <= values), default=0
        )
        total += 50 if longest >= 4 else 20 if longest == 3 else 0
    king, queen = Card.parse(f"K{trump}"), Card.parse(f"Q{trump}")
    total += 20 if king in cards and queen in cards else 0
    if four_kind and len(cards) == 4 and len({c.rank for c in cards}) == 1:
        rank = cards[0].rank.text
        total += 200 if rank == "J" else 100 if rank in ("10", "Q", "K", "A") else 0
    return total


def test_roem_equals_the_rule_on_any_cards() -> None:
    # Any cards of the 52-card deck, low ranks too: no sequence runs into the next suit.
    from epigames.cards.deck import CARDS

    rng = random.Random(7)
    for _ in range(3000):
        cards = tuple(rng.sample(CARDS, rng.choice((3, 4, 4, 4, 5))))
        trump = rng.choice(list(Suit))
        for four_kind in (True, False):
            assert roem(cards, trump, four_kind) == _roem_by_suits(cards, trump, four_kind)
    for text in ("K♠ A♠ 2♥ 3♥", "Q♣ K♣ A♣ 2♦", "A♦ 2♥ 3♥ 4♥"):
        cards = tuple(Card.parse(c) for c in text.split())
        assert roem(cards, HEARTS, True) == _roem_by_suits(cards, HEARTS, True)


def test_deal_scores_nat_on_a_tie_and_pit() -> None:
    tie = score_deal((81, 81), (0, 0), (4, 4), playing=0)
    assert tie.nat and tie.scores == (0, 162)
    down = score_deal((70, 92), (20, 20), (3, 5), playing=1)
    assert not down.nat and down.scores == (90, 112)
    nat = score_deal((100, 62), (0, 30), (5, 3), playing=1)
    assert nat.nat and nat.scores == (192, 0)
    pit = score_deal((0, 162), (0, 50), (0, 8), playing=1)
    assert pit.pit and not pit.nat and pit.scores == (0, 312)
    beaten = score_deal((162, 0), (20, 0), (8, 0), playing=1)
    assert beaten.nat and not beaten.pit and beaten.scores == (182, 0)


@pytest.mark.parametrize(
    "spec",
    [
        "klaverjas(deals=4)",
        "klaverjas(rules=rotterdam,undertrump=force,trump=bidding,deals=4)",
        "klaverjas(undertrump=free,trump=random,deals=4,four_kind=false)",
    ],
)
def test_random_matches_score_consistently(spec: str) -> None:
    for seed in range(5):
        result = play_match(spec, ["random"] * 4, seed)
        totals = [0, 0]
        deals = [e for e in result.events if isinstance(e, DealScored)]
        assert len(deals) == 4
        for deal in deals:
            assert sum(deal.points) == 162
            if deal.nat:
                assert deal.scores[deal.playing] == 0
                assert deal.scores[1 - deal.playing] == 162 + sum(deal.roem)
            else:
                extra = [0, 0]
                extra[deal.playing] = 100 if deal.pit else 0
                assert deal.scores == tuple(
                    deal.points[t] + deal.roem[t] + extra[t] for t in (0, 1)
                )
            totals = [totals[0] + deal.scores[0], totals[1] + deal.scores[1]]
            assert deal.totals == tuple(totals)
        assert result.returns == (totals[0], totals[1], totals[0], totals[1])
        assert isinstance(result.events[-1], MatchOver)


def test_dealer_rotates_and_the_eldest_hand_leads() -> None:
    result = play_match("klaverjas(deals=4)", ["random"] * 4, 3)
    chosen = [e for e in result.events if isinstance(e, TrumpChosen)]
    assert [e.chooser for e in chosen] == [0, 1, 2, 3]  # West deals first: North chooses


def test_bidding_all_pass_forces_the_eldest_hand() -> None:
    game = load_game("klaverjas(trump=bidding,deals=1)")
    state = game.new_initial_state()
    while state.current_player < 0:
        state.apply(state.chance_outcomes()[0][0])
    for _ in range(4):
        assert PASS in state.legal_actions()
        state.apply(PASS)
    assert state.current_player == 0 and PASS not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply(PASS)
    state.apply(BIDS[SPADES])
    assert state.observation(1).trump is SPADES and state.observation(1).playing_team == 0


def test_preset_2017() -> None:
    game = load_game("klaverjas(preset=2017,undertrump=forbid)")
    assert isinstance(game, KlaverjasGame)
    assert (game.undertrump, game.trump, game.deals, game.rules) == (
        "free",
        "random",
        1,
        "amsterdam",
    )
    assert load_game(str(game)) == game
    for seed in range(6):
        result = play_match(str(game), ["random"] * 4, seed)
        chosen = next(e for e in result.events if isinstance(e, TrumpChosen))
        assert chosen.chooser == -1 and chosen.playing == 0
        first = result.transcript[0]
        assert first.seat == 2  # South leads


def test_target_ends_the_match_early() -> None:
    result = play_match("klaverjas(deals=50,target=300)", ["random"] * 4, 0)
    deals = [e for e in result.events if isinstance(e, DealScored)]
    assert max(deals[-1].totals) >= 300 and all(max(d.totals) < 300 for d in deals[:-1])


def test_reduced_decks_keep_the_top_trumps() -> None:
    assert " ".join(str(c) for c in load_game("klaverjas(ranks=3)").deck[:3]) == "9♣ J♣ A♣"
    assert " ".join(str(c) for c in load_game("klaverjas(ranks=4)").deck[:4]) == "9♣ 10♣ J♣ A♣"
    assert len(load_game("klaverjas").deck) == 32


# --- actions as text, illegal actions ------------------------------------------------------


def test_actions_round_trip() -> None:
    game = load_game("klaverjas")
    for action in [*game.deck, *BIDS.values(), PASS]:
        assert game.parse_action(game.action_to_string(action)) == action
    assert game.parse_action("play J♥") == Card.parse("J♥")
    assert game.parse_action("BH") == Card.parse("J♥")  # Dutch: boer of hearts
    assert game.parse_action("jh") == Card.parse("J♥")
    assert game.parse_action("trump harten") == BIDS[HEARTS]
    assert game.parse_action(" pass ") == PASS


@pytest.mark.parametrize("text", ["", "trump", "trump x", "play", "J♥ Q♥", "ZZ", "pass on"])
def test_bad_action_text_is_an_input_error(text: str) -> None:
    with pytest.raises(InputError, match="expected"):
        load_game("klaverjas").parse_action(text)


def test_an_illegal_card_says_why_and_changes_nothing() -> None:
    result = play_match("klaverjas(deals=1)", ["random"] * 4, 11)
    game = load_game("klaverjas(deals=1)")
    found = 0
    state = game.new_initial_state()
    assert isinstance(state, KlaverjasState)
    for action in result.history:
        if state.current_player >= 0 and isinstance(action, Card):
            hand = state.hands()[state.current_player]
            for card in hand:
                if card not in state.legal_actions():
                    before = state.to_json()
                    with pytest.raises(IllegalActionError, match="you must"):
                        state.apply(card)
                    assert state.to_json() == before
                    found += 1
        state.apply(action)
    assert found > 0 and state.current_player == TERMINAL


def test_views_show_the_table() -> None:
    result = play_match("klaverjas(deals=1)", ["random"] * 4, 5)
    state = replay("klaverjas(deals=1)", result.history[:40])
    view = state.observation(1)
    data = view.to_dict(include_log=False)
    assert data["trump"] is not None and len(data["hand"]) == len(view.hand)
    assert view.private_items() == frozenset(view.hand)
    assert sum(data["tricks"]) == 1 and data["last_trick"] is not None
