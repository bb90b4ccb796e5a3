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
cards; the match digests and the concluded facts stayed the same.

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
        "caf7ae197aa99a79c8831582c67292e311830ff2199d73b6d785b24a48960b30",
    ),
    (
        PRESET,
        ("tactics",) * 4,
        40,
        "2f69b8beb25ff86f984c0aefddd26f179ae2636caf50f854b13c286a42de6989",
    ),
    (
        PRESET,
        ("tactics2017",) * 4,
        40,
        "0df91d5cc925788cc5d6569832cfca4393dacafbe9ba984b1da231c5577c027d",
    ),
    (
        PRESET,
        ("tactics", "tactics2017", "random", "tactics"),
        20,
        "65c0025cd053c208bab40f6d46475141cca914d2cf240c95c7db54dfcf68e97a",
    ),
    (
        DEFAULT,
        ("tactics",) * 4,
        2,
        "2f643d7f599703e0abde801c0be898b44fcc9b26deb0a05e2d3eba501f8eca46",
    ),
    (
        DEFAULT,
        ("tactics2017", "tactics", "tactics2017", "tactics"),
        2,
        "417e7cf082a73912f2daa2ffd3bb5e8653376f45ab073d38ad8c7608fcb11036",
    ),
    (
        BIDDING,
        ("tactics",) * 4,
        8,
        "f11b50ed4738a6f54e310c25df718f1014ffe328b1be57cc7f972e31f56beb09",
    ),
    (
        BIDDING,
        ("tactics2017", "random", "tactics", "random"),
        8,
        "4730b6ff5e1708a322ff3ddbad9a96f62f549f4391480d3dad6d99c0023a2210",
    ),
    (
        SMALL,
        ("tactics",) * 4,
        8,
        "9bd456fdf8a247ecf257fbeddd82ca241754bde4d8df1b4cc397e2155eba6eed",
    ),
    (
        SMALL,
        ("tactics2017",) * 4,
        8,
        "cdf74f3b293a80317274ff82803ccb21c8ce0af41a6c42235a970058e704acde",
    ),
    (
        ELDEST,
        ("tactics", "random", "tactics2017", "random"),
        6,
        "3c2ccece85b78059800560e1bd3e0b2e1afe8fd48fd62687adaa2368ca7aed7f",
    ),
    (PRESET, ("mc",) * 4, 2, "5203a62a58bf9891dac929e451ccd0f2e5a78731d6c26290df920b4a9e76cb25"),
    (
        BIDDING,
        ("mc", "tactics", "mc", "tactics2017"),
        1,
        "59a0e1d33abf4f52a176c3c918b95d6397522a230181fe0a84ca5071da0da58f",
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
