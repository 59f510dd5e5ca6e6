"""Tables in the browser: two people via a join link, a server killed and restarted, a replay, scoring."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

import farmtable
from tests.browser.conftest import shoot
from tests.browser.helpers import click_a_move, legal_board_actions, version, wait_ready
from tests.browser.test_games import open_table_from_the_form
from tests.server.live import LiveServer


def test_two_people_play_from_two_browsers_via_the_join_link(browser: Any, server: LiveServer) -> None:
    host_context = browser.new_context(bypass_csp=True)
    friend_context = browser.new_context(bypass_csp=True)  # another browser: only the link
    try:
        host = host_context.new_page()
        game = "farmers-finances" if "farmers-finances" in farmtable.list_games() else "race"
        host.goto(f"{server.url}/new?game={game}")
        host.select_option("#players", "2")
        host.select_option("#seat-0", "you")
        host.select_option("#seat-1", "invite")
        host.click("#create")
        link = host.locator("#invite-links a.invite").first
        link.wait_for()
        join_url = str(link.get_attribute("href"))
        assert "#token=" in join_url
        host.click("#go-table")
        host.wait_for_url("**/t/*")
        assert host.locator("#invite-links a.invite").count() == 1  # the host still sees the invite link

        friend = friend_context.new_page()
        friend.goto(server.url + join_url)
        friend.wait_for_function("document.body.dataset.version !== undefined")
        assert "#token" not in friend.url  # the secret is taken out of the address bar
        assert "Player 1 (you)" in friend.locator("#seats").inner_text()

        rng = random.Random(2)
        pages = [host, friend]
        while True:
            host.wait_for_function("document.body.dataset.version !== undefined")
            if host.evaluate("document.body.dataset.over") == "1":
                break
            mover = next(
                (p for p in pages if p.evaluate("document.body.dataset.myturn") == "1"),
                None,
            )
            if mover is None:
                host.wait_for_timeout(30)
                continue
            other = friend if mover is host else host
            before = int(other.evaluate("document.body.dataset.version"))
            click_a_move(mover, rng, board_share=0.5)
            # the other browser is pushed the update without reloading
            other.wait_for_function(f"Number(document.body.dataset.version) > {before}")
        friend.wait_for_function("document.body.dataset.over === '1'")
        assert friend.locator("#score-panel table.sheet").is_visible()
        # rematch from one browser: the other is offered the new table, its link still works
        host.click("#rematch")
        host.wait_for_url("**/t/*")
        friend.locator("#to-rematch").wait_for()
        friend.click("#to-rematch")
        friend.wait_for_function("document.body.dataset.version === '0'")
        assert "Player 1 (you)" in friend.locator("#seats").inner_text()
    finally:
        host_context.close()
        friend_context.close()


def test_a_move_stays_pending_while_another_seats_hidden_choice_is_shown_first(
    browser: Any, server: LiveServer
) -> None:
    """Simultaneous choices (Farmerama's action cards): the other seat's hidden choice can reach the
    page before the page's own move is taken. That update must not offer the choices again (a second
    click would decide for a position already left behind): the page stays pending until it shows
    the version its own move made."""
    if "farmerama" not in farmtable.list_games():
        pytest.skip("farmerama is not registered")
    seats = [{"kind": "you"}, {"kind": "invite"}]
    made = httpx.post(
        f"{server.url}/api/tables", json={"game": "farmerama", "players": 2, "seats": seats, "seed": 4}, timeout=10
    ).json()
    table, friend = made["id"], made["seats"][1]["token"]
    held: list[str] = []
    hold = {"moves": False}

    def route(ws: Any) -> None:  # the page's socket, with its moves held back while asked
        to_server = ws.connect_to_server()

        def upward(message: str | bytes) -> None:
            if hold["moves"] and isinstance(message, str) and '"move"' in message:
                held.append(message)
            else:
                to_server.send(message)

        ws.on_message(upward)
        release["send"] = to_server.send

    release: dict[str, Any] = {}
    context = browser.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        page.route_web_socket("**/ws/tables/*", route)
        page.goto(server.url + made["seats"][0]["link"])
        wait_ready(page)
        start = version(page)
        first = page.evaluate("window.FTstate.legal")
        cards = [a for a in legal_board_actions(page) if a.startswith("card ")]
        assert cards, "the first decision of Farmerama is an action card"
        hold["moves"] = True
        page.locator(f'#board .ft-legal[data-action="{cards[0]}"]').first.dispatch_event("click")
        page.wait_for_function("document.body.dataset.pending === '1'")
        assert len(held) == 1
        # meanwhile the friend chooses: the page is shown that hidden choice first
        theirs = httpx.get(f"{server.url}/api/tables/{table}", headers={"X-Seat-Token": friend}, timeout=10).json()
        choice = next(a for a in theirs["legal"] if a.startswith("card "))
        answer = httpx.post(
            f"{server.url}/api/tables/{table}/moves",
            json={"token": friend, "action": choice, "version": theirs["version"]},
            timeout=10,
        )
        assert answer.status_code == 200, answer.text
        page.wait_for_function(f"Number(document.body.dataset.version) > {start}")
        assert page.evaluate("document.body.dataset.pending") == "1", "the choices were offered again"
        # the page's move arrives late and is taken (only a hidden choice of another seat came between)
        hold["moves"] = False
        release["send"](held.pop())
        page.wait_for_function("!document.body.dataset.pending")
        assert page.evaluate("document.getElementById('move-error').textContent") == ""
        assert version(page) == start + 2
        assert page.evaluate("window.FTstate.version") == start + 2
        assert sorted(page.evaluate("window.FTstate.legal")) != sorted(first), "the page's own card is shown as taken"
    finally:
        context.close()


def answer_about(server: LiveServer, table_id: str, timeout: float = 60) -> None:
    """Wait until the (re)started server answers about the table (it is read from the database again);
    a server that never does fails here, with its last answer."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        try:
            reply = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=5)
            if reply.status_code == 200:
                return
            last = f"HTTP {reply.status_code}: {reply.text[:200]}"
        except httpx.HTTPError as exc:
            last = repr(exc)
        time.sleep(0.2)
    raise AssertionError(f"the restarted server did not answer about table {table_id}: {last}")


def wait_reconnected(page: Any, timeout_ms: int = 60_000) -> None:
    """Wait until the page is connected again, saying how it stands if it never is (the page tries
    again by itself, and gives up an attempt that hangs: see CONNECT_SECONDS in table.js)."""
    try:
        page.wait_for_function("document.body.dataset.connected === '1'", timeout=timeout_ms)
    except Exception as exc:
        status = page.locator("#status").inner_text()
        connected = page.evaluate("document.body.dataset.connected")
        raise AssertionError(f"the page did not reconnect: connected={connected!r}, status={status!r}") from exc


def test_a_server_killed_mid_game_restarts_and_the_page_goes_on(page: Any, tmp_path: Any) -> None:
    server = LiveServer(f"sqlite:///{tmp_path / 'kill.db'}")
    server.start()
    try:
        game = "farmers-finances" if "farmers-finances" in farmtable.list_games() else "race"
        open_table_from_the_form(page, server, game, 2, ["you", "ai:random"])
        rng = random.Random(5)
        for _ in range(3):
            wait_ready(page)
            click_a_move(page, rng)
        wait_ready(page)
        shown = int(page.evaluate("document.body.dataset.version"))
        log_before = page.locator("#log").inner_text()
        server.kill()
        page.wait_for_function("document.body.dataset.connected === '0'")
        assert "reconnecting" in page.locator("#status").inner_text().lower()
        server.start()  # same port, same SQLite file; returns once the new server answers
        table_id = page.url.rsplit("/t/", 1)[1].split("#")[0].split("?")[0]
        answer_about(server, table_id)  # the table itself loads from the file before the page is asked on
        wait_reconnected(page)
        wait_ready(page)
        assert int(page.evaluate("document.body.dataset.version")) == shown
        assert page.locator("#log").inner_text() == log_before
        while page.evaluate("document.body.dataset.over") != "1":
            click_a_move(page, rng)
            wait_ready(page)
        assert page.locator("#score-panel table.sheet").is_visible()
    finally:
        server.stop()


def test_a_finished_game_is_replayed_step_by_step(page: Any, server: LiveServer) -> None:
    game = "tiny-farms" if "tiny-farms" in farmtable.list_games() else "race"
    open_table_from_the_form(page, server, game, 2, ["ai:random", "ai:easy"])
    page.wait_for_function("document.body.dataset.over === '1'")
    page.locator("#to-replay").click()
    page.wait_for_url("**/replay/*")
    page.wait_for_function("document.body.dataset.step === '0'")
    frames = int(page.evaluate("document.body.dataset.frames"))
    assert frames >= 3
    assert page.locator("#step-text").inner_text() == "Start of the game"
    assert page.locator("#prev").is_disabled()
    page.click("#next")
    assert page.locator("#step-text").inner_text().startswith("Player ")
    page.click("#next")
    assert page.locator("#counter").inner_text() == f"step 2 of {frames - 1}"
    page.click("#prev")
    assert page.locator("#counter").inner_text() == f"step 1 of {frames - 1}"
    page.click("#last")  # a later page of frames: fetched when needed
    page.wait_for_function(f"document.body.dataset.step === '{frames - 1}'")
    assert page.locator("#next").is_disabled()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"document.body.dataset.step === '{frames - 2}'")
    assert page.locator("#score table.sheet").is_visible()
    shoot(page, "replay")


def test_the_scoring_helper_scores_typed_positions(page: Any, server: LiveServer) -> None:
    helpers = [g for g in farmtable.list_games() if farmtable.get_game(g).scoring_helper_format]
    page.goto(server.url + "/score")
    if not helpers:
        assert "No game has a scoring helper" in page.content()
        return
    game = "farmers-finances" if "farmers-finances" in helpers else helpers[0]
    page.select_option("#game", game)
    page.fill("#text", "this is not a position")
    page.click("button[type=submit]")
    page.wait_for_selector("#score-error:not(:empty)")
    assert page.locator("#score-panel").is_hidden()
    if game == "farmers-finances":
        page.fill("#text", "Anna: 72 coins, 1 wheat, 1 bread, 1 animal\nBen: 72 coins, 2 wheat\n")
        page.click("button[type=submit]")
        page.locator("#score-panel table.sheet").wait_for()
        assert page.locator("#score-error").inner_text() == ""
        sheet = page.locator("#score-panel").inner_text()
        assert "Total" in sheet
        assert "Anna" in sheet and "Ben" in sheet  # columns headed by the typed names
        assert "Player 0" not in sheet and "tie_break" not in sheet and "[" not in sheet
        shoot(page, "scoring-helper")


def test_the_pages_work_under_their_content_security_policy(browser: Any, server: LiveServer) -> None:
    """The other tests let Playwright's own scripts past the CSP; here the policy is enforced for everything:
    the table page connects (token in the first message), says "seeded game" to an invited friend when the
    creator chose the seed, takes a move and reports no violation."""
    import httpx

    context = browser.new_context()
    violations: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
        seats = [{"kind": "you"}, {"kind": "invite"}]
        body = {"game": "race", "players": 2, "seats": seats, "seed": 7}  # a chosen seed: everyone is told
        made = httpx.post(f"{server.url}/api/tables", json=body).json()
        friend = context.new_page()
        friend.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
        friend.goto(f"{server.url}{made['seats'][1]['link']}")  # the invited friend's page
        friend.locator("body[data-version='0']").wait_for()
        seeded = friend.locator("#seeded").inner_text()
        assert "Seeded game" in seeded and "seed 7" in seeded
        friend.close()
        page.goto(f"{server.url}{made['seats'][0]['link']}")
        page.locator("body[data-version='0'][data-myturn='1']").wait_for()
        page.locator("#moves button").first.click()
        page.locator("body[data-version='1']").wait_for()
        for path in ("/", "/new", "/score"):
            page.goto(server.url + path)
            page.locator("main").wait_for()
        assert not violations, violations
    finally:
        context.close()
