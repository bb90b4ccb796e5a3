"""The knowledge a game builds step by step equals knowledge built from scratch.

In play the engine reuses what it worked out before: the public facts are folded one
announcement at a time, a seat's reduced problem starts from the public part reduced once
per public state, and solves are shared through memos across seats, decisions and games.
At every step of seeded games of every card game, for every seat, the knowledge the
seat's view gives must answer as a `CardKnowledge` made anew from the same public facts
and private ones, with every memo of the engine emptied first: the same possible holders,
known holders and number of consistent deals.
"""

from __future__ import annotations

import pytest

from epigames.cards import CardKnowledge, blocks, counting, feasibility, knowledge
from epigames.games import Match
from epigames.games.core import CHANCE, TERMINAL

#: Small seeded settings of every card game, each with strategies that read knowledge (so
#: the engine's memos are warm from play, as in a tournament) and a few seeds.
CASES = [
    ("kwartet(players=3,kinds=4,ask_own=true)", ("greedy", "silent", "expert"), range(4)),
    ("kwartet(players=4,kinds=5,ask_own=false)", ("owner", "defensive", "aggressive", "mixed"),
     range(3)),
    ("klaverjas", ("tactics",) * 4, range(1)),
    ("kemps", ("blocking", "blocking", "greedy"), range(2)),
    ("sevens", ("random",) * 4, range(2)),
]  # fmt: skip


def _answers(k: CardKnowledge) -> tuple[object, ...]:
    return k.possible_masks(), k.known_holders(), k.worlds_count()


def _scratch(k: CardKnowledge) -> tuple[object, ...]:
    """`_answers` of the same facts in a new `CardKnowledge`, solved with every memo of
    the engine empty; the memos are put back after, so play goes on with them warm."""
    memos = [
        *knowledge.memos(),
        blocks._RAW,
        blocks._PATTERNS,
        feasibility._VALID,
        counting._SHAPES,
    ]
    kept = [dict(memo) for memo in memos]
    for memo in memos:
        memo.clear()
    try:
        fresh = CardKnowledge(k.public, k.agent, k.hand, k.seen_holds, k.seen_lacks, k.not_all)
        return _answers(fresh)
    finally:
        for memo, entries in zip(memos, kept, strict=True):
            memo.clear()
            memo.update(entries)


@pytest.mark.parametrize(("game", "lineup", "seeds"), CASES, ids=[c[0] for c in CASES])
def test_incremental_knowledge_equals_scratch(
    game: str, lineup: tuple[str, ...], seeds: range
) -> None:
    checked = 0
    for seed in seeds:
        match = Match(game, lineup, seed)
        state = match.state
        while state.current_player != TERMINAL:
            if state.current_player != CHANCE:
                for seat in range(len(lineup)):
                    view = state.observation(seat)
                    try:
                        got = view.knowledge
                    except ValueError:
                        continue  # no card knowledge before the deal is over
                    assert isinstance(got, CardKnowledge)
                    incremental = _answers(got)
                    assert incremental == _scratch(got), (game, seed, seat)
                    checked += 1
            match.step_action()
    assert checked > 20
