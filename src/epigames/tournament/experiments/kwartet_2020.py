"""`kwartet-2020`: the Kwartet report's four strategies in fixed seats, 10,000 games."""

from __future__ import annotations

from epigames.tournament.experiments.base import Experiment, Published
from epigames.tournament.seeds import FIXED

EXPERIMENT = Experiment(
    name="kwartet-2020",
    title="Kwartet, 4 players, 13 kinds: greedy, silent, mixed and random in fixed seats",
    source="Kwartet report (2020), results after the extra inference step",
    game="kwartet(players=4,kinds=13,ask_own=true)",
    strategies=("greedy", "silent", "mixed", "random"),
    seat_scheme=FIXED,
    games=10_000,
    seed=2020,
    published={
        "greedy": Published(5597, 1545),
        "silent": Published(781, 683),
        "mixed": Published(1933, 1290),
        "random": Published(2, 1),
    },
    published_length=137.2307,
    length_unit="turns",
    wins_counted_as="outright",
    remarks=(
        "The report's seats were fixed in the order greedy, silent, mixed, random; so "
        "are ours (seat 0 moves first).",
        "The report counts 'turns'; we count moves (asks). If a report turn is one "
        "ask the lengths compare directly; if it is a player's run of asks, ours "
        "must be longer.",
    ),
)
