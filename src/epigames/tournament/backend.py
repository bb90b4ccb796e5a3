"""What every backend shares: the `Backend` interface and `play_games`, the unit of work.

A backend (in-process, local processes, Ray) runs chunks of game indices with
`play_games` and hands back their rows; the runner's scheduling loop drives any of them.
This module imports no backend, so each backend and the runner can import it.
"""

from __future__ import annotations

import abc
import gc
import time
import traceback
from collections.abc import Sequence
from typing import Any

import numpy as np

from epigames.errors import EpigamesError
from epigames.tournament.config import GameRow, MatchFunction, TournamentConfig
from epigames.tournament.seeds import FIXED, game_seed, seat_strategies, seed_index


class MatchFailedError(EpigamesError):
    """A game raised an exception; the message names the game so it can be replayed."""


#: The cyclic collector's thresholds in a process that plays games (`tune_collector`).
GAME_THRESHOLDS = (20_000, 20, 100)


def tune_collector() -> None:
    """Set up the cyclic garbage collector for a process that plays many games.

    A game makes many short-lived objects (views, readings, knowledge values) and almost
    no reference cycles; at Python's default first threshold (700 new objects) the
    collector scans each of them before it dies. Everything alive now (modules, classes,
    the engines' tables) is moved out of its scans (`gc.freeze`), and it runs about thirty
    times less often. Reference counting frees the games' objects as before; only cycles
    wait longer. Called by tournament workers and by the `tournament` and `bench` commands,
    never by the library on its own: it changes the whole process.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GAME_THRESHOLDS)


def play_games_in_worker(
    config: TournamentConfig,
    indices: Sequence[int] | np.ndarray[Any, Any],
    match: MatchFunction,
) -> list[GameRow]:
    """`play_games` in a worker process: its collector tuned (`tune_collector`) first."""
    if gc.get_threshold() != GAME_THRESHOLDS:
        tune_collector()
    return play_games(config, indices, match)


def play_games(
    config: TournamentConfig,
    indices: Sequence[int] | np.ndarray[Any, Any],
    match: MatchFunction,
) -> list[GameRow]:
    """Play the games with these indices; the unit of work sent to a worker.

    Each game's seed and seating depend only on the tournament and the index (and the
    game's teams, which the game string fixes: partners are moved together).

    Raises:
        MatchFailedError: a match raised; the message gives index, seed and seats.
    """
    rows = []
    # Fixed seats need no teams: spare the game lookup.
    scheme = config.seat_scheme
    teams = None if scheme == FIXED else config.teams
    for raw in indices:
        index = int(raw)
        seed = game_seed(config.seed, seed_index(index, scheme, teams))
        seats = seat_strategies(config.strategies, index, scheme, teams)
        started = time.perf_counter()
        try:
            result = match(config.game, seats, seed)
        except Exception as exc:
            where = traceback.extract_tb(exc.__traceback__)[-1:]
            place = f" at {where[0].filename}:{where[0].lineno}" if where else ""
            raise MatchFailedError(
                f"game {index} of tournament {config.name!r} ({config.game}, seats "
                f"{', '.join(seats)}, seed {seed}) failed{place}: {type(exc).__name__}: {exc}"
            ) from None
        seconds = time.perf_counter() - started
        rows.append(
            GameRow(
                index=index,
                seed=seed,
                strategies=seats,
                returns=tuple(float(r) for r in result.returns),
                winners=tuple(int(w) for w in result.winners),
                moves=int(result.moves),
                # Match functions that play no game (the synthetic one) have no cap.
                capped=bool(getattr(result, "capped", False)),
                seconds=seconds,
            )
        )
    return rows


class Backend(abc.ABC):
    """Runs chunks of games somewhere and hands back their rows.

    Attributes:
        workers: how many chunks run at once.
        chunk_seconds: how long a chunk should take (larger where a task costs more).
    """

    workers: int = 1
    chunk_seconds: float = 0.25
    #: Whether chunks in flight at Ctrl-C are worth waiting for (they run elsewhere).
    drain_on_interrupt: bool = True

    @abc.abstractmethod
    def submit(self, config: TournamentConfig, indices: np.ndarray[Any, Any]) -> object:
        """Start a chunk; returns a handle."""

    @abc.abstractmethod
    def wait(self, handles: set[object], timeout: float) -> list[tuple[object, list[GameRow]]]:
        """The chunks among `handles` that are done (at least one unless timed out).

        Raises:
            MatchFailedError or another error: a chunk failed.
        """

    @abc.abstractmethod
    def close(self, abort: bool) -> None:
        """Release workers; with `abort`, drop unfinished chunks without waiting."""
