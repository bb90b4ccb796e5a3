"""The dining cryptographers on a knowledge structure: parity tells, the payer stays hidden."""

from __future__ import annotations

from itertools import product

import pytest

from epigames.errors import ModelError
from epigames.logic.puzzles.dining_cryptographers import dining_cryptographers

pytest.importorskip("dd")


@pytest.mark.parametrize("n", [3, 4])
def test_every_payer_and_every_coin_toss(n: int) -> None:
    for paid in range(n + 1):
        for coins in product((False, True), repeat=n):
            story = dining_cryptographers(n, paid, coins)
            # The parity of what they say is whether one of them paid.
            assert (sum(story.said) % 2 == 1) == (paid != 0)
            assert story.everyone_knows_whether
            assert story.anonymous
            assert story.payer_known_to == (frozenset({paid}) if paid else frozenset())


def test_many_cryptographers() -> None:
    story = dining_cryptographers(30, 11)
    assert sum(story.said) % 2 == 1
    assert story.everyone_knows_whether and story.anonymous
    assert story.payer_known_to == {11}
    # 29 others could have paid for all each one knows, and the coins are then fixed
    # up to flipping all of them: 2 per candidate payer.
    assert story.states == 2 * 30


def test_errors() -> None:
    with pytest.raises(ModelError, match="at least 3"):
        dining_cryptographers(2, 1)
    with pytest.raises(ModelError, match=r"0 \(the NSA\) or a cryptographer 1\.\.3"):
        dining_cryptographers(3, 4)
    with pytest.raises(ModelError, match="3 cryptographers share 3 coins, got 2"):
        dining_cryptographers(3, 1, (True, False))
