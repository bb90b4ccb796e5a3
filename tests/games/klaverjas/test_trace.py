"""Seeded Klaverjas matches of every strategy, unchanged: a guard for speed work.

The golden files (`tests/games/test_golden.py`) keep only `random` line-ups. Here every
strategy plays seeded matches in several settings, and one digest per line-up covers the
whole `MatchResult` (events, history, every action and thought text: `digest()`) plus
each thought's named cards and concluded facts. The expected digests were computed
before the hot paths (`play.py`, `rules.py`, `records.py`, the tactics, the card
engine) were optimised; an optimisation must not move them.

The `mc` digests were recomputed after `mc` itself changed on purpose (its new rollouts,
commit 51843d0), with the card engine and rules as they were before the optimisation and
as they are after: the same digests. They moved again when `mc` began to weigh its
sampled deals by how well they explain the play and, its rollouts compiled, to sample
more deals per decision (the compiled rollouts alone, at the old budget, played the
same cards as the old ones).

The `tactics` and `tactics2017` digests were recomputed when their thoughts began to
list the card they say a later player may hold ("I cannot beat both 9♥ and A♥") in
`Thought.names` (so the web app keeps them from seats that do not know where it is); the
cards played did not change. They were recomputed again when `tactics` began to ask
the exact knowledge for probabilities (`KnowingPosition`: it gives points to its
partner's tricks and leads to its partner's likely trump), which changes its cards on
purpose; the `tactics2017`, `random` and `mc`-only digests stayed the same.

When a change of behaviour is intended, print the new digests and review why they moved:

    python -m tests.games.klaverjas.test_trace
"""

from __future__ import annotations

import dataclasses
import hashlib

import pytest

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
        "7d13b15d9d9c8e565ba804d7e45c2d2c8e803af1d3b8ff4c2aade954bf34c8fe",
    ),
    (
        PRESET,
        ("tactics",) * 4,
        40,
        "a9196bb1239458e5c68129b3800d46349d5df5a66e7a3e77ffc463cd46c82a3e",
    ),
    (
        PRESET,
        ("tactics2017",) * 4,
        40,
        "1d32b1447a8a967801038dedcf59d235699ab7d217ccf9209283bc197382b160",
    ),
    (
        PRESET,
        ("tactics", "tactics2017", "random", "tactics"),
        20,
        "affaf19c549eb74e42f9b51ad4bab907e1b9ad5a574b49a28ce763e211e382bc",
    ),
    (
        DEFAULT,
        ("tactics",) * 4,
        2,
        "6de78456a84c3e1b4ed09abd0a4dfe5f04533b18a69066030c595b7f965f5c32",
    ),
    (
        DEFAULT,
        ("tactics2017", "tactics", "tactics2017", "tactics"),
        2,
        "a91f58cc74e69904681cc1493e4a47d633c925dd93d96cf241b88e1b80d8b55d",
    ),
    (
        BIDDING,
        ("tactics",) * 4,
        8,
        "73c893da43b542382f01ae59f4b0ea84066e19363ddf46118e0bf0c63a67ac33",
    ),
    (
        BIDDING,
        ("tactics2017", "random", "tactics", "random"),
        8,
        "43b03b4b97a704bfb92126f1e112bfce2c89365f2cd96adb9436774b5e3c6af5",
    ),
    (
        SMALL,
        ("tactics",) * 4,
        8,
        "ddc749c21bdb41f507572a43ad4a7c9ec5116ada8a87a81247ee77d96a965682",
    ),
    (
        SMALL,
        ("tactics2017",) * 4,
        8,
        "d8ac854644cc120cc2a28a6cb77262fe1893c77629f6bff2f37439fa4f121200",
    ),
    (
        ELDEST,
        ("tactics", "random", "tactics2017", "random"),
        6,
        "4ee2afd84370b39b24f2997a296d43a7219ecf531ca9daac990f755ce640224c",
    ),
    (PRESET, ("mc",) * 4, 2, "053a9867f47a6fd17ff53ef411a7c8323215a0eb0ee1f3320ba6bacabf6172cf"),
    (
        BIDDING,
        ("mc", "tactics", "mc", "tactics2017"),
        1,
        "745af0e42d086bcb5293dbcc44466dea803a26fe1b5926ea16cfc621441776a3",
    ),
)


def key(game: str, lineup: tuple[str, ...], seeds: int) -> str:
    return f"{game} {','.join(lineup)} x{seeds}"


def result_trace(result: MatchResult) -> str:
    """The match's digest, then each decision's named cards and concluded facts."""
    parts = [result.digest()]
    for entry in result.transcript:
        names = sorted(str(n) for n in entry.thought.names)
        concluded = [str(f) for f in entry.thought.concluded]
        parts.append(f"{' '.join(names)}|{' '.join(concluded)}")
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
    # The digest would miss a change of what a thought names; the trace must not.
    result = play_match(PRESET, ("tactics",) * 4, 0)
    entry = result.transcript[-1]
    changed = entry._replace(thought=entry.thought.__class__(entry.thought.text))
    other = dataclasses.replace(result, transcript=(*result.transcript[:-1], changed))
    assert entry.thought.names
    assert result_trace(other) != result_trace(result)


if __name__ == "__main__":
    for game, lineup, seeds, _ in CASES:
        print(f"{key(game, lineup, seeds)}: {trace(game, lineup, seeds)}")
