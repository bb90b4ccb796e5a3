"""The Ray backend: the same chunks of games as Ray tasks, locally or on a cluster.

A task plays a whole chunk (about a second of games), so Ray's per-task cost (around a
millisecond) stays small against the games. Results are rows, as with local processes,
and depend only on the game indices, so both backends store identical games.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from epigames.errors import EpigamesError, InputError
from epigames.tournament.backend import Backend, play_games_in_worker
from epigames.tournament.config import GameRow, MatchFunction, TournamentConfig
from epigames.tournament.extras import import_extra


class RayUnavailableError(InputError):
    """Ray is not installed, or the cluster cannot be reached."""


def _ray() -> Any:
    return import_extra("ray", "ray", "--backend ray needs", RayUnavailableError)


class RayBackend(Backend):
    """Runs chunks as Ray tasks (one CPU each).

    Without an address, starts a local Ray with `jobs` CPUs (no dashboard, worker logs not
    forwarded) and shuts it down in `close`; with one, connects to that cluster and uses
    all its CPUs. A Ray that the caller already initialised is used and left running.
    """

    chunk_seconds = 1.0

    def __init__(self, match: MatchFunction, jobs: int, address: str | None = None) -> None:
        ray = _ray()
        self._ray = ray
        self._match = match
        self._owned = not ray.is_initialized()
        if self._owned:
            try:
                if address:
                    ray.init(address=address, log_to_driver=False)
                else:
                    ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
            except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ...
                raise RayUnavailableError(
                    f"cannot start Ray{f' at {address!r}' if address else ''}: {exc}"
                ) from None
        cpus = int(ray.cluster_resources().get("CPU", jobs))
        self.workers = max(1, cpus if address or not self._owned else jobs)
        self._task = ray.remote(num_cpus=1, max_retries=0)(play_games_in_worker)
        self._config: TournamentConfig | None = None
        self._shared: tuple[Any, Any] = (None, None)
        self._running: set[Any] = set()

    def submit(self, config: TournamentConfig, indices: np.ndarray[Any, Any]) -> object:
        if config is not self._config:
            # Put the shared arguments once instead of shipping them with every task
            # (Ray resolves object refs passed as top-level arguments).
            self._config = config
            self._shared = (self._ray.put(config), self._ray.put(self._match))
        ref = self._task.remote(self._shared[0], indices, self._shared[1])
        self._running.add(ref)
        return ref

    def wait(self, handles: set[object], timeout: float) -> list[tuple[object, list[GameRow]]]:
        ray = self._ray
        refs = list(handles)
        ready, rest = ray.wait(refs, num_returns=1, timeout=timeout)
        if ready and rest:
            more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        out = []
        for ref in ready:
            self._running.discard(ref)
            try:
                rows: list[GameRow] = ray.get(ref)
            except ray.exceptions.RayTaskError as exc:
                cause = getattr(exc, "cause", None)
                if isinstance(cause, EpigamesError):
                    raise cause from None
                raise
            out.append((ref, rows))
        return out

    def close(self, abort: bool) -> None:
        ray = self._ray
        if abort:
            for ref in self._running:
                ray.cancel(ref, force=True)
        self._running.clear()
        if self._owned:
            ray.shutdown()
