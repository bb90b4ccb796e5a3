"""The first-time visitor in Chromium: a page per game, a guided game, the model animating.

At 1280 and 390 px each game's learn page is loaded once: reached with the keyboard, no
horizontal scroll, no serious or critical axe-core violation, and its screenshot goes to
`docs/img/web-learn-<game>.png` (at 1280 px) for docs/web.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.test_browser import (  # the same server, browser and checks
    DOCS_IMG,
    app,
    browser,
    check_view,
    first_failed_ask,
    new_page,
    pick_subject,
    playwright,
    server,
    set_game,
    set_range,
    wait_frame,
)

__all__ = ["app", "browser", "server"]

GAMES = ("kwartet", "blufpoker", "klaverjas", "kemps")


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    context, pg, errors = new_page(browser, server, 1280)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def tab_to(pg: Any, selector: str, presses: int = 40) -> None:
    """Press Tab until the element `selector` has the focus (it is keyboard reachable)."""
    for _ in range(presses):
        if pg.evaluate("s => document.activeElement.matches(s)", selector):
            return
        pg.keyboard.press("Tab")
    raise AssertionError(f"{selector} not reached in {presses} presses of Tab")


@pytest.mark.parametrize("width", [1280, 390])
def test_a_page_per_game(browser: Any, server: str, width: int) -> None:
    """From the game page, by keyboard: the Learn tab opens the page of the game chosen in
    the form (the first game listed), then each game's page in turn."""
    expect = playwright.expect
    context, pg, errors = new_page(browser, server, width)
    chosen = pg.eval_on_selector("#game-select", "s => s.value")
    tab_to(pg, "#tab-learn")
    pg.keyboard.press("Enter")
    expect(pg.locator(f"#page-learn article[data-game='{chosen}']")).to_be_visible()
    for game in [chosen, *(g for g in GAMES if g != chosen)]:
        link = pg.locator(f".learn-nav a[href='#learn/{game}']")
        if game != chosen:
            link.focus()
            pg.keyboard.press("Enter")
        article = pg.locator(f"#page-learn article[data-game='{game}']")
        expect(article).to_be_visible()
        expect(link).to_have_attribute("aria-current", "page")
        expect(article.locator(".learn-rules li").first).to_be_visible()
        assert article.locator(".learn-example li").count() >= 3
        tab_to(pg, "#learn-watch")
        check_view(pg, f"the {game} page at {width} px")
        if width == 1280:
            DOCS_IMG.mkdir(parents=True, exist_ok=True)
            pg.screenshot(path=str(DOCS_IMG / f"web-learn-{game}.png"), full_page=True)
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_a_guided_first_kwartet_game(page: Any) -> None:
    """The learn page's button starts a guided game: the deal, then each ask, explained."""
    expect = playwright.expect
    page.goto(page.url.split("#")[0] + "#learn/kwartet")
    page.locator("#learn-watch").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#table svg .seat-0")
    guide = page.locator("#guide")
    expect(guide).to_be_visible()
    expect(page.locator("#guide-toggle")).to_be_checked()
    expect(guide.locator("li").first).to_contain_text("is dealt")
    page.click("#fwd-btn")
    wait_frame(page, 1)
    expect(guide.locator("li.why")).to_contain_text(" chose ask ")
    expect(guide.locator("li.public").first).to_contain_text("Now everyone knows:")
    expect(guide.locator("li.public").first).to_contain_text("holds a card of kind")
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    page.locator("#page-game .center").screenshot(path=str(DOCS_IMG / "web-learn-guided.png"))
    page.click("#guide-toggle")
    expect(guide).to_be_hidden()


def test_a_guided_game_played_explains_only_the_seat(page: Any) -> None:
    """Playing guided, South's explanations come from South's view: no other seat's deal."""
    expect = playwright.expect
    page.goto(page.url.split("#")[0] + "#learn/blufpoker")
    page.click("#learn-play")
    page.wait_for_selector("#human-bar:not(.hidden) button")
    guide = page.locator("#guide li")
    expect(guide.first).to_be_visible()
    texts = guide.all_text_contents()
    assert all("Only Bob" not in t and "Only Cas" not in t for t in texts), texts


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_the_kripke_model_shrinks_in_place(browser: Any, server: str, motion: str) -> None:
    """After a failed ask a world of the asked card goes; the others keep their places. With
    motion its node fades out first (a leaving layer, removed at the end of the fade); with
    reduced motion it is gone at once."""
    game, seed = "kwartet(players=4,kinds=5,ask_own=true)", 7
    frame, card = first_failed_ask(game, seed)
    context, pg, errors = new_page(browser, server, 1280, reduced_motion=motion)
    set_game(pg, "kwartet", {"players": "4", "kinds": "5"}, seed=seed)
    pg.click("#watch-btn")
    pg.wait_for_selector("#table svg .seat-0")
    set_range(pg, "#scrub", frame)
    wait_frame(pg, frame)
    pick_subject(pg, card)
    where = """() => Object.fromEntries([...document.querySelectorAll('#kripke .world')].map(
        (g) => [g.dataset.world, [...g.querySelectorAll('circle.node')].map(
            (c) => [c.getAttribute('cx'), c.getAttribute('cy')])[0]]))"""
    before = pg.evaluate(where)
    # Whether a fading layer was ever added (not when: no test waits on timing).
    pg.evaluate(
        """() => {
            window.faded = false;
            const fades = (n) => n.querySelector && n.querySelector('.leaving');
            new MutationObserver((ms) => {
                if (ms.some((m) => [...m.addedNodes].some(fades))) window.faded = true;
            }).observe(document.querySelector('#kripke'), { childList: true });
        }"""
    )
    pg.click("#fwd-btn")
    wait_frame(pg, frame + 1)
    pg.wait_for_function(f"document.querySelectorAll('#kripke .world').length < {len(before)}")
    after = pg.evaluate(where)
    assert after and set(after) < set(before)
    assert all(after[w] == before[w] for w in after), (before, after)
    leaving = pg.locator("#kripke .leaving")
    playwright.expect(leaving).to_have_count(0)  # with motion: faded, then taken out
    assert pg.evaluate("window.faded") == (motion != "reduce")
    gone = set(before) - set(after)
    for w in gone:
        assert pg.locator(f"#kripke [data-world='{w}']").count() == 0
    context.close()
    assert not errors, f"JavaScript errors: {errors}"
