# ruff: noqa: F811  (the tests take the fixtures imported from test_browser by name)
"""The page plays a long game to its end over several budgeted requests, saying how far it
got, and its Cancel button stops it (in Chromium, as tests/web/test_browser.py runs it).

The server's budget here counts moves, not CPU time, so the requests are the same each run.
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from epigames.web.app import create_app
from epigames.web.budget import PlayBudget
from tests.web.test_browser import browser, page, server, set_game  # noqa: F401

playwright = pytest.importorskip("playwright.sync_api", reason="needs the browser-tests extra")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The app with a budget of 300 moves a request."""
    return create_app(
        tmp_path_factory.mktemp("dbs"), budget=PlayBudget(cpu_seconds=math.inf, frames=300)
    )


def budget_answers(page: Any) -> list[int]:
    """The `last_frame` of every 503 the page gets from now on."""
    seen: list[int] = []

    def on_response(response: Any) -> None:
        if response.status == 503:
            seen.append(response.json()["last_frame"])

    page.on("response", on_response)
    return seen


def test_the_end_of_a_long_game_is_played_in_steps(page: Any) -> None:
    # Seed 0 of kemps(ranks=5) with random agents ends after 1,789 moves.
    set_game(page, "kemps", {"ranks": "5"}, seed=0, agents="random")
    page.click("#watch-btn")
    playwright.expect(page.locator("#status")).to_contain_text("Watching kemps")
    answers = budget_answers(page)
    page.click("#end-btn")
    page.wait_for_function("document.querySelector('#turn').textContent.includes('Game over')")
    label = page.inner_text("#frame-label")
    assert label == "move 1789 / 1789"
    assert answers == [330, 630, 930, 1230, 1530]
    assert page.locator("#table .busy").count() == 0


def test_cancel_stops_playing_to_the_end(page: Any) -> None:
    # Random agents play default Kemps to its turn cap: about 3,700 moves, 13 requests here.
    set_game(page, "kemps", {"ranks": "13"}, seed=0, agents="random")  # the defaults
    page.click("#watch-btn")
    playwright.expect(page.locator("#status")).to_contain_text("Watching kemps")
    # The second request for the end waits until Cancel is pressed: the page is surely
    # still playing then.
    routes: list[Any] = []

    def hold_the_second(route: Any) -> None:
        routes.append(route)
        if len(routes) != 2:
            route.continue_()

    page.route(re.compile(r"/frames/-1\?"), hold_the_second)
    page.click("#end-btn")
    progress = page.locator("#table .busy.playing")
    playwright.expect(progress).to_have_text("Playing to the end: move 330 so far…Cancel")
    page.click("#cancel-play-btn")
    while len(routes) < 2:
        page.wait_for_timeout(10)  # the request is on its way
    routes[1].continue_()
    playwright.expect(progress).to_have_count(0)
    assert page.inner_text("#status") == "Stopped at move 630; ▶| plays on from there."
    assert page.inner_text("#frame-label") == "move 0 / 630…"
    assert len(routes) == 2
