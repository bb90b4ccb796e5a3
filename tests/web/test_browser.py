"""End to end in a real headless Chromium (Debian's, driven by Playwright for Python).

The server runs with uvicorn on a free loopback port in a thread of the test process.
Screenshots go to the test's temporary directory; the watch screenshot is also copied to
`docs/img/web.png` for the README, and a Klaverjas one to `docs/img/web-klaverjas.png`.
"""

from __future__ import annotations

import re
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
# axe-core, as the browser-tests extra installs it (the package ships axe.min.js).
import axe_playwright_python  # noqa: E402

AXE_JS = Path(axe_playwright_python.__file__).parent / "axe.min.js"

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
KWARTET_PICTURES = hasattr(KwartetState, "picture")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The app the server runs (tests may add sessions to `app.state.sessions`)."""
    return create_app(tmp_path_factory.mktemp("dbs"))


@pytest.fixture(scope="module")
def server(app: Any) -> Iterator[str]:
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
    pg.goto(server + "/#games")
    pg.wait_for_selector("body[data-ready='1']")
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def new_page(
    browser: Any, server: str, width: int, path: str = "/#games", **options: Any
) -> tuple[Any, Any, list[str]]:
    """A new context at `width` on one of the app's pages (the game page unless told), and
    the JavaScript errors it raises."""
    height = options.pop("height", 900)
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + path)
    pg.wait_for_selector("body[data-ready='1']")
    return context, pg, errors


def set_game(
    pg: Any, game: str, params: dict[str, str], seed: int | None = None, agents: str = "random"
) -> None:
    pg.select_option("#game-select", game)
    for name, value in params.items():
        pg.fill(f"#params [data-param='{name}']", value)
        pg.dispatch_event(f"#params [data-param='{name}']", "change")
    pg.wait_for_selector("#seats[data-ready='1']")  # rebuilt from /api/game for these params
    for select in pg.query_selector_all("#seats select"):
        select.select_option(agents)
    if seed is not None:
        pg.fill("#seed", str(seed))


def pick_subject(pg: Any, value: str | None = None, index: int = 1) -> None:
    """Pick the Kripke panel's subject (`value`, else the option at `index`) and wait for
    its picture: until then the picture shown is the last move's."""
    if value is None:
        options = pg.eval_on_selector_all("#subject-select option", "os => os.map(o => o.value)")
        value = options[index]
    pg.select_option("#subject-select", value)
    pg.wait_for_selector(f"#kripke svg[aria-label='Kripke model of {value}'] .world")


def set_range(pg: Any, selector: str, value: int) -> None:
    pg.eval_on_selector(
        selector,
        "(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }",
        value,
    )


def start_playing(pg: Any, seat: int) -> None:
    """Seat a person at `seat`, the agents at full speed, and press Play with the keyboard."""
    pg.select_option(f"#seats select[data-seat='{seat}']", "human")
    set_range(pg, "#speed", 20)
    pg.focus("#play-btn")
    pg.keyboard.press("Enter")


def wait_turn_or_end(pg: Any, focused: str, before: str) -> bool:
    """Wait for the person's next turn (`focused` has the focus in a new frame) or the end.

    Returns whether the game is over.
    """
    pg.wait_for_function(
        """([focused, before]) =>
            document.querySelector('#turn').textContent.includes('Game over') ||
            (document.activeElement.matches('#human-bar:not(.hidden) ' + focused) &&
             document.querySelector('#frame-label').textContent !== before)""",
        arg=[focused, before],
        timeout=30000,
    )
    return "Game over" in pg.inner_text("#turn")


def frame_label(pg: Any) -> tuple[int, int]:
    """The frame shown and the last one played ("move 3 / 33…" while a watched game is
    played on as far as it is watched, "move 3 / 120" once every frame is played)."""
    text = pg.inner_text("#frame-label")
    now, last = text.replace("move", "").split("/")
    return int(now), int(last.strip().removesuffix("…"))


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
    assert page.inner_text("#frame-label").endswith("…")  # played on as it is watched
    page.click("#end-btn")
    page.wait_for_function("document.querySelector('#turn').textContent.includes('Game over')")
    now, last = frame_label(page)
    assert now == last > 10 and not page.inner_text("#frame-label").endswith("…")
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
    pick_subject(page, card)
    before = kripke_worlds(page)
    page.click("#fwd-btn")
    wait_frame(page, frame + 1)
    page.wait_for_function(f"document.querySelectorAll('#kripke .world').length < {before}")
    assert kripke_worlds(page) < before
    page.click("#matrix-btn")
    page.wait_for_selector("#matrix table")
    page.screenshot(path=str(tmp_path / "kripke.png"), full_page=True)


def check_agent_labels_and_highlight(pg: Any) -> None:
    """Every edge carries its agent's initial, the legend in the SVG names every agent, and
    clicking an agent there highlights exactly its block around the selected world."""
    expect = playwright.expect
    pic = pg.evaluate(
        """async () => {
            const sel = document.querySelector('#subject-select').value;
            const sid = (await import('/static/app.js')).currentSession();
            const p = document.querySelector('#perspectives button.active').dataset.perspective;
            const frame = document.querySelector('#scrub').value;
            const r = await fetch(`/api/sessions/${sid}/frames/${frame}/picture?subject=${
                encodeURIComponent(sel)}&perspective=${p}`);
            return r.json();
        }"""
    )
    svg = pg.locator("#kripke svg")
    edges, labels = svg.locator("line.edge"), svg.locator(".edge-label")
    assert edges.count() > 0 and labels.count() == edges.count()
    for agent in pic["agents"]:
        on_edges = svg.locator(f".relation[data-agent='{agent['name']}'] .edge-label text")
        assert set(on_edges.all_text_contents()) <= {agent["name"][0]}
    legend = svg.locator(".kripke-legend .legend-agent")
    expect(legend).to_have_count(len(pic["agents"]))
    for k, agent in enumerate(pic["agents"]):
        expect(legend.nth(k)).to_contain_text(agent["name"])
    expect(svg.locator(".world.possible")).to_have_count(0)
    names = [w["name"] for w in pic["worlds"]]
    # Looked from by default: the true world if the perspective knows it, else the first
    # world it considers possible (never a world remembered from another perspective).
    start = next(i for i, w in enumerate(pic["worlds"]) if w["true"] or w["considered"])
    shown: list[set[str]] = []
    for agent in pic["agents"]:
        block = next(b for b in agent["blocks"] if start in b)
        legend.filter(has_text=agent["name"]).click()
        expect(svg).to_have_attribute("data-agent", agent["name"])
        possible = set(
            svg.locator(".world.possible").evaluate_all("gs => gs.map(g => g.dataset.world)")
        )
        assert possible == {names[i] for i in block}
        shown.append(possible)
    assert len({frozenset(p) for p in shown}) > 1  # the agents see differently
    legend.filter(has_text=pic["agents"][-1]["name"]).press("Enter")  # off again, by keyboard
    expect(svg.locator(".world.possible")).to_have_count(0)


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
    pick_subject(page, shown)
    check_agent_labels_and_highlight(page)
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
            # Asked about the game state, the person gets only what South can tell.
            page.fill("#formula", "holds(South, ⟨1,1⟩) | ~holds(0, ⟨1,1⟩)")
            page.click("#ask-state")
            playwright.expect(page.locator("#formula-result")).to_contain_text("South knows it")
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
    # The agents' moves showed as "moved", their thoughts kept from South...
    assert page.locator("#log li.decision .thought").count() == 0
    assert page.locator("#log li.decision .hint", has_text="moved").count() > 0
    # ...until the review the end offers, with the seed as digits.
    playwright.expect(page.locator("#end-seed")).to_have_text(re.compile(r"^\d+$"))
    page.screenshot(path=str(tmp_path / "play-end.png"))
    page.click("#review-btn")
    page.wait_for_selector("#log li.decision .thought")
    playwright.expect(
        page.locator("#perspectives button[data-perspective='spectator']")
    ).to_have_class(re.compile("active"))


@pytest.mark.parametrize("width", [1280, 390])
def test_play_kwartet_with_the_keyboard_to_the_end(
    page: Any, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """South plays a whole game with Tab, Shift+Tab, Enter and Space only: at each turn the
    focus lands on an ask (visibly); once, Shift+Tab and Enter choose another opponent.
    South, who moves first: a later seat's turn may never come (the agents may take it all)."""
    expect = playwright.expect
    page.set_viewport_size({"width": width, "height": 900})
    # The same deal every run: a game one plays gets the server's seed (the seed box is for
    # watched games), and in one deal in 165 South gets a whole kind, lays it down and is
    # out of cards before its first turn.
    monkeypatch.setattr("epigames.web.builders.secrets.randbelow", lambda _: 1)
    set_game(page, "kwartet", {"players": "3", "kinds": "3"})
    start_playing(page, 0)
    before, moves = "", 0
    for _ in range(300):
        if wait_turn_or_end(page, ".ask-card", before):
            break
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
        targets = page.locator("#human-bar .target")
        if moves == 0 and targets.count() > 1:
            # Shift+Tab from the first card reaches the last opponent; Enter chooses it.
            page.keyboard.press("Shift+Tab")
            last = targets.last
            expect(last).to_be_focused()
            page.keyboard.press("Enter")
            expect(page.locator("#human-bar .target.active")).to_have_text(last.inner_text())
            expect(page.locator("#human-bar .target[aria-pressed='true']")).to_be_focused()
            page.keyboard.press("Tab")
            action = page.evaluate("document.activeElement.dataset.action")
            seat = page.eval_on_selector("#human-bar .target.active", "b => b.dataset.target")
            assert action.startswith(f"ask {seat} ")
        before = page.inner_text("#frame-label")
        page.keyboard.press(" " if moves % 2 else "Enter")
        moves += 1
    assert "Game over" in page.inner_text("#turn")
    assert moves > 0
    expect(page.locator("#end-seed")).to_have_text("1")  # the deal the test fixed
    expect(page.locator("#log li.decision .who", has_text="South (you)")).to_have_count(moves)
    # The end: every seat's moves in the log (in its colour) and every perspective open.
    check_view(page, f"a Kwartet game played to the end at {width} px")


@pytest.mark.parametrize("width", [1280, 390])
def test_play_blufpoker_with_the_keyboard_to_the_end(page: Any, tmp_path: Path, width: int) -> None:
    """Bob plays Blufpoker to its end with Enter alone: at each turn the first move has the
    focus. Bob, not Ann: Ann's opening roll is automatic, so Bob is sure to move (believe or
    call), while Ann's first turn may never come (Bob's agent calls, one penalty ends it)."""
    page.set_viewport_size({"width": width, "height": 900})
    set_game(page, "blufpoker", {"players": "2", "penalties": "1"})
    start_playing(page, 1)
    before, moves = "", 0
    for _ in range(300):
        if wait_turn_or_end(page, "button[data-action]", before):
            break
        assert page.locator("#table .bp-cupbox .die").count() > 0
        before = page.inner_text("#frame-label")
        page.keyboard.press("Enter")
        moves += 1
    assert "Game over" in page.inner_text("#turn")
    assert moves > 0
    playwright.expect(page.locator("#log li.decision .who", has_text="Bob (you)")).to_have_count(
        moves
    )
    check_view(page, f"a Blufpoker game played to the end at {width} px")
    page.screenshot(path=str(tmp_path / "blufpoker-played.png"))


def test_a_slow_start_shows_that_it_is_working(page: Any) -> None:
    """While the server creates a game (held here until the page shows it waits), the start
    buttons are off and the table says the game is being played through."""
    expect = playwright.expect
    held: list[Any] = []
    page.route("**/api/sessions", lambda route: held.append(route))
    set_game(page, "kwartet", {"players": "4", "kinds": "5"}, seed=7)
    page.select_option("#seats select[data-seat='0']", "human")  # Play is on
    expect(page.locator("#play-btn")).to_be_enabled()
    page.click("#watch-btn")
    busy = page.locator("#table .busy[role='status']")
    expect(busy).to_contain_text("Starting the game")
    expect(page.locator("#watch-btn")).to_be_disabled()
    expect(page.locator("#play-btn")).to_be_disabled()
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_selector("#table svg .seat-0")
    expect(busy).to_have_count(0)
    expect(page.locator("#watch-btn")).to_be_enabled()
    expect(page.locator("#play-btn")).to_be_enabled()


def test_readme_screenshot(page: Any, tmp_path: Path) -> None:
    """A good-looking moment for the README: mid-game, the Kripke panel open if drawn."""
    set_game(page, "kwartet", {"players": "4", "kinds": "13"}, seed=3)
    page.click("#watch-btn")
    page.wait_for_selector("#table svg .seat-0")
    # The slider reaches as far as the game is played: 30 frames ahead of the one shown.
    set_range(page, "#scrub", 30)
    wait_frame(page, 30)
    set_range(page, "#scrub", 40)
    wait_frame(page, 40)
    if KWARTET_PICTURES:
        options = page.eval_on_selector_all("#subject-select option", "os => os.map(o => o.value)")
        pick_subject(page, options[len(options) // 2])
    page.set_viewport_size({"width": 1600, "height": 1330})
    path = tmp_path / "web.png"
    page.screenshot(path=str(path))
    page.click("#matrix-btn")
    page.wait_for_selector("#matrix table, #matrix .hint")
    page.screenshot(path=str(tmp_path / "matrix.png"), full_page=True)
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, DOCS_IMG / "web.png")


# --- Klaverjas: watch and play with the keyboard -------------------------------------------


def focused_card(pg: Any, played: str = "") -> str:
    """The card of the hand that has the focus, once it has: at the person's turn after the
    one where it played `played` (until the server answers, that card keeps the focus)."""
    pg.wait_for_function(
        """played => {
            const card = document.activeElement;
            return card.matches("#table .kj-hand.playable button") && card.dataset.card !== played;
        }""",
        arg=played,
        timeout=30000,
    )
    card: str = pg.evaluate("document.activeElement.dataset.card")
    return card


def test_play_klaverjas_tricks_with_the_keyboard(page: Any, tmp_path: Path) -> None:
    """South plays two turns with Enter and Space only; trick, trump and matrix are drawn."""
    expect = playwright.expect
    set_game(page, "klaverjas", {"deals": "1"})
    start_playing(page, 2)
    # Deal 1: West deals, North names trump and leads; South's first turn is in trick 1.
    first = focused_card(page)
    hand = page.locator("#table .kj-seat.bottom .kj-hand button")
    assert hand.count() == 8
    assert page.locator("#table .kj-seat.bottom button.legal:focus").count() == 1
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"  # the focus is visible
    expect(page.locator("#table .kj-trump")).to_have_text(re.compile("^[♣♦♥♠]$"))
    # North and East have played: two cards in the trick, North marked as leader.
    expect(page.locator("#table .kj-trick .kj-card")).to_have_count(2)
    expect(page.locator("#table .kj-trick .slot[data-seat='0'] .who")).to_contain_text("leads")
    for seat in (0, 1, 3):  # other hands: backs only, counted
        expect(page.locator(f"#table .seat-{seat} .kj-card.back")).to_have_count(
            7 if seat in (0, 1) else 8
        )
        assert page.locator(f"#table .seat-{seat} .kj-card[data-card]").count() == 0
    expect(page.locator("#matrix .kj-matrix table")).to_have_count(4)
    expect(
        page.locator(f"#matrix tr[data-card='{first}'] td.known[data-seat='South']")
    ).to_have_count(1)
    page.keyboard.press("Enter")
    # South's next turn is in trick 2: trick 1, with South's card, is the last trick now.
    second = focused_card(page, played=first)
    expect(page.locator("#table .kj-last .kj-card")).to_have_count(4)
    expect(page.locator(f"#table .kj-last .kj-card[data-card='{first}']")).to_have_count(1)
    expect(page.locator("#table .kj-last .won")).to_contain_text("took it")
    expect(page.locator(f"#matrix tr[data-card='{first}']")).to_have_count(0)  # played
    assert page.locator("#log li.decision .who", has_text="South (you)").count() == 1
    # The agents' moves show as "moved"; their thoughts are theirs until the game ends.
    assert page.locator("#log li.decision .thought").count() == 0
    assert page.locator("#log li.decision .hint", has_text="moved").count() > 0
    page.keyboard.press(" ")
    expect(page.locator("#log li.decision .who", has_text="South (you)")).to_have_count(2)
    on_table = f"#table :is(.kj-trick, .kj-last) .kj-card[data-card='{second}']"
    expect(page.locator(on_table)).to_have_count(1)
    page.screenshot(path=str(tmp_path / "klaverjas-play.png"), full_page=True)


def test_klaverjas_refuses_an_illegal_card_with_the_reason(
    page: Any, app: Any, tmp_path: Path
) -> None:
    """Tab to a card the overtrump rule forbids, press Enter: the reason, and nothing lost."""
    from tests.web.test_klaverjas import overtrump_session

    expect = playwright.expect
    session, card, legal = overtrump_session(after_tricks=2)
    app.state.sessions.add(session)
    set_game(page, "klaverjas", {"deals": "1"})  # the setup as if South had started it
    page.select_option("#seats select[data-seat='2']", "human")
    page.evaluate("document.activeElement.blur()")  # the hand leaves a focused menu alone
    page.evaluate(
        """async (sid) => {
            const app = await import("/static/app.js");
            await app.openSession(() => fetch(`/api/sessions/${sid}`).then((r) => r.json()), null);
        }""",
        session.id,
    )
    start = focused_card(page)
    cards = page.eval_on_selector_all(
        "#table .kj-hand.playable button", "bs => bs.map((b) => b.dataset.card)"
    )
    expect(page.locator(f"#table .kj-hand button[data-card='{card}']")).to_have_class(
        re.compile("illegal")
    )
    step = "Tab" if cards.index(card) > cards.index(start) else "Shift+Tab"
    for _ in range(abs(cards.index(card) - cards.index(start))):
        page.keyboard.press(step)
    assert page.evaluate("document.activeElement.dataset.card") == card
    before, history = frame_label(page), list(session.history)
    mine = page.locator("#log li.decision .who", has_text="South (you)")
    made = mine.count()
    page.keyboard.press("Enter")
    refusal = page.locator("#table .kj-refusal[role='alert']")
    expect(refusal).to_contain_text(f"You must overtrump: you hold {' '.join(legal)}")
    # Nothing was played: the same frame, the card still in the hand and focused again.
    assert frame_label(page) == before and session.history == history
    expect(page.locator(f"#table .kj-hand.playable button[data-card='{card}']")).to_be_focused()
    page.set_viewport_size({"width": 1600, "height": 1330})
    path = tmp_path / "web-klaverjas.png"
    page.screenshot(path=str(path))
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, DOCS_IMG / "web-klaverjas.png")
    # Choosing again works: the legal card is played and the refusal goes.
    for _ in range(len(cards)):
        if page.evaluate("document.activeElement.dataset.card") == legal[0]:
            break
        page.keyboard.press("Tab" if cards.index(legal[0]) > cards.index(card) else "Shift+Tab")
    page.keyboard.press("Enter")
    expect(refusal).to_have_count(0)
    expect(mine).to_have_count(made + 1)


def test_klaverjas_trump_call_with_the_keyboard(page: Any) -> None:
    """In bidding North speaks first: the calls take the focus; Tab and Enter name ♦."""
    expect = playwright.expect
    set_game(page, "klaverjas", {"deals": "1"})
    page.select_option("#params [data-param='trump']", "bidding")
    page.dispatch_event("#params [data-param='trump']", "change")
    page.wait_for_selector("#seats[data-ready='1']")
    page.select_option("#seats select[data-seat='0']", "human")
    page.focus("#play-btn")
    page.keyboard.press("Enter")
    expect(page.locator("#human-bar .kj-call[data-action='trump ♣']")).to_be_focused()
    expect(page.locator("#human-bar .kj-call")).to_have_count(5)  # four suits and pass
    assert page.locator("#table .kj-hand .illegal, #table .kj-hand .legal").count() == 0
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#log li.event", has_text="North chooses ♦ as trump")).to_have_count(1)
    expect(page.locator("#table .kj-trump")).to_have_text("♦")


# --- every page on a phone and on a laptop ---------------------------------------------------


def assert_fits(pg: Any, where: str) -> None:
    """Nothing on the page is wider than the window: no horizontal scrolling."""
    width = pg.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], (
        f"{where}: the page is {width[0]} px wide in a {width[1]} px window"
    )


def assert_accessible(pg: Any, where: str) -> None:
    """axe-core finds no serious or critical violation on the page as it is now."""
    if not pg.evaluate("typeof window.axe !== 'undefined'"):
        pg.add_script_tag(path=str(AXE_JS))
    found = pg.evaluate(
        """async () => {
            const r = await axe.run(document, { resultTypes: ["violations"] });
            return r.violations.filter((v) => ["serious", "critical"].includes(v.impact))
                .map((v) => `${v.id} (${v.impact}): ${v.help}: ` +
                    v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(", "));
        }"""
    )
    assert not found, f"{where}: " + "\n".join(found)


def check_view(pg: Any, where: str) -> None:
    assert_fits(pg, where)
    assert_accessible(pg, where)


@pytest.mark.parametrize("width", [1280, 390])
def test_every_view_fits_the_window_and_passes_axe(browser: Any, server: str, width: int) -> None:
    """Kwartet watched (with its Kripke panel and matrix) and played, Blufpoker with the cup,
    Klaverjas and the tournaments page: none scrolls sideways at this width."""
    context, pg, errors = new_page(browser, server, width)
    check_view(pg, "the start page")
    set_game(pg, "kwartet", {"players": "4", "kinds": "5"}, seed=7)
    pg.click("#watch-btn")
    pg.wait_for_selector("#table svg .seat-0")
    pick_subject(pg)
    pg.click("#matrix-btn")
    pg.wait_for_selector("#matrix table")
    check_view(pg, "Kwartet watched")
    if width == 390:  # the docs' phone picture: the table and the controls under it
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        pg.locator("#page-game .center").screenshot(path=str(DOCS_IMG / "web-phone.png"))
    pg.select_option("#seats select[data-seat='0']", "human")
    pg.click("#play-btn")
    pg.wait_for_selector("#human-bar:not(.hidden) .ask-card")
    # Nothing of the watched game stays: the picture is South's, of the new game's last move.
    playwright.expect(pg.locator("#kripke-legend")).to_contain_text("South’s view")
    playwright.expect(pg.locator("#subject-select")).to_have_value("")
    check_view(pg, "Kwartet played")
    set_game(pg, "blufpoker", {}, seed=3)
    pg.click("#watch-btn")
    # Seed 3: Ann has rolled and looked; the spectator sees her dice, Bob sees a closed cup.
    cup = pg.locator("#table .bp-cupbox .bp-dice")
    playwright.expect(cup).to_have_attribute("aria-label", "under the cup: 6 5 5")
    pick_subject(pg)
    check_view(pg, "Blufpoker watched")
    pg.click("#perspectives button[data-perspective='1']")
    playwright.expect(cup).to_have_attribute(
        "aria-label", "under the cup, unseen: hidden hidden hidden"
    )
    # After Bob rolls two dice of the opening 6 5 5 (frame 2) the cup's exact model has a
    # world per roll he can have made: keeping the 6 or a 5, 21 + 21 - 6 (65x twice). Bob
    # rolled them, so he tells them all apart: drawn as groups by the highest die, 6·· of 21.
    set_range(pg, "#scrub", 2)
    wait_frame(pg, 2)
    counted = """() => [...document.querySelectorAll('#kripke .world')]
        .reduce((n, g) => n + Number(g.dataset.count || 1), 0)"""
    pg.wait_for_function(f"({counted})() === 21 + 21 - 6")
    assert pg.locator("#kripke .world").count() <= 12
    playwright.expect(pg.locator("#kripke .world[data-world='6··']")).to_have_attribute(
        "data-count", "21"
    )
    # Switched to Ann, who saw only the opening, no world stays ringed as the true one.
    pg.click("#perspectives button[data-perspective='0']")
    playwright.expect(pg.locator("#kripke-legend")).to_contain_text("Ann’s view")
    ringed = pg.locator("#kripke .world.true-world, #kripke .world.selected")
    playwright.expect(ringed).to_have_count(0)
    pg.click("#perspectives button[data-perspective='1']")
    playwright.expect(pg.locator("#kripke-legend")).to_contain_text("Bob’s view")
    check_view(pg, "Blufpoker's cup grouped")
    if width == 1280:
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(DOCS_IMG / "web-blufpoker.png"), full_page=True)
    set_game(pg, "klaverjas", {"deals": "1"}, seed=3)
    pg.click("#watch-btn")
    pg.wait_for_selector("#table .kj-seat.bottom .kj-card")
    pg.wait_for_selector("#matrix .kj-matrix table")
    check_view(pg, "Klaverjas watched")
    pg.click("#tab-tournaments")
    pg.wait_for_selector("#page-tournaments:not(.hidden)")
    check_view(pg, "the tournaments page")
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_a_tournament_on_a_phone_and_a_laptop(page: Any) -> None:
    """Start a small tournament on duplicate seats from the form, open it with the keyboard,
    watch one game: its summary, with the comparisons on the same cards, fits and passes
    axe at 390 and 1280 px."""
    expect = playwright.expect
    page.click("#tab-tournaments")
    page.fill("#t-name", "phone")
    page.fill("#t-games", "12")
    page.fill("#t-strategies", "random,greedy,random,greedy")
    page.select_option("#t-seats", "duplicate")
    page.click("#t-start")
    expect(page.locator("#t-progress")).to_contain_text("done", timeout=60000)
    pick = page.locator("#tournament-list tr[data-name='phone'] .pick-btn")
    pick.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#tournament-detail h2")).to_contain_text("phone")
    expect(page.locator("#tournament-detail")).to_contain_text("duplicate seats")
    expect(page.locator("#tournament-detail table").nth(2)).to_contain_text("random − greedy")
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        check_view(page, f"a tournament's summary at {width} px")
    page.locator("#tournament-detail button.watch-game").first.click()
    page.wait_for_selector("#table svg .seat-0")
    expect(page.locator("#origin")).to_contain_text("phone")


# --- Klaverjas: a whole game by keyboard ------------------------------------------------------


@pytest.mark.parametrize("width", [1280, 390])
def test_play_a_whole_klaverjas_game_with_the_keyboard(page: Any, width: int) -> None:
    """South plays all eight cards of a one-deal game with Enter and Space only, at 1280 and
    390 px: each turn the focus lands on a legal card; at the end the result and the score
    show, and the page fits the window."""
    expect = playwright.expect
    page.set_viewport_size({"width": width, "height": 900})
    set_game(page, "klaverjas", {"deals": "1"})
    start_playing(page, 2)
    played = ""
    for turn in range(8):  # eight tricks: South plays one card in each
        played = focused_card(page, played)
        assert page.locator("#table .kj-seat.bottom button.legal:focus").count() == 1
        page.keyboard.press(" " if turn % 2 else "Enter")
    over = page.locator("#table .kj-over[role='status']")
    expect(over).to_contain_text(re.compile(r"Game over · (a tie|.+ win)"))
    expect(page.locator("#log li.decision .who", has_text="South (you)")).to_have_count(8)
    assert page.locator("#table .kj-hand button").count() == 0  # every card was played
    totals = page.eval_on_selector_all(
        "#table .kj-score td.total", "cells => cells.map((c) => Number(c.textContent))"
    )
    # A deal hands out 162 card points (152 in the tricks, 10 for the last), or 0 to one
    # team and the rest to the other when the playing team goes down ("nat"), plus roem.
    assert len(totals) == 2 and sum(totals) >= 162
    check_view(page, f"a whole Klaverjas game at {width} px")


# --- Kwartet on a phone -----------------------------------------------------------------------


def too_small_to_tap(pg: Any) -> list[str]:
    """The visible controls of the game page smaller than 44 × 44 px (a checkbox counts as
    its label; a link inside a sentence is exempt, as WCAG's target-size rule allows)."""
    found: list[str] = pg.evaluate(
        """() => [...document.querySelectorAll('#page-game :is(button, select, input, a)')]
            .filter((el) => el.getClientRects().length && !(el.tagName === 'A' && el.closest('p')))
            .map((el) => el.type === 'checkbox' ? el.closest('label') || el : el)
            .map((el) => [el, el.getBoundingClientRect()])
            .filter(([el, r]) => r.width < 44 || r.height < 44)
            .map(([el, r]) => `${el.tagName.toLowerCase()}#${el.id}.${el.className} ` +
                 `${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    return found


def assert_stacked(pg: Any, selectors: list[str]) -> None:
    """The parts are one above the other, in this order, each (nearly) the page's width."""
    boxes = [pg.locator(s).bounding_box() for s in selectors]
    width = pg.evaluate("window.innerWidth")
    for s, box in zip(selectors, boxes, strict=True):
        assert box is not None and box["width"] >= 0.85 * width, f"{s}: {box} in {width} px"
    for k in range(1, len(boxes)):
        above, below = boxes[k - 1], boxes[k]
        assert above is not None and below is not None
        assert above["y"] + above["height"] <= below["y"] + 1, (
            f"{selectors[k - 1]} overlaps {selectors[k]} or comes after it"
        )


def assert_cards_readable(pg: Any) -> None:
    """Cards on the table (hands and kinds laid down) are drawn at full size: 44 px wide at
    least, their kind 16 px high."""
    sizes = pg.eval_on_selector_all(
        "#table .card",
        """cards => cards.map((c) => {
            const big = c.querySelectorAll('text')[1];
            return [c.getBoundingClientRect().width, big ? big.getBoundingClientRect().height : 99];
        })""",
    )
    assert sizes
    assert min(w for w, _ in sizes) >= 44, sizes[:5]
    assert min(t for _, t in sizes) >= 16, sizes[:5]


@pytest.mark.parametrize("width", [390, 360])
def test_kwartet_on_a_phone(browser: Any, server: str, width: int) -> None:
    """A 13-kind Kwartet game watched and played at phone width: the seats stacked with their
    hands in rows of readable cards, then the ask picker, then the Kripke picture; no
    sideways scrolling; every control 44 px at least. At 390 px the docs' pictures."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/#games")
    pg.wait_for_selector("body[data-ready='1']")
    set_game(pg, "kwartet", {"players": "4", "kinds": "13"}, seed=5)
    pg.click("#watch-btn")
    pg.wait_for_selector("#table .kw-stack svg .seat-3")
    pick_subject(pg)
    # The spectator sees four hands of 13 cards, one seat under the other.
    assert_stacked(pg, [f"#table .kw-stack svg:has(.seat-{s})" for s in range(4)])
    assert pg.locator("#table .seat-0 .card title").count() == 13
    assert_cards_readable(pg)
    assert_stacked(pg, ["#table", "#controls", "#kripke"])
    assert_fits(pg, f"Kwartet watched at {width} px")
    assert too_small_to_tap(pg) == []
    if width == 390:
        pg.locator("#page-game .center").screenshot(path=str(DOCS_IMG / "web-kwartet-phone.png"))
    pg.click("#end-btn")  # every kind laid down: drawn full-size too, with the result
    playwright.expect(pg.locator("#table .kw-over")).to_contain_text("Game over")
    assert pg.locator("#table svg[aria-label='kinds laid down'] .card").count() == 26
    assert_cards_readable(pg)
    assert_fits(pg, f"a finished Kwartet game at {width} px")
    pg.select_option("#seats select[data-seat='0']", "human")
    pg.click("#play-btn")
    pg.wait_for_selector("#human-bar:not(.hidden) .ask-card")
    pick_subject(pg)
    assert pg.locator("#table .kw-stack svg").count() >= 4  # South's hand face up, the backs
    assert_cards_readable(pg)
    assert_stacked(pg, ["#table", "#human-bar", "#controls", "#kripke"])
    assert_fits(pg, f"Kwartet played at {width} px")
    assert too_small_to_tap(pg) == []
    if width == 390:
        pg.locator("#page-game .center").screenshot(
            path=str(DOCS_IMG / "web-kwartet-phone-play.png")
        )
    # A tap on an ask makes the move: South's first decision is in the log.
    pg.locator("#human-bar .ask-card").first.click()
    playwright.expect(pg.locator("#log li.decision .who", has_text="South (you)")).to_have_count(1)
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


# --- Kemps: whole games by keyboard -------------------------------------------------------------

#: A played game's seed is the server's (a random one), so a person who only ends turns
#: could leave a Kemps game running to its 1,000-turn cap: `max_turns` bounds every game.
KEMPS_CAP = "24"
#: The seeds the server gives the two Kemps games below (with a random one, a game could
#: end before the person's second turn): ones where the person moves often.
KEMPS_SEED = KEMPS_TEAM_SEED = 1


def kemps_context(
    browser: Any, server: str, width: int, monkeypatch: pytest.MonkeyPatch, seed: int
) -> tuple[Any, Any, list[str]]:
    """A page at `width` whose played games get `seed` from the server (in this process)."""
    monkeypatch.setattr("epigames.web.builders.secrets.randbelow", lambda _: seed)
    return new_page(browser, server, width)


def kemps_human_turns(pg: Any, on_turn: Any) -> int:
    """Take the person's turns until the game is over: `on_turn()` may Tab to another move,
    then Enter makes the focused one. Returns how many moves the person made."""
    before = ""
    for moves in range(400):
        if wait_turn_or_end(pg, "button[data-action]", before):
            return moves
        before = pg.inner_text("#frame-label")
        on_turn()
        pg.keyboard.press("Enter")
    raise AssertionError("the game did not end within 400 of the person's moves")


@pytest.mark.parametrize("width", [1280, 390])
def test_play_kemps_with_the_keyboard_to_the_end(
    browser: Any, server: str, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """West plays a short Kemps game to its end with Tab and Enter only: one swap (the
    second move, spelled out against the table), then "done" (the first, which has the
    focus) each turn. The page fits the window and passes axe, the table and hands drawn;
    after the swap both cards move, each from where it came."""
    expect = playwright.expect
    context, pg, errors = kemps_context(browser, server, width, monkeypatch, KEMPS_SEED)
    set_game(pg, "kemps", {"ranks": "5", "max_turns": KEMPS_CAP}, agents="greedy")
    start_playing(pg, 1)
    swapped: list[str] = []

    def on_turn() -> None:
        expect(pg.locator("#table .kp-slot")).to_have_count(6)
        expect(pg.locator("#table .kp-seat[data-seat='1'] .kp-card:not(.back)")).to_have_count(4)
        if len(swapped) == 1:  # the frame after the swap: both cards moved, from where
            slot = swapped[0].split(" ")[1]
            moved = pg.locator("#table .kp-slot .kp-card.kp-changed")
            expect(moved).to_have_attribute("data-from", "West's hand")
            taken = pg.locator("#table .kp-seat[data-seat='1'] .kp-card[data-from]")
            expect(taken).to_have_attribute("data-from", f"slot {slot}")
            swapped.append("seen")
        if not swapped:
            pg.keyboard.press("Tab")
            swap = pg.evaluate("document.activeElement.dataset.action")
            slot, card = swap.removeprefix("swap ").split(" ")
            taken = pg.inner_text(f"#table .kp-slot:nth-child({slot}) .kp-card").replace("\n", "")
            label = pg.evaluate("document.activeElement.textContent")
            assert label == f"take {taken} from slot {slot}, put down {card}"
            swapped.append(swap)
            check_view(pg, f"a Kemps turn at {width} px")

    moves = kemps_human_turns(pg, on_turn)
    assert "Game over" in pg.inner_text("#turn")
    assert swapped == [swapped[0], "seen"] and moves >= 2  # the swap, and its frame checked
    expect(pg.locator("#log li.decision .who", has_text="West (you)")).to_have_count(moves)
    expect(pg.locator("#matrix table")).to_have_count(1)  # where each card can be
    check_view(pg, f"a Kemps game played to the end at {width} px")
    if width == 1280:
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(DOCS_IMG / "web-kemps.png"), full_page=True)
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.mark.parametrize("width", [1280, 390])
def test_play_the_kemps_team_game_with_the_keyboard(
    browser: Any, server: str, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """West plays the team game to its end by keyboard: in its first call window it Tabs to
    "Stop Kemps!" against an opponent and calls it (right or wrong, the log says so); after
    that Enter takes the first move ("done", "pass")."""
    expect = playwright.expect
    context, pg, errors = kemps_context(browser, server, width, monkeypatch, KEMPS_TEAM_SEED)
    params = {"players": "4", "table": "4", "ranks": "5", "max_turns": KEMPS_CAP}
    set_game(pg, "kemps", params, agents="greedy")
    pg.check("#params [data-param='teams']")
    pg.dispatch_event("#params [data-param='teams']", "change")
    pg.wait_for_selector("#seats[data-ready='1']")
    for select in pg.query_selector_all("#seats select"):
        select.select_option("greedy")
    start_playing(pg, 1)
    called: list[str] = []

    def on_turn() -> None:
        expect(pg.locator("#table .kp-slot")).to_have_count(4)
        stop = pg.locator("#human-bar button[data-action^='stop']")
        if not called and stop.count():
            while not pg.evaluate("document.activeElement.dataset.action").startswith("stop"):
                pg.keyboard.press("Tab")
            label = pg.evaluate("document.activeElement.textContent")
            assert label.startswith("call Stop Kemps! against ")
            called.append(label)
            check_view(pg, f"a Kemps call window at {width} px")

    moves = kemps_human_turns(pg, on_turn)
    assert "Game over" in pg.inner_text("#turn")
    assert called and moves >= 2
    expect(pg.locator("#log li.decision .who", has_text="West (you)")).to_have_count(moves)
    expect(pg.locator("#log li", has_text="Stop Kemps")).not_to_have_count(0)
    check_view(pg, f"a Kemps team game played to the end at {width} px")
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


#: WCAG's contrast of two CSS colours as the page paints them (read back from a canvas, so
#: `color-mix()` and named colours count as drawn). Ends with `contrast(fg, bg)` in scope.
CONTRAST_JS = """
const rgb = (css) => {
  const c = document.createElement("canvas").getContext("2d");
  c.fillStyle = css; c.fillRect(0, 0, 1, 1);
  return [...c.getImageData(0, 0, 1, 1).data.slice(0, 3)];
};
const lum = (css) => rgb(css).map((v) => v / 255)
  .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
  .reduce((s, v, i) => s + [0.2126, 0.7152, 0.0722][i] * v, 0);
const contrast = (fg, bg) => { const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05); };
"""


def test_kemps_matrix_and_felt_text_keep_aa_contrast(browser: Any, server: str) -> None:
    """Every shaded cell of each seat's knowledge matrix and the pile counts on the felt keep
    4.5:1. axe leaves short cells ("1") and text on the felt's gradient undecided, so the
    contrast is computed here too; the felt's own colours are the gradient's stops."""
    context, pg, errors = new_page(browser, server, 1600)
    set_game(pg, "kemps", {"ranks": "5", "max_turns": "24"}, seed=1, agents="greedy")
    pg.click("#watch-btn")
    pg.wait_for_selector("#table .kp-slot")
    set_range(pg, "#scrub", 6)
    wait_frame(pg, 6)
    pg.wait_for_selector("#matrix table")
    low: list[str] = []
    for agent in ("South", "West", "North"):
        pg.click(f"#matrix-agents button[data-agent='{agent}']")
        pg.wait_for_selector(f"#matrix th:text('{agent}: P(holder)')")
        low += pg.evaluate(
            "() => {"
            + CONTRAST_JS
            + """
            return [...document.querySelectorAll("#matrix td[style*='background']")]
              .map((td) => [td.title, contrast(getComputedStyle(td).color,
                                                getComputedStyle(td).backgroundColor)])
              .filter(([, c]) => c < 4.5).map(([t, c]) => `${t}: ${c.toFixed(2)}`);
            }"""
        )
    assert not low, f"matrix cells under 4.5:1: {low[:6]} ({len(low)} in all)"
    # The piles' text has a solid background of its own, darker than the felt anywhere.
    piles = pg.evaluate(
        "() => {"
        + CONTRAST_JS
        + """
        const piles = document.querySelector("#table .kp-piles");
        const root = getComputedStyle(document.documentElement);
        const felt = ["#27935d", ...["--felt", "--felt-dark"].map((v) => root.getPropertyValue(v))];
        const bg = getComputedStyle(piles).backgroundColor;
        return { bg, darker: felt.every((f) => lum(bg) < lum(f)),
          low: [...piles.querySelectorAll("span, b")]
            .map((e) => contrast(getComputedStyle(e).color, bg)).filter((c) => c < 4.5) };
        }"""
    )
    assert piles["bg"] not in ("rgba(0, 0, 0, 0)", "transparent") and piles["darker"], piles
    assert not piles["low"], piles
    assert_accessible(pg, "Kemps watched with its matrix")
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.mark.parametrize("players", ["4", "6"])
def test_kwartet_game_over_banner_leaves_the_plates_free(
    browser: Any, server: str, players: str
) -> None:
    """At the end of a watched Kwartet game the result overlaps no seat's name plate (it
    covered North's at the top), and Pause is drawn: Debian's fonts have no ⏸."""
    context, pg, errors = new_page(browser, server, 1280)
    set_game(pg, "kwartet", {"players": players, "kinds": "5"}, seed=7)
    pg.click("#watch-btn")
    pg.wait_for_selector("#table svg .seat-0")
    pg.click("#play-pause-btn")
    button = pg.locator("#play-pause-btn")
    playwright.expect(button).to_have_text(re.compile("Pause"))
    assert button.locator("svg.icon rect").count() == 2 and "⏸" not in button.inner_text()
    pg.click("#end-btn")
    pg.wait_for_selector("#table svg g.over")
    overlaps = pg.evaluate(
        """() => {
        const over = document.querySelector("#table svg g.over").getBoundingClientRect();
        return [...document.querySelectorAll("#table svg .plate")]
          .map((p) => p.getBoundingClientRect())
          .filter((r) => r.left < over.right && over.left < r.right
                      && r.top < over.bottom && over.top < r.bottom).length;
        }"""
    )
    assert overlaps == 0
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_without_a_results_folder_the_tournament_form_says_why_it_is_off(
    app: Any, page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server started without --db-dir cannot store a tournament: Start is disabled and
    the page says what to do, instead of a form whose every start fails."""
    expect = playwright.expect
    monkeypatch.setattr(app.state.tournaments, "root", None)
    page.click("#tab-tournaments")
    expect(page.locator("#t-unavailable")).to_contain_text("epigames serve --db-dir")
    expect(page.locator("#t-start")).to_be_disabled()
    expect(page.locator("#t-game")).to_be_disabled()
    assert_accessible(page, "the tournaments page without --db-dir")
    monkeypatch.undo()
    page.click("#tab-game")
    page.click("#tab-tournaments")
    expect(page.locator("#t-start")).to_be_enabled()
    expect(page.locator("#t-unavailable")).to_be_hidden()
