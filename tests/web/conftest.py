"""Fixtures for the web app tests: the app with a results directory, and its client."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web tests need the 'web' extra")

with warnings.catch_warnings():
    # Starlette warns about its own use of httpx; nothing to act on here.
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from epigames.games import core, strategy
from epigames.web.app import create_app
from tests.web import toy  # registers the `webtoy` game

__all__ = ["toy"]

# The toy game exists for these tests only: take it out of the registries at once, so
# that tests collected elsewhere (the conformance suite, registry listings) never see it,
# and put it back only while the web tests run.
_TOY_GAME = core._GAMES.pop(toy.NAME)
_TOY_STRATEGIES = strategy._STRATEGIES.pop(toy.NAME)


@pytest.fixture(autouse=True, scope="package")
def _toy_registered() -> Iterator[None]:
    core._GAMES[toy.NAME] = _TOY_GAME
    strategy._STRATEGIES[toy.NAME] = _TOY_STRATEGIES
    yield
    core._GAMES.pop(toy.NAME, None)
    strategy._STRATEGIES.pop(toy.NAME, None)


@pytest.fixture
def db_dir(tmp_path: Path) -> Path:
    path = tmp_path / "dbs"
    path.mkdir()
    return path


@pytest.fixture
def tables_db(tmp_path: Path) -> Path:
    """Where a test's tables are kept (`web.tables`)."""
    return tmp_path / "tables.sqlite"


@pytest.fixture
def tclient(tables_db: Path) -> Iterator[TestClient]:
    """A client of an app whose tables are kept in `tables_db`."""
    with TestClient(create_app(tables_db=tables_db)) as c:
        yield c


@pytest.fixture
def client(db_dir: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_dir)) as c:
        yield c


def new_game(client: TestClient, **body: object) -> dict[str, object]:
    """Start a session and return its info (asserting 201)."""
    response = client.post("/api/sessions", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, object] = response.json()
    return data


def played_game(client: TestClient, **body: object) -> dict[str, object]:
    """Start a game a person plays, once it is the person's turn (asserting 201).

    The server picks the seed, and a rare deal ends the person's part before its first
    turn (a Kwartet seat dealt a whole kind and nothing else): such games are started again.
    """
    for _ in range(50):
        info = new_game(client, **body)
        now = client.get(
            f"/api/sessions/{info['session']}/frames/-1",
            params={"perspective": str(info["human"])},
        ).json()
        if now["current_player"] == info["human"]:
            return info
        client.delete(f"/api/sessions/{info['session']}")
    raise AssertionError(f"no game with a first turn for the person in 50 deals: {body}")
