"""Tournaments: many games run in parallel (local processes or Ray), stored in DuckDB.

A tournament is a `TournamentConfig` (game string, strategies, size, seed, seat scheme).
Game `i` plays with a seed and a seating derived from the tournament seed and `i` alone,
so results do not depend on workers, backend or interruptions. Each finished game is one
row in a DuckDB file (`TournamentStore`); `run_tournament` plays only the missing games.
`summarize` gives per-strategy and per-seat statistics with 95% intervals, and in a
game with partners (`Game.teams`) per team line-up and team too; rotated seatings
keep partners together (`team_rotation_cycle`).

DuckDB and matplotlib come with the `tournament` extra, Ray with the `ray` extra.
"""

from epigames.tournament.backend import MatchFailedError, play_games
from epigames.tournament.config import (
    DEFAULT_NAME,
    DEFAULT_SEED,
    MAX_GAMES,
    MAX_SEED,
    GameRow,
    MatchFunction,
    MatchOutcome,
    TournamentConfig,
    TournamentInputError,
    checked_config,
    game_teams,
    parse_strategies,
)
from epigames.tournament.runner import (
    BACKENDS,
    RunReport,
    TournamentInterrupted,
    run_tournament,
)
from epigames.tournament.seeds import (
    DUPLICATE,
    FIXED,
    ROTATE,
    game_seed,
    rotation_cycle,
    seat_strategies,
    team_rotation_cycle,
)
from epigames.tournament.stats import Line, Summary, mean_interval, summarize, wilson_interval
from epigames.tournament.store import (
    ConfigMismatchError,
    CorruptFileError,
    ForeignFileError,
    NoResultsError,
    StoreError,
    TournamentStore,
    UnknownTournamentError,
)


def load_summary(path: str, name: str | None = None) -> Summary:
    """The summary of a stored tournament (the only one in the file when `name` is None)."""
    with TournamentStore.open(path, read_only=True) as store:
        config = store.get(name)
        return summarize(config, store.seat_records(config.name))


__all__ = [
    "BACKENDS",
    "DEFAULT_NAME",
    "DEFAULT_SEED",
    "DUPLICATE",
    "FIXED",
    "MAX_GAMES",
    "MAX_SEED",
    "ROTATE",
    "ConfigMismatchError",
    "CorruptFileError",
    "ForeignFileError",
    "GameRow",
    "Line",
    "MatchFailedError",
    "MatchFunction",
    "MatchOutcome",
    "NoResultsError",
    "RunReport",
    "StoreError",
    "Summary",
    "TournamentConfig",
    "TournamentInputError",
    "TournamentInterrupted",
    "TournamentStore",
    "UnknownTournamentError",
    "checked_config",
    "game_seed",
    "game_teams",
    "load_summary",
    "mean_interval",
    "parse_strategies",
    "play_games",
    "rotation_cycle",
    "run_tournament",
    "seat_strategies",
    "summarize",
    "team_rotation_cycle",
    "wilson_interval",
]
