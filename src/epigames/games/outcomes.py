"""`WeightedOutcomes`: a game's fixed table of chance outcomes, drawn by binary search.

Its own module, below `match` (which draws from it) and the games (which make them), so
that a game's rules need not import the play loop.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable


class WeightedOutcomes(tuple[tuple[Hashable, float], ...]):
    """`(outcome, probability)` pairs (a tuple of them) that keep their running totals.

    For a table of chance outcomes that a game makes once and hands out many times (the
    throws of one, two or three dice): `sample_outcome` then finds the outcome by binary
    search over the totals instead of summing the pairs. The totals are summed in order,
    as `sample_outcome` sums plain pairs, so both draw the same outcome.

    Attributes:
        choices: the outcomes, in order.
        totals: the running totals of their probabilities.
    """

    choices: tuple[Hashable, ...]
    totals: tuple[float, ...]

    def __new__(cls, pairs: Iterable[tuple[Hashable, float]]) -> WeightedOutcomes:
        self = super().__new__(cls, pairs)
        totals, total = [], 0.0
        for _, probability in self:
            total += probability
            totals.append(total)
        self.choices = tuple(outcome for outcome, _ in self)
        self.totals = tuple(totals)
        return self
