"""End to end in a real headless Chromium (Debian's, driven by Playwright for Python).

The server runs with uvicorn on a free loopback port in a thread of the test process.
Screenshots go to the test's temporary directory; the watch screenshot is also copied to
`docs/img/web.png` for the README.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from epigames.games.kwartet import KwartetState
from epigames.web.app import create_app
from epigames.web.builders import watch_session

playwright = pytest.importorskip("playwright.sync_api", reason="needs the browser-tests extra")
uvicorn = pytest.importorskip("uvicorn")

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
KWARTET_PICTURES = hasattr(KwartetState, "picture")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = create_app(tmp_path_factory.mktemp("dbs"))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert Path(CHROMIUM).exists(), (
        f"{CHROMIUM} is missing: install Debian's chromium (scripts/install-system-deps.sh)"
    )
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/")
    pg.wait_for_selector("body[data-ready='1']")
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def set_game(
    pg: Any, game: str, params: dict[str, str], seed: int | None = None, agents: str = "random"
) -> None:
    pg.select_option("#game-select", game)
    for name, value in params.items():
        pg.fill(f"[data-param='{name}']", value)
        pg.dispatch_event(f"[data-param='{name}']", "change")
    pg.wait_for_selector("#seats[data-ready='1']")  # rebuilt from /api/game for these params
    for select in pg.query_selector_all("#seats select"):
        select.select_option(agents)
    if seed is not None:
        pg.fill("#seed", str(seed))


def set_range(pg: Any, selector: str, value: int) -> None:
    pg.eval_on_selector(
        selector,
        "(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }",
        value,
    )


def frame_label(pg: Any) -> tuple[int, int]:
    text = pg.inner_text("#frame-label")  # "move 3 / 120"
    now, last = text.replace("move", "").split("/")
    return int(now), int(last)


def wait_frame(pg: Any, frame: int) -> None:
    pg.wait_for_function(
        "f => document.querySelector('#frame-label').textContent.startsWith('move ' + f + ' /')",
        arg=frame,
    )


def test_watch_a_kwartet_game_to_the_end(page: Any, tmp_path: Path) -> None:
    set_game(page, "kwartet", {"players": "4", "kinds": "5"}, seed=7)
    page.click("#watch-btn")
    page.wait_for_selector("#table svg .seat-0")
    assert frame_label(page)[0] == 0
    page.click("#fwd-btn")
    wait_frame(page, 1)
    page.click("#fwd-btn")
    wait_frame(page, 2)
    page.click("#back-btn")
    wait_frame(page, 1)
    assert page.locator("#log li.decision").count() == 1
    set_range(page, "#speed", 20)
    page.click("#play-pause-btn")
    page.wait_for_function(
        "document.querySelector('#frame-label').textContent.includes('move 12 /')"
    )
    page.screenshot(path=str(tmp_path / "watch-playing.png"))
    page.click("#end-btn")
    page.wait_for_function("document.querySelector('#turn').textContent.includes('Game over')")
    now, last = frame_label(page)
    assert now == last > 10
    assert "wins" in page.inner_text("#table") or "Tie" in page.inner_text("#table")
    assert page.locator("#log li.event").count() > last
    # Seen by West: only West's hand is face up (face-up cards carry a <title>).
    set_range(page, "#scrub", 3)
    wait_frame(page, 3)
    page.click("#perspectives button[data-perspective='1']")
    page.wait_for_selector("#perspectives button.active[data-perspective='1']")
    page.wait_for_function("document.querySelectorAll('#table .seat-1 .card title').length > 0")
    assert page.locator("#table .seat-1 .card title").count() > 0
    for other in (0, 2, 3):
        assert page.locator(f"#table .seat-{other} .card title").count() == 0
    page.screenshot(path=str(tmp_path / "watch-west.png"))


def first_failed_ask(game: str, seed: int) -> tuple[int, str]:
    """The frame of the first failed ask of this game, and the card asked for."""
    session = watch_session(game, ["random"] * 4, seed)
    for k, decision in enumerate(session.decisions):
        events = session.head.events[decision.first_event : session.event_counts[k + 1]]
        for event in events:
            data = event.to_dict()
            if data["kind"] == "ask" and not data["success"]:
                return k, str(data["card"])
    raise AssertionError("no failed ask")


def kripke_worlds(pg: Any) -> int:
    return int(pg.locator("#kripke .world").count())


@pytest.mark.skipif(not KWARTET_PICTURES, reason="Kwartet draws no Kripke pictures yet")
def test_kripke_panel_loses_worlds_after_a_failed_request(page: Any, tmp_path: Path) -> None:
    game, seed = "kwartet(players=4,kinds=5,ask_own=true)", 7
    frame, card = first_failed_ask(game, seed)
    set_game(page, "kwartet", {"players": "4", "kinds": "5"}, seed=seed)
    page.click("#watch-btn")
    page.wait_for_selector("#table svg .seat-0")
    set_range(page, "#scrub", frame)
    wait_frame(page, frame)
    page.select_option("#subject-select", card)
    page.wait_for_selector("#kripke .world")
    before = kripke_worlds(page)
    page.click("#fwd-btn")
    wait_frame(page, frame + 1)
    page.wait_for_function(f"document.querySelectorAll('#kripke .world').length < {before}")
    assert kripke_worlds(page) < before
    page.click("#matrix-btn")
    page.wait_for_selector("#matrix table")
    page.screenshot(path=str(tmp_path / "kripke.png"), full_page=True)


def test_kripke_panel_and_formula_box(page: Any, tmp_path: Path) -> None:
    """The panel on the toy game (always drawn): worlds go after a public announcement."""
    page.select_option("#game-select", "webtoy")
    page.wait_for_selector("#seats[data-ready='1']")
    for seat, strategy in enumerate(["passer", "shower", "passer"]):
        page.select_option(f"#seats select[data-seat='{seat}']", strategy)
    page.fill("#seed", "1")
    page.click("#watch-btn")
    page.wait_for_selector("#table .seat-0, #table table")
    page.click("#perspectives button[data-perspective='0']")
    set_range(page, "#scrub", 1)
    wait_frame(page, 1)
    shown = "C"  # seed 1 deals Bob the C (see test_api), which he shows at decision 1
    page.select_option("#subject-select", shown)
    page.wait_for_selector("#kripke .world")
    before = kripke_worlds(page)
    page.click("#fwd-btn")
    wait_frame(page, 2)
    page.wait_for_function(f"document.querySelectorAll('#kripke .world').length < {before}")
    page.fill("#formula", 'K_Ann "holds(Bob,C)"')
    page.click("#formula-form button[type='submit']")
    page.wait_for_selector("#formula-result.true")
    page.fill("#formula", "K_Ann (p &")
    page.click("#formula-form button[type='submit']")
    page.wait_for_selector("#formula-result.error")
    assert "^" in page.inner_text("#formula-result")
    page.screenshot(path=str(tmp_path / "toy-kripke.png"), full_page=True)


def test_play_kwartet_as_south_against_three_agents(page: Any, tmp_path: Path) -> None:
    set_game(page, "kwartet", {"players": "4", "kinds": "3"})
    page.select_option("#seats select[data-seat='0']", "human")
    set_range(page, "#speed", 20)
    page.click("#play-btn")
    page.wait_for_selector("#table svg .seat-0")
    clicks = 0
    for _ in range(400):
        page.wait_for_function(
            "document.querySelector('#turn').textContent.includes('Game over') ||"
            " (!document.querySelector('#human-bar').classList.contains('hidden') &&"
            "  document.querySelector('#frame-label').textContent.split('/')[0].trim() =="
            "  'move ' + document.querySelector('#frame-label').textContent.split('/')[1].trim())",
            timeout=30000,
        )
        if "Game over" in page.inner_text("#turn"):
            break
        # Only South's cards are face up while playing; the other perspectives are locked.
        for other in (1, 2, 3):
            assert page.locator(f"#table .seat-{other} .card title").count() == 0
        assert page.locator("#perspectives button[data-perspective='spectator']").is_disabled()
        if clicks == 1:
            page.screenshot(path=str(tmp_path / "play.png"))
        before = page.inner_text("#frame-label")
        page.locator("#human-bar .target").first.click()
        page.locator("#human-bar .ask-card").first.click()
        clicks += 1
        # The move is in once the frame label moves on (or the game is over).
        page.wait_for_function(
            "b => document.querySelector('#frame-label').textContent !== b ||"
            " document.querySelector('#turn').textContent.includes('Game over')",
            arg=before,
            timeout=30000,
        )
    assert "Game over" in page.inner_text("#turn")
    assert clicks > 0
    assert page.locator("#log li.decision .who", has_text="South (you)").count() == clicks
    page.screenshot(path=str(tmp_path / "play-end.png"))


def test_readme_screenshot(page: Any, tmp_path: Path) -> None:
    """A good-looking moment for the README: mid-game, the Kripke panel open if drawn."""
    set_game(page, "kwartet", {"players": "4", "kinds": "13"}, seed=3)
    page.click("#watch-btn")
    page.wait_for_selector("#table svg .seat-0")
    set_range(page, "#scrub", 40)
    wait_frame(page, 40)
    if KWARTET_PICTURES:
        options = page.eval_on_selector_all("#subject-select option", "os => os.map(o => o.value)")
        page.select_option("#subject-select", options[len(options) // 2])
        page.wait_for_selector("#kripke .world")
    page.set_viewport_size({"width": 1600, "height": 1330})
    path = tmp_path / "web.png"
    page.screenshot(path=str(path))
    page.click("#matrix-btn")
    page.wait_for_selector("#matrix table, #matrix .hint")
    page.screenshot(path=str(tmp_path / "matrix.png"), full_page=True)
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, DOCS_IMG / "web.png")
