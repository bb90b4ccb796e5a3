"""The REINFORCE learner of `epigames.adapters.reinforce`: its update, and a seeded run."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from epigames.adapters.reinforce import LinearPolicy, blocks, train, win_share


def test_a_rewarded_action_becomes_more_likely_and_a_punished_one_less() -> None:
    x = np.array([1.0, 0.0, 2.0])
    mask = np.array([1, 1, 0, 1])
    for reward, sign in ((1.0, 1), (-1.0, -1)):
        policy = LinearPolicy(3, 4, lr=0.5, rng=np.random.default_rng(0))
        before = policy.probabilities(x, mask)
        assert before[2] == 0 and before[[0, 1, 3]] == pytest.approx([1 / 3] * 3)
        policy.update([(x, 1, before.copy(), reward)])
        after = policy.probabilities(x, mask)
        assert sign * (after[1] - before[1]) > 0
        assert after[2] == 0 and after.sum() == pytest.approx(1.0)


def test_win_share_counts_a_shared_win_as_a_fraction_and_partners_together() -> None:
    assert win_share([2, 1, 2], ((0,), (1,), (2,)), 0) == 0.5
    assert win_share([1, 2, 0], ((0,), (1,), (2,)), 0) == 0.0
    assert win_share([90, 72, 90, 72], ((0, 2), (1, 3)), 0) == 1.0


def test_training_is_seeded_and_evaluates_with_fixed_weights() -> None:
    args = ("kwartet(players=3,kinds=3)", "knowledge", 6, ["greedy", "silent"], 3)
    done = train(*args, evaluation=4)
    again = train(*args, evaluation=4)
    assert len(done.returns) == len(done.wins) == 6 and len(done.eval_wins) == 4
    assert (done.returns, done.eval_wins) == (again.returns, again.eval_wins)
    assert np.array_equal(done.policy.weights, again.policy.weights)
    assert all(0 <= w <= 1 for w in done.wins + done.eval_wins)
    x, means = blocks(done.returns, 3)
    assert list(x) == [3, 6] and means[0] == pytest.approx(sum(done.returns[:3]) / 3)
