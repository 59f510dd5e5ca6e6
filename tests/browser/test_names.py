"""Names at the table: the creator names themselves on the new-table form, the invited friend on the
first visit; names show in the seats and the log of both browsers, as text (never as HTML).
The server side: ``seats[].name`` in every update, ``POST /api/tables/{id}/name`` (tests/server/test_names.py)."""

from __future__ import annotations

from typing import Any

from tests.browser.helpers import dismiss_how_to, wait_ready
from tests.server.live import LiveServer


def test_players_name_themselves_and_everyone_sees_the_names(browser: Any, server: LiveServer) -> None:
    host_context = browser.new_context(bypass_csp=True)
    friend_context = browser.new_context(bypass_csp=True)
    try:
        host = host_context.new_page()
        host.goto(f"{server.url}/new?game=farmers-finances")
        host.fill("#your-name", "Sam <b>")
        host.select_option("#players", "2")
        host.select_option("#seat-0", "you")
        host.select_option("#seat-1", "invite")
        host.click("#create")
        assert "letters, digits" in host.locator("#form-error").inner_text()  # refused in the page
        host.fill("#your-name", "Sam")
        host.click("#create")
        link = host.locator("#invite-links a.invite").first
        link.wait_for()
        join = str(link.get_attribute("href"))
        host.click("#go-table")
        host.wait_for_url("**/t/*")
        host.wait_for_function("document.body.dataset.version !== undefined")
        assert host.evaluate("window.FTstate.seats[0].name") == "Sam"
        friend = friend_context.new_page()
        friend.goto(server.url + join)
        friend.locator("#name-box").wait_for(state="visible")
        friend.locator("#how-to").wait_for(state="visible")  # a first visit: the card comes first
        dismiss_how_to(friend)
        friend.fill("#name-input", "<i>Kim</i>")
        friend.click("#name-box button[type=submit]")
        assert "letters, digits" in friend.locator("#name-error").inner_text()
        friend.fill("#name-input", "Kim")
        friend.click("#name-box button[type=submit]")
        friend.locator("#name-box").wait_for(state="hidden")
        host.wait_for_function("document.getElementById('seats').textContent.includes('Kim')")
        assert "Sam (you)" in host.locator("#seats").inner_text()
        friend.wait_for_function("document.getElementById('seats').textContent.includes('Sam')")
        assert "Kim (you)" in friend.locator("#seats").inner_text()
        assert friend.locator("#seats b, #seats i").count() == 0  # names are text, never markup
        wait_ready(host)
    finally:
        host_context.close()
        friend_context.close()
