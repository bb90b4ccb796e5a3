"""The knowledge trace of seeded games is unchanged (see `tests.golden.knowledge_trace`).

Every seat's knowledge answers (card holders, possible holders, deals, probabilities; the
cup's worlds and their probabilities) at every decision of 1,000 seeded Kwartet games and
1,000 Blufpoker games, hashed per block of 100 seeds: a guard for the engines' speed work.
"""

from __future__ import annotations

import pytest

from epigames.games import Match
from tests.golden import knowledge_trace as kt

BLOCKS = [
    (game, lineup, start) for game, lineup, seeds in kt.CASES for start in range(0, seeds, kt.BLOCK)
]


@pytest.fixture(scope="module")
def kept() -> dict[str, list[str]]:
    return kt.load()


@pytest.mark.parametrize(
    ("game", "lineup", "start"),
    BLOCKS,
    ids=[f"{kt.key(g, lineup)} seeds {s}+" for g, lineup, s in BLOCKS],
)
def test_knowledge_answers_are_unchanged(
    kept: dict[str, list[str]], game: str, lineup: tuple[str, ...], start: int
) -> None:
    expected = kept[kt.key(game, lineup)][start // kt.BLOCK]
    assert kt.block_digest(game, lineup, start) == expected, (
        f"what a seat knows changed in {game} with {','.join(lineup)}, seeds {start} to "
        f"{start + kt.BLOCK - 1}; if intended, run: python -m tests.golden.knowledge_trace"
    )


def test_the_trace_sees_a_probability() -> None:
    # A trace that left the probabilities out would miss a counting bug; this one does not.
    game, lineup, _ = kt.CASES[0]
    match = Match(game, lineup, 0)
    match.run_chance()
    knowledge = match.state.observation(0).knowledge
    fine = kt.card_answers(knowledge)
    card = knowledge.layout.cards[0]
    assert knowledge.probability(card, 1) not in (0, 1)
    # The probabilities are kept with the solved problem the seats share: spoil them there.
    solved = knowledge._solved()
    solved._matrix = (knowledge._reduced().known, knowledge.marginals() * 0.5)
    try:
        assert kt.card_answers(knowledge) != fine
    finally:
        solved._matrix = None
