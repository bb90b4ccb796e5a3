"""The report's strategies (greedy, kbgreedy, blocking) and their thoughts."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from epigames.cards import Card, Rank
from epigames.games import play_match
from epigames.games.kemps import DONE, Swap
from epigames.games.kemps.knowledge import elsewhere_of
from epigames.games.kemps.strategies import planner
from epigames.games.kemps.strategies.greedy import do_not_collect, plan_turn, seed_knowledge
from tests.games.kemps.test_rules import cards, draw, start


def test_greedy_plays_the_report_s_first_example() -> None:
    """The report's Table 1 (cards 2 to 6): 5s, then 6s, then a Kemps of 4s."""
    deal = "6♥ 5♦ 3♦ 3♣ 4♠ 6♣  2♥ 5♥ 4♥ 5♣  5♠ 6♦ 2♠ 4♣  2♦ 4♦ 2♣ 3♥"
    state = start("kemps(ranks=5)", cards(deal))
    plan = plan_turn(state.observation(0), random.Random(0), False, False, False)
    assert plan.collect == (Rank.FIVE,)
    assert [(s.slot, s.card in cards("2♥ 4♥")) for s in plan.swaps] == [(1, True)]
    state.apply(Swap(1, Card.parse("4♥")))  # the report's choice of the two
    state.apply(DONE)
    plan = plan_turn(state.observation(1), random.Random(0), False, False, False)
    assert plan.collect == (Rank.SIX,)
    assert {s.slot for s in plan.swaps} == {0, 5}
    state.apply(Swap(0, Card.parse("2♠")))
    state.apply(Swap(5, Card.parse("4♣")))
    state.apply(DONE)
    view = state.observation(2)
    assert view.table == tuple(cards("2♠ 4♥ 3♦ 3♣ 4♠ 4♣"))
    plan = plan_turn(view, random.Random(0), False, False, False)
    assert plan.collect == (Rank.FOUR,) and len(plan.swaps) == 3
    for swap in plan.swaps:
        state.apply(swap)
    state.apply(DONE)
    assert state.returns() == (0, 0, 1)
    assert "I collect 4s" in str(plan)


def test_kbgreedy_waits_while_every_rank_may_be_in_another_hand() -> None:
    """The report's Table 2: nobody moves at first, every rank's cards may be elsewhere."""
    deal = "6♥ 5♦ 3♦ 3♣ 4♠ 6♣  2♥ 5♥ 4♥ 5♣  5♠ 6♦ 2♠ 4♣  2♦ 4♦ 2♣ 3♥"
    state = start("kemps(ranks=5)", cards(deal))
    plan = plan_turn(state.observation(0), random.Random(0), True, False, False)
    assert plan.swaps == () and plan.collect == ()
    assert str(plan).startswith("I avoid 2s, 5s, 4s, 6s, 3s: others may hold or collect them")


def test_do_not_collect_the_program_s_list_and_the_sound_one() -> None:
    deal = "6♥ 5♦ 3♦ 3♣ 4♠ 6♣  2♥ 5♥ 4♥ 5♣  5♠ 6♦ 2♠ 4♣  2♦ 4♦ 2♣ 3♥"
    state = start("kemps(ranks=5)", cards(deal))
    state.apply(Swap(1, Card.parse("4♥")))  # South takes 5♦
    state.apply(Swap(0, Card.parse("5♣")))  # … and 6♥, putting down a 5
    view = state.observation(1)
    # The program forgets the 5s when South puts one down, though South holds two.
    assert do_not_collect(view, seed_compat=True) == {Rank.SIX}
    assert do_not_collect(view, seed_compat=False) == {Rank.FIVE, Rank.SIX}


@dataclass
class FakeKnowledge:
    masks: tuple[int, ...]

    def possible_masks(self) -> tuple[int, ...]:
        return self.masks


@dataclass(frozen=True)
class FakeGame:
    players: int = 2


@dataclass
class FakeView:
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    knowledge: FakeKnowledge
    seat: int = 0
    kemps_game: FakeGame = field(default_factory=FakeGame)

    def elsewhere_cards(self) -> tuple[int, int]:
        return elsewhere_of(self.knowledge.possible_masks(), self.seat, self.kemps_game.players)


@dataclass
class FakeSeedKnowledge:
    do_not_collect: set[Rank]
    maybe: set[Rank]

    def may_be_elsewhere(self, rank: Rank) -> bool:
        return rank in self.maybe


@pytest.mark.parametrize("seed_compat", [True, False])
def test_blocking_takes_cards_others_may_collect(seed_compat: bool) -> None:
    # Nothing on the do-not-collect list; 9s and 5s may be in other hands: a 9 and a 5
    # (layout bits 4 * (rank - 2), the deck listed rank by rank) that the other seat and
    # this one may both hold. Given as the knowledge's answer, not by patching the planner,
    # which may be compiled (`epigames.native`): a compiled call ignores a patched name.
    maybe = {Rank.NINE, Rank.FIVE}
    both = 1 << 4 * (9 - 2) | 1 << 4 * (5 - 2)
    view = FakeView(
        tuple(cards("7♣ 7♦ 8♣ 3♣")),
        tuple(cards("7♥ 8♦ 9♠ K♣ 5♦ Q♥")),
        FakeKnowledge((both, both)),
    )
    assert planner._elsewhere_ranks(view) == (0, planner._rank_bits(maybe))  # type: ignore[arg-type]
    seed_kb = FakeSeedKnowledge(set(), maybe) if seed_compat else None
    plan = plan_turn(view, random.Random(1), True, True, seed_compat, seed_kb)  # type: ignore[arg-type]
    assert plan.collect == (Rank.SEVEN,)
    assert plan.swaps[0].slot == 0  # 7♥ first
    if seed_compat:
        # The program's bug: a rank others may hold is never blocked, only listed ones.
        assert len(plan.swaps) == 1 and plan.blocked == ()
    else:
        assert [s.slot for s in plan.swaps] == [0, 2] and plan.blocked == (Card.parse("9♠"),)
        assert "I block 9♠" in str(plan)


@pytest.mark.parametrize("name", ["random", "greedy", "kbgreedy", "blocking", "blocking2023"])
def test_every_decision_has_a_thought_and_seeds_repeat(name: str) -> None:
    spec = "kemps(players=2,table=4,ranks=6,max_turns=200)"
    result = play_match(spec, [name, "greedy"], 3)
    assert result.digest() == play_match(spec, [name, "greedy"], 3).digest()
    mine = [e for e in result.transcript if e.seat == 0]
    assert mine and all(str(e.thought) for e in mine)


def test_the_program_s_knowledge_base_keeps_its_faults() -> None:
    """The `2023` strategies decide on the program's knowledge base, faults included."""
    state = start("kemps(ranks=7)", cards("2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 2♦ 3♦ 4♦ 5♦"))
    state.apply(Swap(0, Card.parse("5♦")))  # South takes 2♣
    for _ in range(4):
        state.apply(DONE)
    draw(state)  # three idle turns: a new table
    view = state.observation(1)
    taken = Card.parse("2♣")
    assert view.knowledge.holder(taken) == 0  # West knows South has it
    assert seed_knowledge(view).others[taken] == 0  # the program forgot it
    # After a Kemps the program marks the old four cards as its own, not the new hand.
    state = start("kemps(ranks=7)", cards("2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 8♦ 8♥ 8♠"))
    state.apply(DONE)
    draw(state, cards("6♦ 6♥ 6♠ 7♦"))
    view = state.observation(0)
    assert seed_knowledge(view).may_be_elsewhere(Rank.SIX)
    assert view.knowledge.holder(Card.parse("6♦")) == 0
