"""Seeded Klaverjas matches of every strategy, unchanged: a guard for speed work.

The golden files (`tests/games/test_golden.py`) keep only `random` line-ups. Here every
strategy plays seeded matches in several settings, and one digest per line-up covers the
whole `MatchResult` (events, history, every action and thought text: `digest()`) plus
each thought's named cards and concluded facts. The expected digests were computed
before the hot paths (`play.py`, `rules.py`, `records.py`, the tactics, the card
engine) were optimised; an optimisation must not move them.

The `mc` digests were recomputed after `mc` itself changed on purpose (its new rollouts,
commit 51843d0), with the card engine and rules as they were before the optimisation and
as they are after: the same digests.

When a change of behaviour is intended, print the new digests and review why they moved:

    python -m tests.games.klaverjas.test_trace
"""

from __future__ import annotations

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
        "be9b9114faed1471577b3913c4e62757cfbb564052e726bf79b9cfe1c045cd51",
    ),
    (
        PRESET,
        ("tactics2017",) * 4,
        40,
        "5c84b45319afd6a868519c2d13aa28fedced0f00ce552422279fe782cc4539ee",
    ),
    (
        PRESET,
        ("tactics", "tactics2017", "random", "tactics"),
        20,
        "a40d6872e2d946833cea6357d3088ac1b09dcab13b9cc1ef64dbd13e29ffd050",
    ),
    (
        DEFAULT,
        ("tactics",) * 4,
        2,
        "93338520a9fd3dd466fd0c0aac9ffd0a42cb96cc56768644a4656aa265be5216",
    ),
    (
        DEFAULT,
        ("tactics2017", "tactics", "tactics2017", "tactics"),
        2,
        "114dee55775e56762d90a37beb6d320a77313716d57214115be5a19b6a0c887b",
    ),
    (
        BIDDING,
        ("tactics",) * 4,
        8,
        "9cbe299d351cc92e3fe1e450955c8e5ff35ff054350accc4abd06aca88ebdfca",
    ),
    (
        BIDDING,
        ("tactics2017", "random", "tactics", "random"),
        8,
        "ef36c282d3f957e84c4e1242808e5a44e67cf532d2f63126dcb2cd7178640974",
    ),
    (
        SMALL,
        ("tactics",) * 4,
        8,
        "4627865a6243399bb90d5320a90f6862a658bcc5b2d57c03f96c5538bf04c7bc",
    ),
    (
        SMALL,
        ("tactics2017",) * 4,
        8,
        "859f21d37501cf372615c267b29db77a73fc1faac515a3db3084efd12a4d45b9",
    ),
    (
        ELDEST,
        ("tactics", "random", "tactics2017", "random"),
        6,
        "a6b14f0f632cbe29a375b6632f5803ef71bf68f21a7e77501d6b474e913b2903",
    ),
    (PRESET, ("mc",) * 4, 2, "74d0afa7b60cf67721f1850db707a66122358ef5352f8e43b428e77881147c71"),
    (
        BIDDING,
        ("mc", "tactics", "mc", "tactics2017"),
        1,
        "9e123fb953854be033b7f5054a99e6f55d67f27afbfc325bd9b713cf986540c4",
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
    other = MatchResult(**{**_fields(result), "transcript": (*result.transcript[:-1], changed)})
    assert entry.thought.names
    assert result_trace(other) != result_trace(result)


def _fields(result: MatchResult) -> dict[str, object]:
    return {name: getattr(result, name) for name in MatchResult.__slots__}


if __name__ == "__main__":
    for game, lineup, seeds, _ in CASES:
        print(f"{key(game, lineup, seeds)}: {trace(game, lineup, seeds)}")
