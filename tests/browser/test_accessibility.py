"""axe-core (vendored, see vendor/README.md) finds no serious or critical accessibility violation on
the home page, the new-table form, a table in play, a finished table's score sheet, the replay, the
rules and key pages and the scoring helper."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import farmtable
from tests.browser.helpers import dismiss_how_to, wait_ready
from tests.server.live import LiveServer

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
GAME = "tiny-towns" if "tiny-towns" in farmtable.list_games() else "race"


def serious_violations(page: Any) -> list[str]:
    """The serious and critical WCAG 2 A/AA violations axe-core finds on the page, one line each."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
            const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } });
            return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
              .map((v) => v.id + ': ' + v.help + ' — '
                          + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '));
        }"""
    )
    return list(found)


def open_table(page: Any, server: LiveServer, seats: list[str]) -> None:
    page.goto(f"{server.url}/new?game={GAME}")
    page.select_option("#players", str(len(seats)))
    for i, choice in enumerate(seats):
        page.select_option(f"#seat-{i}", choice)
    page.click("#create")
    page.wait_for_url("**/t/*")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violations(browser: Any, server: LiveServer, scheme: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True, color_scheme=scheme)
    context.set_default_timeout(15_000)
    page = context.new_page()
    problems: dict[str, list[str]] = {}
    try:
        pages = [("home", "/"), ("new table", f"/new?game={GAME}"), ("scoring helper", "/score"), ("join", "/join")]
        for name, path in pages:
            page.goto(server.url + path)
            problems[name] = serious_violations(page)
        if GAME != "race":
            for name, path in [("rules", f"/rules/{GAME}"), ("key", f"/rules/{GAME}/key")]:
                page.goto(server.url + path)
                problems[name] = serious_violations(page)
        open_table(page, server, ["you", "ai:random"])
        if GAME != "race":
            page.locator("#how-to").wait_for(state="visible")
        problems["how to play card"] = serious_violations(page)
        dismiss_how_to(page)
        wait_ready(page)
        problems["table"] = serious_violations(page)
        open_table(page, server, ["ai:random", "ai:random"])
        page.wait_for_function("document.body.dataset.over === '1'", timeout=60_000)
        page.locator("#score-panel table.sheet").wait_for()
        problems["score sheet"] = serious_violations(page)
        page.locator("#to-replay").click()
        page.wait_for_function("document.body.dataset.step === '0'")
        problems["replay"] = serious_violations(page)
    finally:
        context.close()
    bad = {k: v for k, v in problems.items() if v}
    assert not bad, "\n".join(f"{k}: {line}" for k, lines in bad.items() for line in lines)


def test_the_phone_table_and_its_magnifier_have_no_serious_violations(browser: Any, server: LiveServer) -> None:
    """The table at phone size, and with the board's magnifier open (the buttons a finger taps)."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    problems: dict[str, list[str]] = {}
    try:
        open_table(page, server, ["you", "ai:random"])
        wait_ready(page)
        problems["phone table"] = serious_violations(page)
        legal = page.locator("#board .ft-legal, #board [data-pick]").first
        legal.scroll_into_view_if_needed()
        box = legal.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        if page.locator("#lens").count():
            problems["magnifier"] = serious_violations(page)
    finally:
        context.close()
    bad = {k: v for k, v in problems.items() if v}
    assert not bad, "\n".join(f"{k}: {line}" for k, lines in bad.items() for line in lines)
