"""Blufpoker knowledge: probability tables vs enumeration, knowledge vs belief, the Kripke model."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from epigames.errors import InputError
from epigames.games.blufpoker import ROLLS, Roll, UndefinedBeliefError
from epigames.games.blufpoker.dice import multisets
from epigames.games.blufpoker.tables import (
    CONSISTENT,
    P_AT_LEAST,
    P_WORLD,
    PATTERNS,
    exact_at_least,
    exact_world,
    poker_keep,
    poker_odds,
)
from epigames.logic import parse
from tests.games.blufpoker.helpers import BLUFF, scripted

ORDERED = list(itertools.product(range(1, 7), repeat=3))


def enumerate_worlds(visible: tuple[int, ...]) -> dict[Roll, Fraction]:
    """Brute force: of the 216 ordered throws, those whose first dice are `visible`."""
    k = len(visible)
    matching = [t for t in ORDERED if sorted(t[:k]) == sorted(visible)]
    counts = Counter(Roll.of(t) for t in matching)
    return {roll: Fraction(n, len(matching)) for roll, n in counts.items()}


@pytest.mark.parametrize("visible", PATTERNS)
def test_tables_equal_enumeration_of_the_216_throws(visible: tuple[int, ...]) -> None:
    truth = enumerate_worlds(visible)
    for roll in ROLLS:
        assert exact_world(visible, roll.rank) == truth.get(roll, 0)
        assert P_WORLD[visible][roll.rank] == pytest.approx(float(truth.get(roll, 0)), abs=1e-15)
        tail = sum((p for r, p in truth.items() if r >= roll), Fraction(0))
        assert exact_at_least(visible, roll.rank) == tail
        assert P_AT_LEAST[visible][roll.rank] == pytest.approx(float(tail), abs=1e-15)
    assert {ROLLS[r] for r in CONSISTENT[visible]} == set(truth)


def test_world_counts_match_the_report() -> None:
    assert len(CONSISTENT[()]) == 56 and len(CONSISTENT[(4,)]) == 21
    assert len(CONSISTENT[(4, 3)]) == 6 and P_WORLD[(4, 3)][Roll(4, 3, 1).rank] == 1 / 6
    assert exact_world((), Roll(1, 1, 1).rank) == Fraction(1, 216)
    assert exact_world((), Roll(2, 1, 1).rank) == Fraction(3, 216)
    assert exact_world((), Roll(6, 5, 4).rank) == Fraction(6, 216)
    assert exact_world((5,), Roll(5, 4, 1).rank) == Fraction(2, 36)


def test_poker_phase_odds_by_enumeration_of_the_procedure() -> None:
    assert poker_keep((5, 5, 2), 4) == (5, 5) and poker_keep((6, 5, 1), 4) == (6,)
    assert poker_keep((3, 2, 1), 4) == () and poker_keep((6, 3, 3), 4) == (6,)
    for face in range(1, 7):
        beat, equal, fail = poker_odds(face)
        assert beat + equal + fail == 1
    assert poker_odds(6)[0] == 0  # nothing beats 666


def test_knowledge_and_belief_are_kept_apart() -> None:
    before = scripted(BLUFF.rsplit(";", 1)[0])  # Bob stopped with 6 5 out, no bid yet
    after = scripted(BLUFF)
    cas_before, cas = before.observation(2).knowledge, after.observation(2).knowledge
    assert cas.claim == Roll(6, 5, 4) and cas.known is None
    assert cas.worlds() == cas_before.worlds()  # a bid is a claim: it removes no world
    assert [str(w) for w in cas.worlds()] == ["651", "652", "653", "654", "655", "665"]
    assert cas.knows_at_least(Roll(6, 5, 1)) and not cas.knows_at_least(Roll(6, 5, 4))
    assert cas.exact_at_least(Roll(6, 5, 4)) == Fraction(1, 2)
    bob = after.observation(1).knowledge
    assert bob.known == Roll(6, 5, 1) and bob.knows_below(Roll(6, 5, 4))
    ann = after.observation(0).knowledge
    assert ann.known is None and ann.worlds() == cas.worlds()  # Ann's old look is stale


def test_an_opening_bid_is_knowledge_for_everyone() -> None:
    state = scripted("throw 6 5 3")
    for seat in range(3):
        assert state.observation(seat).knowledge.worlds() == (Roll(6, 5, 3),)


def test_no_probabilities_while_the_cup_is_rolled() -> None:
    # Ann's opening 653 is public. Bob rolling one die keeps two of 6 5 3: 6 rolls each for
    # 65x, 63x and 53x, less the 653 counted three times. Rolling all three allows any roll.
    cas = scripted("throw 6 5 3; believe; roll 3").observation(2).knowledge
    assert len(cas.worlds()) == 3 * 6 - 2 and Roll(6, 6, 6) not in cas.worlds()
    assert cas.knows(parse("~cup_666")) and not cas.knows(parse("~cup_665"))
    assert len(scripted("throw 6 5 3; believe; roll 6 5 3").observation(2).knowledge.worlds()) == 56
    with pytest.raises(UndefinedBeliefError):
        cas.p_at_least(Roll(6, 5, 4))


def test_kripke_picture_from_a_seat_and_a_spectator() -> None:
    state = scripted(BLUFF)
    assert state.picture_subjects() == ["cup"]
    cas = state.picture("cup", 2)
    assert cas.true_world is None and cas.model.size == 6
    assert set(cas.probabilities) == {"Ann", "Cas"}  # Bob's look is hidden from Cas
    assert sum(cas.probabilities["Cas"].values()) == pytest.approx(1.0)
    assert cas.model.valid(parse("K_Cas atleast_651 & K_Bob atleast_651"))
    assert cas.model.valid(parse("~K_Cas atleast_654 & (K_Bob atleast_654 | K_Bob ~atleast_654)"))
    spectator = state.picture("cup")
    assert spectator.true_world == "651" and spectator.probabilities["Bob"]["651"] == 1.0
    assert spectator.model.holds(parse("K_Bob ~atleast_654 & ~K_Cas ~atleast_654"))
    assert state.picture("cup", 1).true_world == "651"
    with pytest.raises(InputError, match="cup"):
        state.picture("dice", 0)


def test_every_multiset_is_a_visible_pattern() -> None:
    assert len(PATTERNS) == sum(len(multisets(k)) for k in range(4)) == 84


def test_open_poker_dice_override_the_bidders_old_look_under_the_cup() -> None:
    """Regression: the poker bidder must not keep 'knowing' its old cup once dice are open."""
    from epigames.games import load_game, replay

    game = load_game("blufpoker")
    moves = ["throw 5 4 2", "call", "throw 5 5 5", "believe", "throw 3 1 1"]
    state = replay(game, [game.parse_action(m) for m in moves])
    known = {state.observation(seat).knowledge.known for seat in range(3)}
    assert known == {Roll.parse("311")}
