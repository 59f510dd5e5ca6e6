"""Issue 15, items 2 and 3 in the browser: a friend joins by a short code typed on the home page; the
log shows automatic events (the market die's rolls); turn alerts (sound) when chosen; others'
decisions shown one at a time."""

from __future__ import annotations

import random
from typing import Any

import pytest

import farmtable
from tests.browser.helpers import wait_ready
from tests.browser.test_table_ui import _board_decision, open_table
from tests.server.live import LiveServer

GAME = "farmers-finances"


def error_says(page: Any, words: str) -> None:
    """Wait until the join page's error line says ``words`` (fails after the page's default timeout)."""
    page.wait_for_function(
        "words => (document.getElementById('join-error').textContent || '').includes(words)", arg=words
    )


pytestmark = pytest.mark.skipif(GAME not in farmtable.list_games(), reason="needs Farmers Finances")


def test_a_friend_joins_by_the_code_typed_on_the_home_page(browser: Any, server: LiveServer) -> None:
    host_context = browser.new_context(bypass_csp=True)
    friend_context = browser.new_context(bypass_csp=True)  # another browser: only the code, read out
    try:
        host = host_context.new_page()
        host.goto(f"{server.url}/new?game={GAME}")
        host.select_option("#players", "2")
        host.select_option("#seat-0", "you")
        host.select_option("#seat-1", "invite")
        host.click("#create")
        code = host.locator("#invite-links b.code").first
        code.wait_for()
        typed = code.inner_text()
        assert len(typed) == 7 and typed[3] == "-"
        host.click("#go-table")
        host.wait_for_url("**/t/*")
        assert host.locator("#invite-links b.code").inner_text() == typed  # still shown at the table

        friend = friend_context.new_page()
        friend.goto(server.url + "/")
        friend.fill("#join-code", typed.lower())
        friend.click("#join-go")
        friend.wait_for_url("**/t/*")
        friend.wait_for_function("document.body.dataset.version !== undefined")
        assert friend.evaluate("window.FTstate.seat") == 1
        assert "#token" not in friend.url
        # a used code is refused, saying so, and the page stays
        friend.goto(server.url + "/join")
        friend.fill("#join-code", typed)
        friend.click("#join-go")
        error_says(friend, "works once")  # the answer comes from the server: wait for it
        friend.fill("#join-code", "AB0")
        friend.click("#join-go")
        error_says(friend, "6 letters and digits")
    finally:
        host_context.close()
        friend_context.close()


def test_the_log_shows_the_rolls_and_a_sound_says_your_turn(browser: Any, server: LiveServer) -> None:
    context = browser.paced_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    asked: list[str] = []  # the events come with the pushed log lines (issue 16): no request for them
    page.on("request", lambda request: asked.append(request.url) if "/events" in request.url else None)
    try:
        open_table(page, server, GAME)
        wait_ready(page)
        page.click("#sound-toggle")
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
        assert page.evaluate("Number(document.body.dataset.beeps || 0)") >= 1  # a sample when switched on
        rng = random.Random(4)
        events: list[str] = []
        for _ in range(60):
            wait_ready(page)
            if page.evaluate("document.body.dataset.over") == "1":
                break
            _board_decision(page, rng)
            events = [t for t in page.locator("#log li.event").all_inner_texts() if "market die rolled" in t]
            if events and int(page.evaluate("Number(document.body.dataset.turnAlerts || 0)")) >= 2:
                break
        assert events, "no roll of the market die in the log"
        assert asked == [], asked
        # the AI's decisions came back to your turn, each time with the sound
        assert int(page.evaluate("Number(document.body.dataset.turnAlerts || 0)")) >= 2
        assert page.evaluate("Number(document.body.dataset.beeps || 0)") >= 2
    finally:
        context.close()
