"""No 5xx, ever: random and adversarial requests to every API route, for every game.

Routes are enumerated from `app.routes`, so a new route is fuzzed without touching this
file. Path segments, query values and bodies are drawn from values that mean something
to the app (live session ids of every registered game, frames, seats, subjects, stored
tournaments, job ids) mixed with junk: random JSON, wrong types, huge numbers, deep
nesting, unicode, nulls, broken JSON.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings, strategies as st

from epigames.games import load_game, registered_games, strategies_for
from epigames.web.app import create_app
from epigames.web.builders import play_session, watch_session
from epigames.web.session import Session

#: A small instance of each game (the registry's defaults for the others).
SMALL = {
    "kwartet": "kwartet(players=4,kinds=3)",
    "blufpoker": "blufpoker(players=3,penalties=2)",
    "klaverjas": "klaverjas(deals=1)",
    "kemps": "kemps(ranks=5,max_turns=12)",
}
EXAMPLES = 40


def small_game(name: str) -> str:
    return SMALL.get(name, name)


def api_routes() -> list[tuple[str, APIRoute]]:
    app = create_app()
    return [
        (method, route)
        for route in app.routes
        if isinstance(route, APIRoute) and route.path.startswith("/api")
        for method in sorted(route.methods)
    ]


ROUTES = api_routes()


@dataclass
class Fixture:
    client: TestClient
    app: Any
    sessions: dict[str, tuple[str, bool]]  # id -> (game string, played)
    subjects: list[str]
    subjects_of: dict[str, list[str]]  # session id -> subjects of its game
    seats: list[str]
    jobs: list[str]

    def ensure_sessions(self) -> None:
        """Put back the fixture's games that a fuzzed DELETE or move closed or ended."""
        store = self.app.state.sessions
        for sid, (game, played) in self.sessions.items():
            if sid in store._sessions and not (played and store._sessions[sid].finished):
                continue
            store.remove(sid)
            session = make_session(game, played)
            session.id = sid
            store.add(session, "fixture")


def make_session(game: str, played: bool) -> Session:
    n = load_game(game).num_players
    names = strategies_for(load_game(game).name)
    # The web routes are under test, not the agents: the cheapest one will do.
    strategies = ["random" if "random" in names else names[0]] * n
    if played:
        return play_session(game, strategies, human=0, seed=1)
    return watch_session(game, strategies, 1)


class FastMatch:
    """A stand-in match for tournament jobs the fuzzer starts: instant, seat 0 wins."""

    returns: tuple[float, ...]
    winners: tuple[int, ...] = (0,)
    moves: int = 1

    def __init__(self, game: str, strategies: Any, seed: int) -> None:
        self.returns = (1.0,) + (0.0,) * (len(strategies) - 1)


@pytest.fixture(scope="module")
def fx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fixture]:
    db_dir = tmp_path_factory.mktemp("fuzz-dbs")
    app = create_app(db_dir, max_sessions=400, max_per_client=50, max_jobs=4)
    with TestClient(app, raise_server_exceptions=False) as client:
        jobs: list[str] = []
        if _has_duckdb():
            body = {"db": "t.duckdb", "name": "t", "game": small_game("kwartet"),
                    "strategies": ["random"] * 4, "games": 6}  # fmt: skip
            job = client.post("/api/tournaments", json=body).json()
            jobs.append(job["id"])
            deadline = time.monotonic() + 120
            while client.get(f"/api/jobs/{job['id']}").json()["state"] == "running":
                assert time.monotonic() < deadline, "the fixture's tournament never ended"
                time.sleep(0.01)
            app.state.tournaments.match = FastMatch
        sessions: dict[str, tuple[str, bool]] = {}
        subjects: set[str] = set()
        subjects_of: dict[str, list[str]] = {}
        seats: set[str] = {"spectator", "0", "1", "-1", "99"}
        for name in registered_games():
            game = small_game(name)
            for played in (False, True):
                sessions[f"fuzz-{name}-{'played' if played else 'watched'}"] = (game, played)
            session = make_session(game, False)
            seats.update(load_game(game).seat_names)
            mine: set[str] = set()
            for frame in (0, session.last_frame // 2, session.last_frame):
                state = session.state_at(frame)
                if hasattr(state, "picture_subjects"):
                    mine.update(str(s) for s in state.picture_subjects())
            subjects |= mine
            for sid in list(sessions)[-2:]:
                subjects_of[sid] = sorted(mine)
        fixture = Fixture(client, app, sessions, sorted(subjects), subjects_of, sorted(seats), jobs)
        fixture.ensure_sessions()
        yield fixture


def _has_duckdb() -> bool:
    try:
        import duckdb  # noqa: F401
    except ImportError:
        return False
    return True


# --- values -------------------------------------------------------------------------------

HUGE = st.sampled_from([2**31, 2**63, 2**64, -(2**63) - 1, 10**30, -(10**30), 10**400])
NUMBERS = st.one_of(st.integers(-5, 50), HUGE, st.floats(allow_nan=True, allow_infinity=True))
TEXT = st.one_of(
    st.text(max_size=30),
    st.text(
        alphabet=st.characters(min_codepoint=0x80, max_codepoint=0x10FFFF, codec="utf-8"),
        max_size=10,
    ),
    st.sampled_from(["", " ", "null", "../etc/passwd", "%00", "\x00", "a" * 5000, "~" * 400]),
)
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS, TEXT),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)


def segment(fx: Fixture, name: str) -> st.SearchStrategy[str]:
    """Values for a path parameter: meaningful ones and junk."""
    known: list[str] = {
        "sid": list(fx.sessions),
        "frame": ["0", "1", "-1", "3", "-999", "999999"],
        "db": ["t.duckdb", "none.duckdb", "t", "..", "x.txt"],
        "name": ["t", "web", "nope"],
        "plot": ["win_rates", "returns", "lengths", "seat_advantage", "pie"],
        "job_id": [*fx.jobs, "nope"],
    }.get(name, [])
    junk = st.one_of(TEXT, NUMBERS.map(str)).filter(lambda s: s not in ("", ".", ".."))
    return st.one_of(st.sampled_from(known), junk) if known else junk


def query_value(fx: Fixture, name: str) -> st.SearchStrategy[str]:
    known = {
        "perspective": fx.seats,
        "subject": fx.subjects or ["A"],
        "spec": [*SMALL.values(), "kwartet(", "chess", "kwartet(kinds=99)"],
    }.get(name, ["0", "1", "-1"])
    return st.one_of(st.sampled_from(known), TEXT, NUMBERS.map(str))


def known_values(fx: Fixture, field: str) -> list[Any]:
    """Meaningful values of a body field (good and bad ones)."""
    known: dict[str, list[Any]] = {
        "game": [*SMALL.values(), *registered_games(), "kwartet(kinds=99)"],
        "strategies": [[s] * n for s in ("random", "human", "nope") for n in (1, 3, 4)],
        "seat": [0, 1, *fx.seats],
        "human_seat": [0, 1, *fx.seats],
        "perspective": [None, *fx.seats],
        "subject": fx.subjects or ["A"],
        "frame": [0, 1, -1, 10**9],
        "formula": ["p", "K_Ann p", "~" * 400 + "p", "(" * 200 + "p" + ")" * 200, "K_{"],
        "action": ["pass", "show", "ask 1 1.1", "bid 421", "call", "roll", ""],
        "db": ["t.duckdb", "fuzz.duckdb", "../x.duckdb"],
        "name": ["t", "fuzz"],
        "index": [0, 1, 5, 10**9],
        "games": [1, 3, 5000, 5001],
        "seed": [None, 0, 1, 2**63 - 1, 2**63],
    }
    return known.get(field, [None])


def body_values(fx: Fixture, field: str) -> st.SearchStrategy[Any]:
    return st.one_of(st.sampled_from(known_values(fx, field)), JSON)


@st.composite
def request_for(draw: st.DrawFn, fx: Fixture, method: str, route: APIRoute) -> dict[str, Any]:
    path = route.path
    subjects = fx.subjects
    for name in re.findall(r"{(\w+)}", path):
        value = draw(segment(fx, name))
        subjects = fx.subjects_of.get(value, subjects) if name == "sid" else subjects
        path = path.replace("{" + name + "}", quote(value, safe=""))
    fx = dataclasses.replace(fx, subjects=subjects or fx.subjects)
    params = {
        q.name: draw(query_value(fx, q.name))
        for q in route.dependant.query_params
        if draw(st.booleans()) or draw(st.booleans())
    }
    if draw(st.booleans()):
        params.update(draw(st.dictionaries(st.text(min_size=1, max_size=8), TEXT, max_size=2)))
    request: dict[str, Any] = {"method": method, "url": path, "params": params}
    if route.body_field is not None:
        model = route.body_field.field_info.annotation
        fields = list(getattr(model, "model_fields", {}))
        kind = draw(st.sampled_from(["known", "known", "mixed", "mixed", "json", "raw"]))
        if kind == "known":  # every field, each a meaningful value: reaches deep code
            body = {f: draw(st.sampled_from(known_values(fx, f))) for f in fields}
            request["content"] = json.dumps(body)
        elif kind == "mixed":
            body = {
                f: draw(body_values(fx, f))
                for f in fields
                if draw(st.integers(0, 9)) < 8  # mostly all fields, sometimes one missing
            }
            if draw(st.integers(0, 9)) == 0:
                body[draw(st.text(max_size=8))] = draw(JSON)
            request["content"] = json.dumps(body)
        elif kind == "json":
            request["content"] = json.dumps(draw(JSON))
        else:
            depth = draw(st.sampled_from([1, 50, 1000, 5000]))
            request["content"] = draw(
                st.sampled_from(
                    ["[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth, "{", "\xff"]
                )
            )
        request["headers"] = {"content-type": "application/json"}
    return request


# --- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "route"), ROUTES, ids=[f"{m} {r.path}" for m, r in ROUTES])
def test_no_route_answers_5xx(fx: Fixture, method: str, route: APIRoute) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,  # the same examples every run: CI cannot fail at random
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(request_for(fx, method, route))
    def check(request: dict[str, Any]) -> None:
        fx.ensure_sessions()
        response = fx.client.request(**request)
        assert response.status_code < 500, (request, response.text)
        if response.status_code >= 400:
            assert isinstance(response.json()["detail"], str), response.text

    check()


@pytest.mark.parametrize("name", sorted(registered_games()))
def test_every_view_of_every_frame_answers(fx: Fixture, name: str) -> None:
    """Not random: every session route, at every frame, from every perspective."""
    fx.ensure_sessions()
    for sid in fx.sessions:
        if not sid.startswith(f"fuzz-{name}-"):
            continue
        info = fx.client.get(f"/api/sessions/{sid}").json()
        perspectives = [None, "spectator", *map(str, range(len(info["seat_names"])))]
        base = f"/api/sessions/{sid}/frames"
        for frame in range(info["last_frame"] + 1):
            for perspective in perspectives:
                params = {} if perspective is None else {"perspective": perspective}
                for url in (f"{base}/{frame}", f"{base}/{frame}/matrix"):
                    response = fx.client.get(url, params=params)
                    assert response.status_code < 500, (url, params, response.text)
                for subject in fx.subjects_of[sid][:3]:
                    response = fx.client.get(
                        f"{base}/{frame}/picture", params={**params, "subject": subject}
                    )
                    assert response.status_code < 500, (frame, params, subject, response.text)
        for subject in fx.subjects_of[sid][:2]:
            for formula in known_values(fx, "formula"):
                body = {"frame": 0, "subject": subject, "formula": formula}
                response = fx.client.post(f"/api/sessions/{sid}/formula", json=body)
                assert response.status_code < 500, (body, response.text)


def test_the_fuzzer_reaches_every_route(fx: Fixture) -> None:
    assert {r.path for _, r in ROUTES} >= {
        "/api/sessions/{sid}/frames/{frame}/matrix",
        "/api/tournaments",
        "/api/jobs/{job_id}",
    }
    assert {g.split("(")[0] for g, _ in fx.sessions.values()} == set(registered_games())
