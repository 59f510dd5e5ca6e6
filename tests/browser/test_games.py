"""Each game played to the end in chromium, by clicks, against AI seats; the score sheet shows."""

from __future__ import annotations

import random
from typing import Any

import pytest

import farmtable
from tests.browser.conftest import shoot
from tests.browser.helpers import play_to_the_end, wait_ready
from tests.server.live import LiveServer

GAMES = ["farmerama", "farmers-finances", "farmini", "tiny-farms", "tiny-towns"]


def open_table_from_the_form(page: Any, server: LiveServer, game: str, players: int, seats: list[str]) -> None:
    """Use the new-table page: choose the game, the player count and each seat, then open the table."""
    page.goto(f"{server.url}/new?game={game}")
    page.select_option("#players", str(players))
    for seat, choice in enumerate(seats):
        page.select_option(f"#seat-{seat}", choice)
    page.click("#create")
    page.wait_for_url("**/t/*")


@pytest.mark.parametrize("game", GAMES)
def test_a_full_game_by_clicks_against_ai(page: Any, server: LiveServer, game: str) -> None:
    if game not in farmtable.list_games():
        pytest.skip(f"{game} is not registered yet")
    page.goto(server.url + "/")
    assert page.locator(f"article[data-game='{game}'] h2").inner_text() == farmtable.get_game(game).title
    open_table_from_the_form(page, server, game, 2, ["you", "ai:random"])
    rng = random.Random(game)

    def screenshot_midway(clicks: int) -> None:
        if clicks == 6:
            shoot(page, game)

    clicks = play_to_the_end(page, rng, on_move=screenshot_midway)
    assert clicks > 0
    sheet = page.locator("#score-panel table.sheet")
    sheet.wait_for()
    assert page.locator("#score-panel").is_visible()
    assert "Total" in sheet.inner_text()
    assert "Game over" in page.locator("#status").inner_text()
    shoot(page, f"{game}-over")


def test_the_new_table_form_refuses_clearly(page: Any, server: LiveServer) -> None:
    page.goto(f"{server.url}/new?game=race")
    page.select_option("#players", "2")
    page.select_option("#seat-0", "you")
    page.select_option("#seat-1", "you")
    page.click("#create")
    page.wait_for_selector("#form-error:not(:empty)")
    assert "only one seat can be 'you'" in page.locator("#form-error").inner_text()


def test_a_phone_sized_screen_can_play(browser: Any, server: LiveServer) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True
    )
    page = context.new_page()
    try:
        open_table_from_the_form(page, server, "race", 1, ["you"])
        wait_ready(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide on a 390px screen"
        page.locator("#moves button").first.tap()
        page.wait_for_function("Number(document.body.dataset.version) >= 1")
        if "tiny-towns" in farmtable.list_games():
            open_table_from_the_form(page, server, "tiny-towns", 2, ["you", "ai:random"])
            wait_ready(page)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the Tiny Towns page is {width}px wide on a 390px screen"
            shoot(page, "phone-tiny-towns")
    finally:
        context.close()


def test_the_home_and_new_table_pages(page: Any, tmp_path: Any) -> None:
    server = LiveServer(f"sqlite:///{tmp_path / 'home.db'}", toy=False)  # the real games only
    server.start()
    try:
        page.goto(server.url + "/")
        titles = page.locator("article.card h2").all_inner_texts()
        assert titles == [farmtable.get_game(g).title for g in farmtable.list_games()]
        shoot(page, "home")
        page.click("article[data-game] .button >> nth=0")
        page.wait_for_url("**/new?game=*")
        assert page.locator("#seat-1 option").count() >= 3  # you, invite, and at least one AI level
        shoot(page, "new-table")
    finally:
        server.stop()
