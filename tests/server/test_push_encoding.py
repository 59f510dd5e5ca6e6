"""The update a seat is pushed stays the same text, however it is now made: the picture's JSON spliced in
(made once per picture), the page extras shared between seats that see the same view, the log items made
once per line; checked on seeded games of every game against the update built and encoded the plain way."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from farmtable.server.hub import HUMAN, Drawn, Hub, LogItem, LogLine, LogTail, Subscriber, Wire, encode_update
from farmtable.server.narrate import table_extras
from farmtable.server.render import render
from farmtable.server.store import Store

GAMES = ("tiny-farms", "farmini", "farmerama", "tiny-towns", "farmers-finances")


def _plain(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"))


@pytest.mark.parametrize(
    "payload",
    [
        {"type": "update", "svg": '<svg a="1">—\\</svg>', "log": [{"text": 'say "hi"'}], "over": False},
        {"svg": "<svg/>", "tail": 1},
        {"head": [1, {"x": "é"}], "svg": "<svg/>"},
        {"svg": "<svg/>"},
        {"no_svg": True},
    ],
)
def test_the_spliced_text_is_the_plain_text(payload: dict[str, Any]) -> None:
    svg_json = json.dumps(payload["svg"]) if "svg" in payload else None
    assert encode_update(payload, svg_json) == _plain(payload)
    assert encode_update(payload) == _plain(payload)


def test_a_wrong_svg_text_would_show() -> None:
    """The splice really uses the given text (so the byte-equality checks below can fail)."""
    payload = {"type": "update", "svg": "<svg/>", "version": 2}
    assert json.loads(encode_update(payload, '"<svg id=\\"x\\"/>"'))["svg"] == '<svg id="x"/>'


def test_the_log_is_spliced_from_its_items_own_text() -> None:
    line = LogLine(4, "move", 1, "take 3", False)
    line.events = ['The "wolf" comes']
    item = line.item_for(0)
    assert isinstance(item, LogItem) and item == {"seq": 4, "player": 1, "text": item["text"], "events": line.events}
    assert line.item_for(None) is item  # one item per way of reading the line
    payload = {"type": "update", "svg": "<svg/>", "log": [item, LogLine(5, "move", 0, "pass", False).item_for(0)]}
    assert encode_update(payload) == _plain(payload)
    fake = LogItem(seq=1)
    fake.encoded = '{"seq":2}'  # the splice uses the item's own text (so the checks above can fail)
    assert json.loads(encode_update({"log": [fake]}))["log"] == [{"seq": 2}]
    plain_list = {"log": [fake, {"seq": 3}]}  # not every item knows its text: encoded the plain way
    assert encode_update(plain_list) == _plain(plain_list)


def test_a_picture_is_encoded_once_and_reused_while_it_is_shown() -> None:
    payload = {"type": "update", "version": 1, "svg": "<svg>a</svg>", "legal": []}
    drawn = Drawn({}, [], payload["svg"])
    first = Wire(payload, drawn)
    assert first.full == _plain(payload) and drawn.encoded == json.dumps(payload["svg"])
    kept = drawn.encoded
    later = {**payload, "version": 2, "notice": "n"}
    assert Wire(later, drawn).full == _plain(later) and drawn.encoded is kept
    other = {**payload, "svg": "<svg>b</svg>"}  # a picture that is not the drawn one: encoded plainly
    assert Wire(other, drawn).full == _plain(other) and drawn.encoded is kept


@pytest.mark.parametrize("game", GAMES)
def test_every_update_is_the_plain_one_on_seeded_games(game: str) -> None:
    async def scenario() -> None:
        hub = Hub(Store("sqlite://"), ai_delay=0.0)
        try:
            tid, _tokens = await hub.create(game, 2, [], [(HUMAN, None), (HUMAN, None)], seed=7)
            table = await hub.get(tid)
            rng = random.Random(game)
            for step in range(30):
                state = table.state
                if state.is_over():
                    break
                seat = state.actors()[0]
                legal = state.legal_actions(seat)
                await hub.act(table, seat, str(legal[rng.randrange(len(legal))]), table.version)
                for who in (0, 1, None):
                    wire = hub.wire(table, who)
                    payload = wire.payload
                    assert wire.full == _plain(payload), f"{game}, decision {step}, seat {who}"
                    assert wire.full.isascii()  # cheap to send: a WebSocket sends text as UTF-8
                    as_before = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
                    assert json.loads(wire.full) == json.loads(as_before)  # the same object as before
                    view, legal_now = payload["view"], payload["legal"]
                    assert payload["svg"] == render(table.game, view, legal_now, who)
                    assert payload["extras"] == table_extras(table.game, table.state, view, who)
                    assert payload["log"] == [
                        {"seq": ln.seq, "player": ln.player, "text": ln.text_for(who)}
                        | ({"events": ln.events} if ln.events is not None else {})
                        for ln in table.lines[-len(payload["log"]) :]
                    ]
        finally:
            await hub.close()

    asyncio.run(scenario())


def test_tiny_farms_scores_a_position_once_for_all_its_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    """The live score does not depend on the seat in Tiny Farms: one ``state.result()`` per version for the
    three updates (seat 0, seat 1, a spectator), and each seat's score is the rules' result."""

    async def scenario() -> None:
        hub = Hub(Store("sqlite://"), ai_delay=0.0)
        try:
            tid, _tokens = await hub.create("tiny-farms", 2, [], [(HUMAN, None), (HUMAN, None)], seed=3)
            table = await hub.get(tid)
            kind = type(table.state)
            plain_result = kind.result
            calls = [0]

            def counted(self: Any) -> Any:
                calls[0] += 1
                return plain_result(self)

            monkeypatch.setattr(kind, "result", counted)
            rng = random.Random(3)
            for _ in range(12):
                seat = table.state.actors()[0]
                legal = table.state.legal_actions(seat)
                await hub.act(table, seat, str(legal[rng.randrange(len(legal))]), table.version)
                calls[0] = 0
                scores = [hub.payload(table, who)["extras"]["score"]["totals"] for who in (0, 1, None)]
                assert calls[0] == 1
                assert scores == [list(plain_result(table.state).totals)] * 3
        finally:
            await hub.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("game", GAMES)
def test_a_page_that_does_not_read_the_view_gets_the_same_update_less_the_view(game: str) -> None:
    """``"view": false`` in the hello (the table page): every text is the page's usual one less ``"view"``,
    the picture after the newline when it is new to the connection, ``svg_same`` when it is not."""

    async def scenario() -> None:
        hub = Hub(Store("sqlite://"), ai_delay=0.0)
        try:
            tid, _tokens = await hub.create(game, 2, [], [(HUMAN, None), (HUMAN, None)], seed=5)
            table = await hub.get(tid)
            rng = random.Random(game + ":viewless")
            pages = {who: Subscriber(who, _never, _nowhere, frames=True, view=False) for who in (0, 1, None)}
            usual = {who: Subscriber(who, _never, _nowhere, frames=True) for who in (0, 1, None)}
            for step in range(25):
                state = table.state
                if state.is_over():
                    break
                seat = state.actors()[0]
                legal = state.legal_actions(seat)
                await hub.act(table, seat, str(legal[rng.randrange(len(legal))]), table.version)
                for who in (0, 1, None):
                    wire = hub.wire(table, who)
                    (lean,) = pages[who].texts_of(wire)
                    (full,) = usual[who].texts_of(wire)
                    lean_head, _, lean_svg = lean.partition("\n")
                    full_head, _, full_svg = full.partition("\n")
                    got, expected = json.loads(lean_head), json.loads(full_head)
                    assert "view" in expected and "view" not in got, f"{game}, decision {step}, seat {who}"
                    del expected["view"]
                    assert got == expected and lean_svg == full_svg
                    if "svg_frame" in got:
                        assert lean_svg == wire.payload["svg"]
        finally:
            await hub.close()

    asyncio.run(scenario())


async def _never() -> Wire:
    raise AssertionError("not built here")


async def _nowhere(_text: str) -> None:
    """Nothing is sent: the texts are made and checked."""


def test_a_shared_log_tail_is_encoded_once_and_its_text_is_used() -> None:
    lines = [LogLine(1, "move", 0, "take 1", False), LogLine(2, "move", 1, "pass", False)]
    tail = LogTail(line.item_for(None) for line in lines)
    payload = {"type": "update", "log": tail}
    assert encode_update(payload) == _plain(payload) and tail.encoded is not None
    tail.encoded = '[{"seq":9}]'  # the kept text is what goes out (so the equality above can fail)
    assert json.loads(encode_update(payload))["log"] == [{"seq": 9}]


def test_seats_share_the_log_tail_unless_a_line_is_hidden_from_someone() -> None:
    async def scenario() -> None:
        hub = Hub(Store("sqlite://"), ai_delay=0.0)
        try:
            tid, _tokens = await hub.create("farmers-finances", 2, [], [(HUMAN, None), (HUMAN, None)], seed=2)
            table = await hub.get(tid)
            seat = table.state.actors()[0]
            await hub.act(table, seat, str(table.state.legal_actions(seat)[0]), table.version)
            tails = [hub.log_lines(table, who, 30) for who in (0, 1, None)]
            assert tails[0] is tails[1] is tails[2]
            table.lines[-1].secret = True  # now hidden from all but its player: one tail per reader
            table.record.version += 1
            tails = [hub.log_lines(table, who, 30) for who in (0, 1, None)]
            assert tails[0] is not tails[1] and tails[1] is not tails[2]
            texts = [tail[-1]["text"] for tail in tails]
            mover = table.lines[-1].player
            assert texts[mover] != texts[1 - mover] and texts[1 - mover] == texts[2]
        finally:
            await hub.close()

    asyncio.run(scenario())
