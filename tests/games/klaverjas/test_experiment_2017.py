"""The klaverjas-2017 experiment: its tournaments, its report and the false-claim count."""

from __future__ import annotations

import pytest

from epigames.tournament.experiments import experiment
from epigames.tournament.experiments.klaverjas_2017 import (
    PARTS,
    SUITE,
    Claims,
    Duplicate,
    claims_markdown,
    duplicate,
    false_claims,
    games_for,
    knowledge_markdown,
    tournament_configs,
    within_chance,
)


def test_suite_is_registered_with_three_tournaments() -> None:
    assert experiment("klaverjas-2017") is SUITE
    configs = tournament_configs(2000)
    assert [c.name for c in configs] == [
        "klaverjas-2017-preset",
        "klaverjas-2017-tactics",
        "klaverjas-2017-mc",
    ]
    assert configs[0].games == 2000 and configs[1].games == configs[2].games == 126
    assert games_for(PARTS[1], 10) == 2


def test_false_claims_counts_only_true_holders_ruled_out() -> None:
    claims = false_claims("tactics", 20)
    assert claims.deals == 20 and 0 <= claims.deals_with_false <= claims.false_claims
    # random players break the "he would have played lower" rule often.
    noisy = false_claims("random", 20)
    assert noisy.false_claims > 0
    text = claims_markdown([claims, noisy, Claims("x", 10, 5, 2)], "cmd")
    assert "| x | 10 | 5 | 500 | 20.0% |" in text and "Reproduce: `cmd`" in text


def test_duplicate_matches_cancel_the_cards() -> None:
    # The same strategy on both sides of the same deals: exactly even.
    even = duplicate("tactics2017", "tactics2017", 3)
    assert (even.mean, even.low, even.high, even.deals) == (0, 0, 0, 96)
    with pytest.raises(ValueError, match="unknown line-up 'tactic'"):
        duplicate("tactic", "tactics", 1)


def test_tactics_beats_tactics2017_in_duplicate_matches() -> None:
    # Fixed seeds, so a fixed outcome: what exact probabilities add to the report's rules
    # is well clear of zero even over 16 match pairs (512 deals).
    row = duplicate("tactics", "tactics2017", 16)
    assert row.low > 0, row
    text = knowledge_markdown([row, Duplicate("a", "b", 2, 1.0, -0.5, 2.5)], "cmd")
    assert "| a | b | 2 (64) | 1.0 (-0.5–2.5) |" in text and "Reproduce: `cmd`" in text


def test_the_seed_programs_mean_is_compared_with_both_runs_spread() -> None:
    # 20,000 deals, half width 1.0: the program's 2,000 deals spread about 3.2 more.
    assert within_chance(125.8, 1.0, 20_000, 128.1)
    assert not within_chance(125.8, 1.0, 20_000, 129.5)
    # At the report's size both spreads are ours: 3.1 each, 4.4 together.
    assert within_chance(62.5, 3.1, 2000, 66.8) and not within_chance(62.5, 3.1, 2000, 67.0)
