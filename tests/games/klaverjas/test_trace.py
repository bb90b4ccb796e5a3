"""Seeded Klaverjas matches of every strategy, unchanged: a guard for speed work.

The golden files (`tests/games/test_golden.py`) keep only `random` line-ups. Here every
strategy plays seeded matches in several settings, and one digest per line-up covers the
whole `MatchResult` (events, history, every action and thought text: `digest()`) plus
each thought's concluded facts. The expected digests were computed before the hot paths
(`play.py`, `rules.py`, `records.py`, the tactics, the card engine) were optimised; an
optimisation must not move them.

The `mc` digests were recomputed after `mc` itself changed on purpose (its new rollouts,
commit 51843d0), with the card engine and rules as they were before the optimisation and
as they are after: the same digests. They moved again when `mc` began to weigh its
sampled deals by how well they explain the play and, its rollouts compiled, to sample
more deals per decision (the compiled rollouts alone, at the old budget, played the
same cards as the old ones).

The `tactics` and `tactics2017` digests were recomputed when their thoughts began to
list the card they say a later player may hold ("I cannot beat both 9♥ and A♥") in
`Thought.names`; the cards played did not change. They were recomputed again when
`tactics` began to ask the exact knowledge for probabilities (`KnowingPosition`: it
gives points to its partner's tricks and leads to its partner's likely trump), which
changes its cards on purpose; the `tactics2017`, `random` and `mc`-only digests stayed
the same. All were recomputed when `Thought.names` was removed (the web app shows a
thought only to its thinker and to spectators), so the trace no longer lists named
cards; the match digests and the concluded facts stayed the same. All moved again with
transcript format 3 (issue 39), whose events say more in their JSON (Klaverjas's trump
event calls its suit `trump` and names the first trick's `leader`, a trick lists
`played_by`, the last trick's text names its 10): the history, every decision, thought,
concluded fact and return stayed the same (checked by digesting the matches without
their events before and after).

When a change of behaviour is intended, print the new digests and review why they moved:

    python -m tests.games.klaverjas.test_trace
"""

from __future__ import annotations

import dataclasses
import hashlib

import pytest

from epigames.cards import Card, Holds
from epigames.games import play_match
from epigames.games.match import MatchResult

PRESET = "klaverjas(preset=2017)"
DEFAULT = "klaverjas"
BIDDING = "klaverjas(rules=rotterdam,undertrump=force,trump=bidding,deals=2)"
SMALL = "klaverjas(ranks=4,undertrump=free,trump=random,deals=3,four_kind=false)"
ELDEST = "klaverjas(undertrump=free,deals=2)"

#: (game, line-up, seeds, expected digest): the 2017 workload with many seeds, full
#: matches with a few.
CASES: tuple[tuple[str, tuple[str, ...], int, str], ...] = (
    (
        PRESET,
        ("random",) * 4,
        40,
        "862a138ac6450b180e208bf56ababf0a6552cedeb70898fc1384e2901f2ff893",
    ),
    (
        PRESET,
        ("tactics",) * 4,
        40,
        "7cb4d7a9e7be2671bbdb6f008f05629880bbd9ace7d4765913fca08012345c42",
    ),
    (
        PRESET,
        ("tactics2017",) * 4,
        40,
        "1493fa55d0f59034174f8cb76136b66b0ae0c71c6d046cdc918b41727acd7b5b",
    ),
    (
        PRESET,
        ("tactics", "tactics2017", "random", "tactics"),
        20,
        "5a75adec4493a5fd679b5b0ce24434c68a6df71564bb0f72e7178492f1e89af7",
    ),
    (
        DEFAULT,
        ("tactics",) * 4,
        2,
        "e6d67b29d60e7d1e251f4699eb0d6e1943f348b1def5673dc4eadb1a05dab4b9",
    ),
    (
        DEFAULT,
        ("tactics2017", "tactics", "tactics2017", "tactics"),
        2,
        "a3d209f2c0346f4e9e8a518b3ad720431df9acbf3ccce8e2578078ebf7fe82f7",
    ),
    (
        BIDDING,
        ("tactics",) * 4,
        8,
        "e3f2d831fe0e628dc9c25be28a106bb1db2216e00defca4e5b041509ca53a44f",
    ),
    (
        BIDDING,
        ("tactics2017", "random", "tactics", "random"),
        8,
        "85395486795aec0ea9a16dcf4e598c3d2909b3006cd798c1641fb7cc66815176",
    ),
    (
        SMALL,
        ("tactics",) * 4,
        8,
        "8d3f009951fdc42382b862db3fa233fd750d007ace67ebee77e979e3c46f3d8a",
    ),
    (
        SMALL,
        ("tactics2017",) * 4,
        8,
        "b10d85fbd08979b024f147dad95ca4868f0cd89e9d7bbcb6285a7c581a90f9bd",
    ),
    (
        ELDEST,
        ("tactics", "random", "tactics2017", "random"),
        6,
        "ebea38c4dbd65887b3695087986e970154e7aa7132d246285807ee3b457a4f20",
    ),
    (PRESET, ("mc",) * 4, 2, "f5c14e19db1b8a9c68ba7f3b005ee1a48be45d0779939f41d513252d002da483"),
    (
        BIDDING,
        ("mc", "tactics", "mc", "tactics2017"),
        1,
        "d83e4a6c7187645c03ba8c35d91b5060b17e879bfcbdb9c245f6d9a79fda894e",
    ),
)


def key(game: str, lineup: tuple[str, ...], seeds: int) -> str:
    return f"{game} {','.join(lineup)} x{seeds}"


def result_trace(result: MatchResult) -> str:
    """The match's digest, then each decision's concluded facts."""
    parts = [result.digest()]
    for entry in result.transcript:
        parts.append(" ".join(str(f) for f in entry.thought.concluded))
    return "\n".join(parts)


def trace(game: str, lineup: tuple[str, ...], seeds: int) -> str:
    """SHA-256 over the traces of seeds 0..seeds-1."""
    h = hashlib.sha256()
    for seed in range(seeds):
        h.update(result_trace(play_match(game, lineup, seed)).encode())
        h.update(b"\n--\n")
    return h.hexdigest()


@pytest.mark.parametrize(
    ("game", "lineup", "seeds", "expected"), CASES, ids=[key(*c[:3]) for c in CASES]
)
def test_seeded_matches_are_unchanged(
    game: str, lineup: tuple[str, ...], seeds: int, expected: str
) -> None:
    assert trace(game, lineup, seeds) == expected


def test_the_trace_sees_thoughts() -> None:
    # The digest would miss a change of what a thought concluded; the trace must not.
    result = play_match(PRESET, ("tactics",) * 4, 0)
    entry = result.transcript[-1]
    assert isinstance(entry.action, Card)
    concluded = (*entry.thought.concluded, Holds(entry.seat, entry.action))
    changed = entry._replace(thought=dataclasses.replace(entry.thought, concluded=concluded))
    other = dataclasses.replace(result, transcript=(*result.transcript[:-1], changed))
    assert other.digest() == result.digest()
    assert result_trace(other) != result_trace(result)


if __name__ == "__main__":
    for game, lineup, seeds, _ in CASES:
        print(f"{key(game, lineup, seeds)}: {trace(game, lineup, seeds)}")
