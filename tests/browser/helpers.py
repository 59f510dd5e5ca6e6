"""Driving the table page like a person: wait for your turn, click a legal move, wait for the update."""

from __future__ import annotations

import random
from typing import Any


def version(page: Any) -> int:
    """The version of the table the page shows."""
    return int(page.evaluate("document.body.dataset.version || -1"))


def dismiss_how_to(page: Any) -> None:
    """Close the "how to play" card if it is open (it opens on a first visit to a game's table)."""
    if page.locator("#how-to").is_visible():
        page.click("#how-to-close")


def wait_ready(page: Any) -> None:
    """Wait until the page shows a position and it is the page's turn or the game is over (the "how to
    play" card, which opens with the first position, closed)."""
    page.wait_for_function(
        "document.body.dataset.version !== undefined && !document.body.dataset.pending && "
        "(document.body.dataset.myturn === '1' || document.body.dataset.over === '1')",
        timeout=30_000,
    )
    dismiss_how_to(page)


def legal_board_actions(page: Any) -> list[str]:
    """The actions of the board's highlighted parts, read in one step: the board may be drawn again
    between two separate reads (a count, then the n-th part), so they are never read apart."""
    found = page.evaluate("Array.from(document.querySelectorAll('#board .ft-legal')).map(e => e.dataset.action)")
    return [str(action) for action in found]


def click_a_move(page: Any, rng: random.Random, board_share: float = 0.5) -> str:
    """Click a legal move: a highlighted part of the board or a notation button. Returns its notation."""
    dismiss_how_to(page)
    before = version(page)
    on_board = legal_board_actions(page)
    if on_board and rng.random() < board_share:
        notation = rng.choice(on_board)
        page.locator(f'#board .ft-legal[data-action="{notation}"]').first.dispatch_event("click")
    else:
        buttons = page.evaluate("Array.from(document.querySelectorAll('#moves button')).map(b => b.dataset.notation)")
        notation = str(rng.choice(buttons))
        page.locator(f'#moves button[data-notation="{notation}"]').first.click()
    page.wait_for_function(
        f"Number(document.body.dataset.version) > {before} || document.getElementById('move-error').textContent",
        timeout=30_000,
    )
    return notation


def play_to_the_end(page: Any, rng: random.Random, limit: int = 2000, on_move: Any = None) -> int:
    """Click legal moves until the game is over; returns how many decisions were clicked."""
    clicks = 0
    while True:
        wait_ready(page)
        if page.evaluate("document.body.dataset.over") == "1":
            return clicks
        click_a_move(page, rng)
        clicks += 1
        if on_move is not None:
            on_move(clicks)
        assert clicks < limit, "the game did not end"


TAP = 44
"""The smallest tap target on a phone, in CSS pixels (Apple's and WCAG 2.5.5's 44)."""
FAST = "try { localStorage.setItem('farmtable:pace', '0'); } catch (e) {}"
"""An init script: the page shows others' decisions without pausing between them (robots do not watch)."""


def new_context(browser: Any, width: int = 1280, height: int = 800, phone: bool = False) -> Any:
    """A browser context of that screen size (a phone: touch and mobile)."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone, bypass_csp=True
    )
    context.set_default_timeout(15_000)
    return context


def tap(page: Any, selector: str) -> float:
    """Tap the board element ``selector`` (inside ``#board``) with a finger, as a phone user does: on
    the element when it is big enough, else on the magnifier it opens. Returns the smaller side, in
    CSS pixels, of what the finger actually hit."""
    from playwright.sync_api import Error as PlaywrightError

    box = None
    for attempt in range(5):  # the board may be drawn again (an update) between finding and tapping
        target = page.locator(f"#board {selector}").first
        try:
            target.scroll_into_view_if_needed()
            box = target.bounding_box()
        except PlaywrightError as exc:
            if "not attached" not in str(exc) or attempt == 4:
                raise
            continue
        if box is not None:
            break
    assert box is not None, selector
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    if not page.locator("#lens").count():
        return float(min(box["width"], box["height"]))
    copy = page.locator(f"#lens {selector}").first
    big = copy.bounding_box()
    assert big is not None, selector
    page.mouse.click(big["x"] + big["width"] / 2, big["y"] + big["height"] / 2)
    return float(min(big["width"], big["height"]))
