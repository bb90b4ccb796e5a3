"""Tables in Chromium: several browser contexts, one person each, at one game.

Each context records every JSON answer and WebSocket message it receives; what a seat was
sent while the game ran must equal that seat's view of the same game replayed (as
`test_tables` checks in-process), with no other seat's hand or thought in it. A real
server is killed with SIGKILL mid-game and started again on the same port and file: the
browsers reconnect by themselves and the game goes on to its end.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import subprocess
import sys
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from epigames.web import views
from epigames.web.builders import replay_session
from epigames.web.session import Session
from epigames.web.tables import Table
from tests.web.test_browser import (  # the same server, browser and checks
    DOCS_IMG,
    app,
    browser,
    check_view,
    new_page,
    playwright,
    server,
    set_range,
)
from tests.web.test_server_bounds import Server, _start
from tests.web.test_tables import as_replayed

__all__ = ["app", "browser", "server"]

expect = playwright.expect

#: A legal move of any renderer: the picker's buttons, or Klaverjas' playable cards.
LEGAL = (
    "#human-bar:not(.hidden) button[data-action], "
    "#table .kj-hand.playable button.legal:not(:disabled)"
)
FRAME = re.compile(r"/frames/-?\d+$")
#: Long enough for a loaded 2-core machine; the waits end as soon as their condition holds.
WAIT_MS = 60_000


@dataclass
class Seat:
    """A browser context at a table, and everything it was sent."""

    seat: int | None
    context: Any
    page: Any
    errors: list[str]
    answers: list[tuple[str, Any]] = field(default_factory=list)
    pushes: list[Any] = field(default_factory=list)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, f"JavaScript errors at seat {self.seat}: {self.errors}"


def record(pg: Any, seat: Seat) -> None:
    def answer(response: Any) -> None:
        kind = response.headers.get("content-type", "")
        if "/api/tables" in response.url and kind.startswith("application/json"):
            # The context may close under an answer still arriving.
            with contextlib.suppress(playwright.Error):
                seat.answers.append((response.url, response.json()))

    def socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: seat.pushes.append(json.loads(payload)))

    pg.on("response", answer)
    pg.on("websocket", socket)


def open_seat(browser: Any, base: str, link: str, seat: int | None, width: int = 1280) -> Seat:
    """A new context at an invite link (recorded from its first request)."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    at = Seat(seat, context, pg, errors)
    record(pg, at)
    pg.goto(link)
    pg.wait_for_selector("body[data-ready='1']")
    pg.wait_for_selector("#tp-link[data-state='live']", timeout=WAIT_MS)
    set_range(pg, "#speed", 20)
    return at


def create_table(
    browser: Any, base: str, game: str, params: dict[str, str], seats: list[str], width: int = 1280
) -> tuple[Seat, dict[int, str]]:
    """The creator fills the form (`seats`: "you", "friend" or an agent) and opens the
    table; returns the creator's seat and every person seat's invite link."""
    context, pg, errors = new_page(browser, base, width, "/#table", height=900)
    creator = Seat(seats.index("you"), context, pg, errors)
    record(pg, creator)
    pg.wait_for_selector("#page-tables:not(.hidden)")
    pg.select_option("#tb-game", game)
    for name, value in params.items():
        pg.fill(f"#tb-params [data-param='{name}']", value)
        pg.dispatch_event(f"#tb-params [data-param='{name}']", "change")
    pg.wait_for_function(
        "n => document.querySelector('#tb-seats').dataset.ready === '1' &&"
        " document.querySelectorAll('#tb-seats select').length === n",
        arg=len(seats),
    )
    for i, who in enumerate(seats):
        pg.select_option(f"#tb-seats select[data-seat='{i}']", who)
    pg.click("#tb-create")
    pg.wait_for_selector("#tp-invites", timeout=WAIT_MS)
    pg.wait_for_selector("#tp-link[data-state='live']", timeout=WAIT_MS)
    set_range(pg, "#speed", 20)
    links = {
        i: pg.input_value(f"#invite-{i}") for i, who in enumerate(seats) if who in ("you", "friend")
    }
    assert all(f"#table/{tid_of(pg)}/" in link for link in links.values())
    return creator, links


def tid_of(pg: Any) -> str:
    return str(pg.evaluate("location.hash.split('/')[1]"))


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=600) as r:
        return json.loads(r.read())


def play_through(base: str, tid: str, token: str, seats: dict[int, Seat], seed: int = 1) -> int:
    """Whoever is to move clicks one of their legal moves (at random: always the first
    can go round in circles), until the game is over; each move is awaited on the table's
    long poll. Returns the people's moves."""
    rng = random.Random(seed)
    moves = 0
    status = get(base, f"/api/tables/{tid}?token={token}")
    while not status["finished"]:
        status = make_move(base, tid, token, status, seats, rng)
        moves += 1
    return moves


def make_move(
    base: str,
    tid: str,
    token: str,
    status: dict[str, Any],
    seats: dict[int, Seat],
    rng: random.Random,
) -> dict[str, Any]:
    """The seat to move clicks a legal move; returns the status once the table changed.

    A click that lands as the page redraws may send nothing: then the version stays as it
    was past a long poll (20 s), and the seat is asked again, a few times.
    """
    for _ in range(CLICK_TRIES):
        click_a_legal_move(seats[status["to_move"]], rng, status, seats)
        after: dict[str, Any] = get(
            base, f"/api/tables/{tid}/changes?token={token}&after={status['version']}"
        )
        if after["version"] != status["version"]:
            return after
    raise AssertionError(f"{CLICK_TRIES} clicks made no move at {status}: {describe(seats)}")


#: How often a seat's click is tried before the test says no move was made.
CLICK_TRIES = 5


def click_a_legal_move(
    at: Seat, rng: random.Random, status: dict[str, Any], seats: dict[int, Seat]
) -> None:
    """Click one of the seat's legal moves, at random, once the page offers them (it has
    played the agents' moves up to its turn)."""
    try:
        # A page that lags behind still shows an earlier frame, whose buttons a redraw
        # replaces: count them once the page shows the frame the server is at.
        last = status["last_frame"]
        expect(at.page.locator("#frame-label")).to_have_text(
            f"move {last} / {last}", timeout=WAIT_MS
        )
        legal, offered = at.page.locator(LEGAL), 0
        while not offered:  # a redraw may come between the wait and the count
            legal.first.wait_for(timeout=WAIT_MS)
            offered = legal.count()
        legal.nth(rng.randrange(offered)).click(timeout=WAIT_MS)
    except playwright.Error as exc:
        raise AssertionError(f"no move offered to {status}: {describe(seats)}") from exc


def describe(seats: dict[int, Seat]) -> str:
    """What each page shows: for a failure's message."""
    shown = {
        s: at.page.evaluate(
            """() => [document.querySelector('#frame-label').textContent,
                document.querySelector('#turn').textContent,
                document.querySelector('#human-bar').className,
                document.querySelector('#tp-link').dataset.state,
                document.querySelector('#status').textContent,
                document.querySelectorAll('#table .kj-hand.playable').length + ' playable hands',
                document.querySelectorAll('#table button.legal').length + ' legal buttons',
                document.querySelectorAll('#table button:disabled').length + ' disabled']"""
        )
        for s, at in seats.items()
    }
    return json.dumps(shown, ensure_ascii=False)


def wait_for_the_end(seats: list[Seat]) -> None:
    """Every page shows the result dialog, the game replayed with everything shown."""
    for at in seats:
        expect(at.page.locator("#result[open]")).to_be_visible(timeout=WAIT_MS)
        expect(at.page.locator("#result-title")).to_contain_text("Game over")


def check_no_peeking(seats: list[Seat], table: Table) -> None:
    """What each context was sent while the game ran is its seat's view of the same game
    replayed (nothing more), and no other seat's thought is in it; what was pushed is the
    table's status only."""
    live = table.session
    status_keys = {*table.status(), "seat", "seat_name"}
    game = str(live.game)
    replays: dict[int, Session] = {}

    def replayed_to(last: int) -> Session:
        if last not in replays:
            replays[last] = replay_session(game, live.history[: live.frames[last]])
        return replays[last]

    end = replay_session(game, live.history)
    finished = views.frame_json(end, -1, None)
    for at in seats:
        assert at.seat is not None
        running = [
            i
            for i, (url, data) in enumerate(at.answers)
            if FRAME.search(urlsplit(url).path) and not data["finished"]
        ]
        assert running, f"seat {at.seat} was sent no frame while the game ran"
        checked = 0
        for url, data in at.answers[: running[-1] + 1]:
            parts = urlsplit(url)
            query = parse_qs(parts.query)
            if FRAME.search(parts.path):
                if data["finished"]:
                    continue
                replay = replayed_to(data["last_frame"])
                since = int(query.get("since", ["0"])[0])
                expected = views.frame_json(replay, data["frame"], at.seat, since)
                assert as_replayed(data) == as_replayed(expected), (at.seat, url)
                assert set(data["table"]["views"]) == {str(at.seat)} and "seed" not in data
                checked += 1
            elif parts.path.endswith("/matrix"):
                frame = int(parts.path.split("/")[-2])
                assert data == views.matrix_json(end, frame, at.seat), (at.seat, url)
            elif parts.path.endswith("/picture"):
                frame = int(parts.path.split("/")[-2])
                subject = query["subject"][0]
                picture = views.picture_json(views.get_picture(end, frame, subject, at.seat))
                assert data == {**picture, "frame": frame}, (at.seat, url)
        assert checked >= 2
        others = {
            e["thought"]
            for e in finished["log"]
            if e["type"] == "decision" and e["seat"] != at.seat and len(e["thought"]) > 12
        }
        sent = json.dumps([data for _, data in at.answers[: running[-1] + 1]], ensure_ascii=False)
        assert not [t for t in others if t in sent], f"seat {at.seat} was sent another's thought"
        for push in at.pushes:
            assert set(push) <= status_keys and push["seat"] == at.seat, push


def start_on(port: int, *options: str) -> Server:
    """`epigames serve` again on a given port (`_start` picks a free one): the browsers'
    links and sockets name the old server's port."""
    cmd = [sys.executable, "-c", "from epigames.cli import main; main()", "serve"]
    proc = subprocess.Popen(
        [*cmd, "--port", str(port), *options], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    server = Server(proc, port)
    while proc.poll() is None:
        with contextlib.suppress(OSError):
            if server.request("GET", "/api/health")[0] == 200:
                return server
        with contextlib.suppress(subprocess.TimeoutExpired):  # not up yet: ask again soon
            proc.wait(0.1)
    raise AssertionError(f"the server did not start again: {proc.stderr.read().decode()}")  # type: ignore[union-attr]


def sit_down(
    browser: Any, base: str, creator: Seat, links: dict[int, str], width: int
) -> dict[int, Seat]:
    seats = {creator.seat: creator}
    for s, link in links.items():
        if s != creator.seat:
            seats[s] = open_seat(browser, base, link, s, width)
    return seats


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


@pytest.mark.parametrize(
    "who",
    [["you", "tactics", "friend", "tactics"], ["you", "friend", "friend", "friend"]],
    ids=["two-people-two-agents", "four-people"],
)
def test_four_contexts_play_a_whole_klaverjas_match(
    browser: Any, server: str, app: Any, who: list[str]
) -> None:
    creator, links = create_table(browser, server, "klaverjas", {"deals": "1"}, who)
    tid = tid_of(creator.page)
    seats = sit_down(browser, server, creator, links, 1280)
    try:
        # Nobody sees another seat's cards: each page shows one face-up hand, its own.
        for at in seats.values():
            expect(at.page.locator("#table .kj-seat.bottom .kj-card").first).to_be_visible()
            expect(at.page.locator("#perspectives .seen-by")).to_contain_text("(you)")
        moves = play_through(server, tid, token_of(links[0]), seats)
        # Four people make every move: the trump call, then the 32 cards.
        assert moves == 33 if "tactics" not in who else moves >= 9
        wait_for_the_end(list(seats.values()))
        check_no_peeking(list(seats.values()), app.state.tables.get(tid))
        for at in seats.values():  # the review: every hand and every thought, to everyone
            expect(at.page.locator("#perspectives .seen-by")).to_contain_text("everyone")
            if "tactics" in who:
                expect(at.page.locator("#log .thought").first).to_be_visible()
    finally:
        for at in seats.values():
            at.close()


def test_three_people_play_kwartet_on_phones(browser: Any, server: str, app: Any) -> None:
    creator, links = create_table(
        browser, server, "kwartet", {"players": "3", "kinds": "4"}, ["you", "friend", "friend"], 390
    )
    tid = tid_of(creator.page)
    seats = sit_down(browser, server, creator, links, 390)
    try:
        assert play_through(server, tid, token_of(links[0]), seats) > 3
        wait_for_the_end(list(seats.values()))
        check_no_peeking(list(seats.values()), app.state.tables.get(tid))
    finally:
        for at in seats.values():
            at.close()


def test_a_killed_server_comes_back_and_every_browser_with_it(browser: Any, tmp_path: Path) -> None:
    """SIGKILL mid-game, the same port and file again: each page reconnects by itself (its
    WebSocket, tried again and again) and the game goes on to its end with no move lost."""
    db = tmp_path / "tables.sqlite"
    first = _start("--tables", str(db))
    base = f"http://127.0.0.1:{first.port}"
    seats: dict[int, Seat] = {}
    second = None
    try:
        creator, links = create_table(
            browser, base, "kwartet", {"players": "3", "kinds": "4"}, ["you", "friend", "greedy"]
        )
        tid = tid_of(creator.page)
        seats = sit_down(browser, base, creator, links, 1280)
        token = token_of(links[0])
        status = get(base, f"/api/tables/{tid}?token={token}")
        rng = random.Random(2)
        for _ in range(3):
            status = make_move(base, tid, token, status, seats, rng)
        before = get(base, f"/api/tables/{tid}/frames/-1?token={token}")
        first.proc.kill()  # SIGKILL: no shutdown of any kind
        first.proc.wait()
        for at in seats.values():
            expect(at.page.locator("#tp-link")).to_have_attribute(
                "data-state", "polling", timeout=WAIT_MS
            )
        second = start_on(first.port, "--tables", str(db))
        for at in seats.values():
            expect(at.page.locator("#tp-link")).to_have_attribute(
                "data-state", "live", timeout=WAIT_MS
            )
        again = get(base, f"/api/tables/{tid}/frames/-1?token={token}")
        assert again["last_frame"] == before["last_frame"] and again["log"] == before["log"]
        play_through(base, tid, token, seats)
        wait_for_the_end(list(seats.values()))
        end = get(base, f"/api/tables/{tid}/frames/-1?token={token}")
        moved = [e for e in end["log"] if e["type"] == "decision"]
        mine = [e for e in before["log"] if e["type"] == "decision"]
        # The moves before the kill are the game's first, by the same seats; South's own
        # are named (another seat's move is blank in South's view while the game ran).
        assert len(moved) > len(mine) >= 3
        for b, e in zip(mine, moved, strict=False):
            assert b["seat"] == e["seat"] and b["action"] in ("", e["action"]), (
                b,
                e,
            )  # no move lost
    finally:
        for at in seats.values():
            at.close()
        for srv in (first, second):
            if srv is not None and srv.proc.poll() is None:
                srv.proc.kill()
                srv.proc.wait()


@pytest.mark.parametrize("width", [1280, 390, 360])
def test_the_table_pages_fit_and_pass_axe(browser: Any, server: str, width: int) -> None:
    context, pg, errors = new_page(browser, server, width)
    pg.click("#tab-tables")
    pg.wait_for_selector("#page-tables:not(.hidden) #tb-seats[data-ready='1']")
    check_view(pg, f"the table form at {width} px")
    context.close()
    assert not errors, errors
    creator, links = create_table(
        browser,
        server,
        "kwartet",
        {"players": "3", "kinds": "4"},
        ["you", "friend", "greedy"],
        width,
    )
    friend = open_seat(browser, server, links[1], 1, width)
    watch = creator.page.input_value("#invite-watch")
    spectator = open_seat(browser, server, watch, None, width)
    try:
        expect(creator.page.locator("#tp-invites .invite")).to_have_count(2)
        creator.page.wait_for_selector("#table svg, #table .kw-stack")
        check_view(creator.page, f"the invite links and the creator's seat at {width} px")
        friend.page.wait_for_selector("#table svg, #table .kw-stack")
        check_view(friend.page, f"a friend's seat at {width} px")
        # The spectator sees the public state, no hand: the renderers' seat views are absent.
        expect(spectator.page.locator("#table .pub-table .pub-part").first).to_be_visible()
        expect(spectator.page.locator("#perspectives .seen-by")).to_contain_text("spectator")
        check_view(spectator.page, f"a spectator's view at {width} px")
        if width == 1280:
            check_coach_and_leaving(creator)
    finally:
        creator.close()
        friend.close()
        spectator.close()


def test_the_seats_chosen_stay_when_a_parameter_changes_late(browser: Any, server: str) -> None:
    """A number input's change event comes on blur, often after the seats were chosen: the
    redrawn seat list keeps every choice (a lost one made a friend of an agent's seat)."""
    context, pg, errors = new_page(browser, server, 1280, "/#table")
    pg.wait_for_selector("#page-tables:not(.hidden)")
    pg.select_option("#tb-game", "kwartet")

    def players(n: int) -> list[str]:
        pg.fill("#tb-params [data-param='players']", str(n))
        pg.dispatch_event("#tb-params [data-param='players']", "change")
        pg.wait_for_function(
            "n => document.querySelector('#tb-seats').dataset.ready === '1' &&"
            " document.querySelectorAll('#tb-seats select').length === n",
            arg=n,
        )
        return list(pg.eval_on_selector_all("#tb-seats select", "ss => ss.map((s) => s.value)"))

    assert players(4) == ["you", "friend", "friend", "friend"]
    pg.select_option("#tb-seats select[data-seat='3']", "you")
    pg.select_option("#tb-seats select[data-seat='2']", "greedy")
    assert players(4) == ["friend", "friend", "greedy", "you"]
    # Fewer seats than the one chosen for "you": the first seat is yours again.
    assert players(3) == ["you", "friend", "greedy"]
    context.close()
    assert not errors, errors


def check_coach_and_leaving(at: Seat) -> None:
    """At the seat's turn the coach names a legal move; the seat goes to an agent and back."""
    pg = at.page
    pg.locator(LEGAL).first.wait_for(timeout=WAIT_MS)
    legal = pg.eval_on_selector_all(LEGAL, "bs => bs.map((b) => b.dataset.action)")
    pg.select_option("#tp-coach-strategy", "greedy")
    pg.click("#tp-coach")
    answer = pg.locator("#tp-coach-answer .tp-coach-action")
    expect(answer).to_be_visible(timeout=WAIT_MS)
    # The picker offers the asks of the chosen opponent; the coach may ask another.
    assert answer.inner_text().split()[0] == legal[0].split()[0]
    pg.select_option("#tp-leave-strategy", "greedy")
    pg.click("#tp-leave")
    expect(pg.locator("#tp-back")).to_be_visible(timeout=WAIT_MS)
    expect(pg.locator("#table-panel .tp-seats")).to_contain_text("greedy plays for now")
    pg.click("#tp-back")
    expect(pg.locator("#tp-coach")).to_be_visible(timeout=WAIT_MS)


def test_a_friend_who_never_came_is_played_by_an_agent(browser: Any, server: str) -> None:
    """A friend's link never opened: the seat is away, and the creator hands it to the
    game's default agent from the panel."""
    creator, links = create_table(
        browser, server, "kwartet", {"players": "3", "kinds": "4"}, ["you", "friend", "greedy"]
    )
    try:
        pg = creator.page
        pg.click("#tp-hand-1", timeout=WAIT_MS)
        expect(pg.locator("#table-panel .tp-seats")).to_contain_text("plays for now")
        expect(pg.locator("#tp-hand-1")).to_have_count(0)
        status = get(server, f"/api/tables/{tid_of(pg)}?token={token_of(links[0])}")
        default = next(g for g in get(server, "/api/games") if g["name"] == "kwartet")
        assert status["agents"] == {"1": default["default_strategy"]}
    finally:
        creator.close()


def test_a_table_with_friends_for_the_docs(browser: Any, server: str) -> None:
    """docs/img/web-table.png: North's seat at Klaverjas with a friend at South, mid-deal."""
    who = ["you", "tactics", "friend", "tactics"]
    creator, links = create_table(browser, server, "klaverjas", {"deals": "1"}, who)
    tid = tid_of(creator.page)
    seats = sit_down(browser, server, creator, links, 1280)
    try:
        token = token_of(links[0])
        rng = random.Random(3)
        status = get(server, f"/api/tables/{tid}?token={token}")
        for _ in range(4):
            status = make_move(server, tid, token, status, seats, rng)
        pg = creator.page
        pg.set_viewport_size({"width": 1280, "height": 1000})
        pg.wait_for_function(
            "n => document.querySelector('#frame-label').textContent.startsWith(`move ${n} /`)",
            arg=status["last_frame"],
            timeout=WAIT_MS,
        )
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(DOCS_IMG / "web-table.png"))
    finally:
        for at in seats.values():
            at.close()
