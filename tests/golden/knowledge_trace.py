"""The knowledge trace: every seat's knowledge answers at every decision of seeded games.

For Kwartet (both variants: asking for own cards or not) and Blufpoker, seeds 0..N-1 of
small settings are played with knowledge-reading line-ups; before each decision, every
seat's view is asked what the engine answers: for Kwartet each card's known holder,
possible holders, the number of consistent deals and every probability (as the float
rounding of the exact fraction); for Blufpoker the worlds the seat considers possible,
the roll it knows and, once defined, the probability of every world. One SHA-256 per
block of `BLOCK` seeds is kept in `tests/golden/knowledge/trace.json` (a folder of its
own: `test_golden` owns every `*.json` beside this module), computed with the
engine as it was before the speed work of issue 15; an optimisation must not move them.

When a change of what the engines answer is intended, regenerate and review:

    python -m tests.golden.knowledge_trace
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from epigames.cards import CardKnowledge
from epigames.games import Match
from epigames.games.blufpoker.dice import ROLLS
from epigames.games.blufpoker.knowledge import CupKnowledge

GOLDEN = Path(__file__).with_name("knowledge") / "trace.json"
BLOCK = 100
#: (game, line-up, seeds) per case: small settings, strategies that read the knowledge;
#: 1,000 games per game (Kwartet's two variants share them).
CASES: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("kwartet(players=3,kinds=4,ask_own=true)", ("greedy", "silent", "mixed"), 500),
    ("kwartet(players=3,kinds=4,ask_own=false)", ("owner", "defensive", "aggressive"), 500),
    (
        "blufpoker(players=3,penalties=1)",
        ("random/truthful/random", "greedy/overbid/believe", "knowledge"),
        500,
    ),
    ("blufpoker(players=2,penalties=1)", ("knowledge", "knowledge"), 500),
)


def key(game: str, lineup: tuple[str, ...]) -> str:
    return f"{game} {','.join(lineup)}"


def card_answers(knowledge: CardKnowledge) -> str:
    """Known holders, possible holders, deals and probabilities of one seat's card knowledge."""
    deals = knowledge.worlds_count()
    marginals = knowledge.marginals()
    return (
        f"{knowledge.known_holders()}|{knowledge.possible_masks()}|{deals}|"
        f"{hashlib.sha256(marginals.tobytes()).hexdigest()[:16]}"
    )


def cup_answers(knowledge: CupKnowledge) -> str:
    """Possible worlds, the known roll and (once defined) every world's probability."""
    ranks = knowledge.world_ranks()
    if knowledge.rolling and knowledge.known is None:
        chances = "rolling"
    else:
        chances = ",".join(repr(knowledge.p_world(ROLLS[r])) for r in ranks)
    return f"{ranks}|{knowledge.known}|{knowledge.claim}|{chances}"


def game_trace(game: str, lineup: tuple[str, ...], seed: int) -> str:
    """One line per decision: every seat's answers, then the action taken."""
    match = Match(game, lineup, seed)
    state = match.state
    lines = []
    while not match.over:
        match.run_chance()
        if match.over:
            break
        seats = []
        for seat in range(len(lineup)):
            knowledge = state.observation(seat).knowledge
            if isinstance(knowledge, CupKnowledge):
                seats.append(cup_answers(knowledge))
            else:
                assert isinstance(knowledge, CardKnowledge)
                seats.append(card_answers(knowledge))
        match.step()
        lines.append(" ".join(seats) + f" -> {state.history[-1] if state.history else ''}")
    return "\n".join(lines)


def block_digest(game: str, lineup: tuple[str, ...], start: int) -> str:
    """SHA-256 of the traces of seeds `start` .. `start + BLOCK - 1`."""
    h = hashlib.sha256()
    for seed in range(start, start + BLOCK):
        h.update(game_trace(game, lineup, seed).encode())
        h.update(b"\n--\n")
    return h.hexdigest()


def load() -> dict[str, list[str]]:
    """The kept digests, per case key."""
    kept: dict[str, list[str]] = json.loads(GOLDEN.read_text())
    return kept


if __name__ == "__main__":
    GOLDEN.write_text(
        json.dumps(
            {
                key(g, lineup): [block_digest(g, lineup, s) for s in range(0, seeds, BLOCK)]
                for g, lineup, seeds in CASES
            },
            indent=1,
        )
        + "\n"
    )
    print(f"wrote {GOLDEN}")
