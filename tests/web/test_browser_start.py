"""A first visit in Chromium: the start page, the picture beside the table, the result.

At 360, 390 and 1280 px: no sideways scrolling and no serious or critical axe-core
violation on the start page, on a guided game started from it and on the result dialog.
The start page's and the result dialog's pictures (1280 × 800) go to docs/img/ for
docs/web.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.test_browser import (  # the same server, browser and checks
    DOCS_IMG,
    app,
    browser,
    check_view,
    new_page,
    page,
    pick_subject,
    playwright,
    server,
    set_game,
    start_playing,
    wait_frame,
    wait_turn_or_end,
)

__all__ = ["app", "browser", "page", "server"]

WIDTHS = [1280, 390, 360]


@pytest.fixture
def laptop(browser: Any, server: str) -> Iterator[Any]:
    """The start page at 1280 × 800, the size the issue measures a first visit at."""
    context, pg, errors = new_page(browser, server, 1280, path="/", height=800)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def api_games(pg: Any) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = pg.evaluate("fetch('/api/games').then((r) => r.json())")
    return games


@pytest.mark.parametrize("width", WIDTHS)
def test_the_start_page_has_a_tile_per_game(browser: Any, server: str, width: int) -> None:
    """One tile per registered game, in the API's order, each with its showcase's agents
    in a sentence, a guided game to watch and a game to play (and its learn page)."""
    expect = playwright.expect
    context, pg, errors = new_page(browser, server, width, path="/", height=800)
    expect(pg.locator("#page-start")).to_be_visible()
    expect(pg.locator("#tab-start")).to_have_attribute("aria-selected", "true")
    games = api_games(pg)
    tiles = pg.locator("#tiles .tile")
    expect(tiles).to_have_count(len(games))
    for k, game in enumerate(games):
        tile = tiles.nth(k)
        expect(tile).to_have_attribute("data-game", game["name"])
        expect(tile.locator("button", has_text="Watch a guided game")).to_be_visible()
        expect(tile.locator("button", has_text=re.compile("^Play$"))).to_be_visible()
        for agent in set(game["showcase"]["strategies"]):
            expect(tile.locator(".tile-agents")).to_contain_text(game["strategy_about"][agent])
    for name in ("kwartet", "blufpoker", "klaverjas", "kemps"):
        learn = pg.locator(f"#tiles .tile[data-game='{name}'] a[href='#learn/{name}']")
        expect(learn).to_be_visible()
    check_view(pg, f"the start page at {width} px")
    if width in (1280, 390):
        # The docs show the library's games, without the tests' toy game.
        pg.evaluate("document.querySelector(\"#tiles .tile[data-game='webtoy']\").remove()")
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        suffix = "" if width == 1280 else "-phone"
        pg.screenshot(path=str(DOCS_IMG / f"web-start{suffix}.png"), full_page=True)
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def shown_focus(pg: Any) -> str:
    """The focus the API gives for the frame and perspective shown."""
    focus: str = pg.evaluate(
        """async () => {
            const sid = (await import('/static/app.js')).currentSession();
            const p = document.querySelector('#perspectives button.active').dataset.perspective;
            const frame = document.querySelector('#scrub').value;
            const r = await fetch(`/api/sessions/${sid}/frames/${frame}?perspective=${p}`);
            return (await r.json()).focus;
        }"""
    )
    return focus


def test_a_guided_game_from_the_start_page_shows_the_picture_beside_the_table(
    laptop: Any,
) -> None:
    """At 1280 × 800 the Kripke picture of the last move's card is beside the table, in
    the window without scrolling; its worlds are the card at each holder; a chip per agent
    asks what that agent considers possible and lights up exactly those worlds."""
    expect = playwright.expect
    pg = laptop
    pg.click("#start-watch-kwartet")
    pg.wait_for_selector("#table svg .seat-0")
    expect(pg.locator("#guide")).to_be_visible()
    for k in (1, 2, 3):
        pg.click("#fwd-btn")
        wait_frame(pg, k)
    focus = shown_focus(pg)
    svg = pg.locator("#kripke svg")
    expect(svg).to_have_attribute("aria-label", f"Kripke model of {focus}")
    expect(pg.locator("#subject-select")).to_have_value("")  # following the game
    expect(pg.locator("#kripke-caption")).to_contain_text(f"{focus}, the last move's")
    # Where the page first shows them (the clicks on ▶ scrolled the controls into view).
    pg.evaluate("scrollTo(0, 0)")
    table, picture = pg.locator("#table").bounding_box(), svg.bounding_box()
    assert table is not None and picture is not None
    assert picture["x"] >= table["x"] + table["width"], (table, picture)  # beside it
    assert picture["y"] + picture["height"] / 2 < 800, picture  # above the fold
    worlds = pg.locator("#kripke .world")
    assert worlds.count() == pg.locator("#kripke .world .thing.card").count() > 0
    expect(pg.locator("#kripke .world .thing.card text").first).to_have_text(focus)
    chips = pg.locator("#kripke .agent-chip")
    expect(chips).to_have_count(4)
    chip = chips.filter(has_text="What does West consider possible?")
    chip.click()
    expect(chip).to_have_attribute("aria-pressed", "true")
    expect(svg).to_have_attribute("data-agent", "West")
    assert pg.locator("#kripke .world.possible").count() > 0
    chip.press("Enter")  # off again, by keyboard
    expect(chip).to_have_attribute("aria-pressed", "false")
    expect(pg.locator("#kripke .world.possible")).to_have_count(0)
    # Picked by hand, a subject stays while the game moves on.
    options = pg.eval_on_selector_all("#subject-select option", "os => os.map(o => o.value)")
    kept = next(o for o in options[1:] if o != focus)
    pick_subject(pg, kept)
    expect(svg).to_have_attribute("aria-label", f"Kripke model of {kept}")
    pg.click("#fwd-btn")
    wait_frame(pg, 4)
    expect(pg.locator("#kripke-caption")).to_have_text("at move 4")
    expect(svg).to_have_attribute("aria-label", f"Kripke model of {kept}")
    check_view(pg, "a guided Kwartet game at 1280 px")
    for width in (390, 360):
        pg.set_viewport_size({"width": width, "height": 844})
        check_view(pg, f"a guided Kwartet game at {width} px")


def test_the_cup_is_drawn_as_dice(laptop: Any) -> None:
    """Blufpoker's opening: the spectator's picture of the cup has its roll as three dice."""
    pg = laptop
    pg.click("#start-watch-blufpoker")
    pg.wait_for_selector("#kripke .world")
    cup = pg.locator("#kripke svg")
    playwright.expect(cup).to_have_attribute("aria-label", "Kripke model of cup")
    dice = pg.locator("#kripke .world .thing.dice")
    assert dice.count() >= 1
    assert dice.first.locator("rect").count() == 3


def test_the_strategy_menus_say_how_each_agent_plays(page: Any) -> None:
    """Under each seat's menu, one sentence from the library on how its agent plays."""
    expect = playwright.expect
    set_game(page, "blufpoker", {"players": "3"}, agents="bayes")
    about = {g["name"]: g for g in api_games(page)}["blufpoker"]["strategy_about"]
    expect(page.locator("#seat-about-1")).to_have_text(about["bayes"])
    page.select_option("#seats select[data-seat='1']", "lowest/overbid/never")
    expect(page.locator("#seat-about-1")).to_have_text(about["lowest/overbid/never"])
    titles = page.eval_on_selector_all(
        "#seats select[data-seat='2'] option", "os => os.map((o) => [o.value, o.title])"
    )
    for value, title in titles:
        assert title == about.get(value, title) and title, value
    assert len(titles) == len(about) + 1  # and "you (play)"


@pytest.mark.parametrize("width", WIDTHS)
def test_the_result_dialog_at_the_end_of_a_played_game(
    browser: Any, server: str, width: int
) -> None:
    """Bob plays a one-penalty Blufpoker game to its end by keyboard; a dialog then says who
    won, each seat's score and the seed (copied by a button), and offers the review with all
    hands and another game. It fits the window and passes axe."""
    expect = playwright.expect
    context, pg, errors = new_page(browser, server, width, height=800)
    set_game(pg, "blufpoker", {"players": "2", "penalties": "1"}, agents="bayes")
    start_playing(pg, 1)
    before = ""
    for _ in range(300):
        if wait_turn_or_end(pg, "button[data-action]", before):
            break
        before = pg.inner_text("#frame-label")
        pg.keyboard.press("Enter")
    dialog = pg.locator("#result")
    expect(dialog).to_be_visible()
    expect(pg.locator("#result-title")).to_have_text(re.compile(r"^Game over: you (win|lose)$"))
    expect(pg.locator("#result-winners")).to_contain_text(re.compile(r"(Ann|Bob \(you\)) wins\."))
    expect(pg.locator("#result-scores tr")).to_have_count(3)  # the header, Ann, Bob
    expect(pg.locator("#end-seed")).to_have_text(re.compile(r"^\d+$"))
    pg.click("#copy-seed")
    expect(pg.locator("#copy-seed")).to_have_text(re.compile("^(Copied|Selected: press Ctrl\\+C)$"))
    check_view(pg, f"the result dialog at {width} px")
    if width == 1280:
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(DOCS_IMG / "web-result.png"))
    pg.click("#review-btn")
    expect(dialog).to_be_hidden()
    expect(pg.locator("#perspectives button[data-perspective='spectator']")).to_have_class(
        re.compile("active")
    )
    for seat in ("0", "1"):  # every perspective is open now
        expect(pg.locator(f"#perspectives button[data-perspective='{seat}']")).to_be_enabled()
    seed = pg.inner_text("#end-bar code")
    pg.click("#result-open")
    expect(dialog).to_be_visible()
    pg.click("#play-again-btn")
    expect(dialog).to_be_hidden()
    pg.wait_for_function("document.querySelector('#status').textContent.startsWith('You play Bob')")
    expect(pg.locator("#end-bar")).to_be_hidden()
    assert seed
    context.close()
    assert not errors, f"JavaScript errors: {errors}"
