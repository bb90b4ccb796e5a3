"""`quartet-2023`: the Quartet (MESA) report's four strategies in rotated seats, 1,000 games."""

from __future__ import annotations

from epigames.tournament.experiments.base import Experiment, Published
from epigames.tournament.seeds import ROTATE

EXPERIMENT = Experiment(
    name="quartet-2023",
    title="Quartet (MESA), 4 players, 8 kinds, no asking for own cards: "
    "random, owner, defensive, aggressive, rotated seats",
    source="Quartet MESA report (2023)",
    game="kwartet(players=4,kinds=8,ask_own=false)",
    strategies=("random", "owner", "defensive", "aggressive"),
    seat_scheme=ROTATE,
    games=1_000,
    seed=2023,
    published={
        "random": Published(5),
        "owner": Published(298),
        "defensive": Published(355),
        "aggressive": Published(342),
    },
    wins_counted_as="fractional",
    remarks=(
        "The report's wins add up to the number of games, so we compare them with "
        "our fractional wins (a tie among k winners counts 1/k).",
        "The published numbers are approximate (read from the report).",
    ),
)
