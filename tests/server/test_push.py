"""The lighter push (issue 16 item 3): an update is encoded once per (table, version, seat) and shared
by every connection of that seat; a connection that already shows the board gets the update without it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from farmtable.server.hub import HUMAN, Hub, Subscriber, Wire
from farmtable.server.store import Store
from tests.server.conftest import move, new_table, token, ws_open


async def _noop(_text: str) -> None:
    """A socket that sends nowhere."""


def test_one_encoding_per_seat_and_version_and_the_board_only_when_it_changed(race: None) -> None:
    async def scenario() -> None:
        hub = Hub(Store("sqlite://"))
        try:
            tid, _tokens = await hub.create("race", 2, [], [(HUMAN, None), (HUMAN, None)])
            table = await hub.get(tid)
            subs = [Subscriber(0, lambda: hub.wire_snapshot(table, 0), _noop) for _ in range(3)]
            first = await hub.wire_snapshot(table, 0)
            assert await hub.wire_snapshot(table, 0) is first  # built once for the seat and version
            texts = [sub.text_of(first) for sub in subs]
            assert all(t is first.full for t in texts)  # every connection sends the one shared text
            assert json.loads(texts[0])["svg"] == first.payload["svg"]
            assert (await hub.wire_snapshot(table, 1)) is not first  # another seat: its own update
            # the same board again (the update rebuilt, e.g. a notice; the version did not move)
            table.cache.clear()
            again = await hub.wire_snapshot(table, 0)
            assert again is not first and again.svg == first.svg
            lite = json.loads(subs[0].text_of(again))
            assert lite["svg_same"] is True and "svg" not in lite
            assert lite["version"] == first.payload["version"] and lite["legal"] == first.payload["legal"]
            assert subs[1].text_of(again) is again.lite  # encoded once, shared too
            # a move changes the board: the picture comes again
            seat = table.state.actors()[0]
            await hub.act(table, seat, table.state.legal_actions(seat)[0], table.version)
            moved = await hub.wire_snapshot(table, 0)
            full = json.loads(subs[0].text_of(moved))
            assert full["version"] == first.payload["version"] + 1 and full["svg"] == moved.svg
            # a new connection (a reload) always gets the board
            fresh = Subscriber(0, lambda: hub.wire_snapshot(table, 0), _noop)
            assert "svg" in json.loads(fresh.text_of(moved))
        finally:
            await hub.close()

    asyncio.run(scenario())


def test_the_board_comes_again_when_the_legal_moves_change_under_the_same_picture() -> None:
    """The page makes the legal parts of the board buttons: new legal moves resend the picture."""
    base = {"type": "update", "version": 3, "svg": "<svg/>", "legal": ["a"]}
    sub = Subscriber(0, lambda: asyncio.sleep(0, Wire(base)), _noop)
    assert "svg" in json.loads(sub.text_of(Wire(base)))
    assert "svg" not in json.loads(sub.text_of(Wire(dict(base))))
    assert json.loads(sub.text_of(Wire({**base, "legal": ["a", "b"]})))["svg"] == "<svg/>"


def test_a_board_is_drawn_again_only_when_its_view_or_legal_moves_changed(
    race: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An update rebuilt for the same view and legal moves (a notice; another seat's hidden choice) reuses
    the picture; a decision that changes the seat's view draws it again."""
    import farmtable.server.hub as hub_module

    drawn: list[int | None] = []
    real = hub_module.render

    def counting(game: Any, view: dict[str, Any], legal: list[str], seat: int | None) -> str:
        drawn.append(seat)
        return real(game, view, legal, seat)

    monkeypatch.setattr(hub_module, "render", counting)

    async def scenario() -> None:
        hub = Hub(Store("sqlite://"))
        try:
            tid, _tokens = await hub.create("race", 2, [], [(HUMAN, None), (HUMAN, None)])
            table = await hub.get(tid)
            first = hub.payload(table, 0)
            assert drawn == [0]
            table.notice = "a notice"  # the update is rebuilt, the board is not
            table.cache.clear()
            again = hub.payload(table, 0)
            assert again is not first and again["notice"] == "a notice" and again["svg"] is first["svg"]
            assert drawn == [0]
            hub.payload(table, None)  # another seat: its own picture
            assert drawn == [0, None]
            seat = table.state.actors()[0]
            await hub.act(table, seat, str(table.state.legal_actions(seat)[0]), table.version)
            moved = hub.payload(table, 0)
            assert drawn == [0, None, 0] and moved["view"] != first["view"]
            assert moved["svg"] == real(table.game, moved["view"], moved["legal"], 0)
        finally:
            await hub.close()

    asyncio.run(scenario())


def test_an_update_for_a_page_that_went_away_ends_its_pump_quietly() -> None:
    """A page that closes while its update is on the way: the send fails as Starlette fails it
    ("send after close" is a RuntimeError), the connection counts as closed, nothing is raised."""
    from starlette.websockets import WebSocketDisconnected

    sent: list[str] = []

    async def closed_send(text: str) -> None:
        sent.append(text)
        raise WebSocketDisconnected('Cannot call "send" once a close message has been sent.')

    base = {"type": "state", "legal": [], "svg": "<svg/>"}

    async def run() -> Subscriber:
        sub = Subscriber(0, lambda: asyncio.sleep(0, Wire(base)), closed_send)
        sub.offer()
        await asyncio.wait_for(sub.pump(), 5)
        return sub

    sub = asyncio.run(run())
    assert sub.closed and len(sent) == 1


def test_a_connection_that_asks_gets_each_new_picture_unescaped_after_its_update() -> None:
    """``frames``: a new board is one text: the update with ``"svg_frame"`` in place of the picture, a newline,
    the SVG as drawn; the board it already shows is left out as before; the update is the full one minus
    the picture."""
    base = {"type": "update", "version": 3, "svg": '<svg a="1">—\n</svg>', "legal": ["a"], "log": []}
    sub = Subscriber(0, lambda: asyncio.sleep(0, Wire(base)), _noop, frames=True)
    wire = Wire(base)
    (text,) = sub.texts_of(wire)
    head, picture = text.split("\n", 1)
    assert picture == base["svg"]  # as drawn: not escaped (its own newline kept)
    assert json.loads(head) == {**{k: v for k, v in base.items() if k != "svg"}, "svg_frame": True}
    assert sub.texts_of(wire) == (wire.lite,)  # shown now: the board left out
    again = Wire(dict(base))
    assert sub.texts_of(again) == (again.lite,)
    (other,) = sub.texts_of(Wire({**base, "legal": []}))  # other buttons: the picture again
    assert other.split("\n", 1)[1] == base["svg"]
    plain = Subscriber(0, lambda: asyncio.sleep(0, Wire(base)), _noop)
    fresh = Wire(base)
    assert plain.texts_of(fresh) == (fresh.full,)  # the default: one text with the picture inside


def test_the_page_protocol_with_pictures_unescaped(race: None, client: Any) -> None:
    """Over a real WebSocket: the hello asks for it; every update that brings a new board carries that board
    after a newline, exactly the picture a plain connection gets inside its update."""
    table = new_table(client)
    tid, tokens = table["id"], [token(table, 0), token(table, 1)]
    with client.websocket_connect(f"/ws/tables/{tid}") as framed, ws_open(client, tid, tokens[0]) as plain:
        framed.send_json({"type": "hello", "token": tokens[0], "svg_frames": True})
        head, picture = framed.receive_text().split("\n", 1)
        update = json.loads(head)
        reference = plain.receive_json()
        assert picture.startswith("<svg") and picture == reference["svg"]
        assert update["svg_frame"] is True and "svg" not in update
        assert {**update, "svg": picture, "svg_frame": None} == {**reference, "svg_frame": None}
        assert move(client, tid, tokens[0], "add 2").status_code == 200
        head, picture = framed.receive_text().split("\n", 1)
        reference = plain.receive_json()
        assert json.loads(head)["version"] == reference["version"] == 1 and picture == reference["svg"]
