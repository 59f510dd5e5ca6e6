"""The server's per-decision work outside the pictures, made cheaper without changing a byte: JSON encoders made
once, an update encoded in one call with marks where its spliced parts go, the seats part of an update kept
per seat until a seat changes, a log tail's text made as it is built, the decision write's parameters picked
by one call. Each test checks the text against the plain way, or the sharing the saving rests on."""

from __future__ import annotations

import asyncio
import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import farmtable.server.hub as hub_module
from farmtable.core import Game, State
from farmtable.server.hub import (
    _SPLICE_MARKS,
    HUMAN,
    Hub,
    LogLine,
    LogTail,
    _one_encoder,
    encode_update,
)
from farmtable.server.store import Store, _picker


class Named:
    """Not JSON by itself: ``default=str`` names it."""

    def __str__(self) -> str:
        return "a named thing"


VALUES: list[Any] = [
    {"b": 1, "a": [1.5, -0.0, 1e300, True, False, None], "é": '—▶★ "quoted" \\ \n'},
    {3: "int key", "x": (1, 2), "y": {"z": [[], {}]}},
    [float("nan"), float("inf"), -float("inf")],
    "a plain string with \u0000 and \u2028",
    12345678901234567890,
    {"thing": Named(), "nested": [Named(), {"k": Named()}]},
]


def _outcome(encode: Any, value: Any) -> tuple[str, Any]:
    """The text, or the kind of error (both ways must fail alike: a key sort of mixed keys, no default)."""
    try:
        return "text", encode(value)
    except (TypeError, ValueError) as exc:
        return "error", type(exc)


@pytest.mark.parametrize(
    "options",
    [{"separators": (",", ":")}, {"sort_keys": True, "default": str}, {}, {"ensure_ascii": False}],
)
@pytest.mark.parametrize("value", VALUES)
def test_an_encoder_made_once_gives_the_text_of_json_dumps(options: dict[str, Any], value: Any) -> None:
    encoder = json.JSONEncoder(**options)
    made_once = _outcome(_one_encoder(encoder), value)
    assert made_once == _outcome(lambda v: json.dumps(v, **options), value)
    assert made_once == _outcome(_one_encoder(encoder), value)  # and again, the same


def test_an_encoder_made_once_can_be_called_again_after_an_error() -> None:
    encode = _one_encoder(json.JSONEncoder(separators=(",", ":")))
    with pytest.raises(TypeError):
        encode({"a": [1, {"b": Named()}]})
    assert encode({"a": [1, {"b": 2}]}) == '{"a":[1,{"b":2}]}'
    with pytest.raises(ValueError):
        _one_encoder(json.JSONEncoder(allow_nan=False))(math.nan)


def _plain(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"))


def _tail(*notations: str) -> LogTail:
    lines = [LogLine(i + 1, "move", i % 2, n, False) for i, n in enumerate(notations)]
    return LogTail(line.item_for(None) for line in lines)


@pytest.mark.parametrize("where", ["svg", "log", "notice", "seats"])
def test_an_update_holding_a_splice_mark_is_still_encoded_as_json_dumps(where: str) -> None:
    """Should a value hold the text of a mark (a NUL character in it), the update is encoded the long way."""
    payload: dict[str, Any] = {
        "type": "update",
        "seats": [{"label": "Ada"}],
        "svg": "<svg/>",
        "log": _tail("take 1", "pass"),
        "notice": None,
    }
    for mark in _SPLICE_MARKS.values():
        if where == "svg":
            payload["svg"] = f"<svg>{mark}</svg>"
        elif where == "log":
            payload["log"] = _tail("take 1", mark)
        else:
            payload[where] = [mark] if where == "seats" else mark
        svg_json = json.dumps(payload["svg"])
        assert encode_update(payload, svg_json) == _plain(payload)
        assert encode_update(payload) == _plain(payload)
        marked_svg = dict(payload, svg=mark)  # the picture itself is a mark's string
        assert encode_update(marked_svg, json.dumps(mark)) == _plain(marked_svg)


def test_the_splice_puts_each_part_where_its_key_is() -> None:
    payload = {"a": 1, "log": _tail("take 1"), "b": [2], "svg": "<svg/>", "c": "x"}
    text = encode_update(payload, '"<svg id=\\"spliced\\"/>"')
    assert json.loads(text)["svg"] == '<svg id="spliced"/>' and list(json.loads(text)) == list(payload)
    payload["log"].encoded = '[{"seq":7}]'  # the tail's own text is used (so the checks above can fail)
    assert json.loads(encode_update(payload))["log"] == [{"seq": 7}]


def test_a_seats_part_is_made_once_per_seat_and_again_when_a_seat_changes() -> None:
    async def scenario() -> None:
        hub = Hub(Store("sqlite://"), ai_delay=0.0)
        try:
            tid, _tokens = await hub.create("farmers-finances", 2, [], [(HUMAN, None), (HUMAN, None)], seed=4)
            table = await hub.get(tid)
            first = [hub.payload(table, who)["seats"] for who in (0, 1, None)]
            seat = table.state.actors()[0]
            await hub.act(table, seat, str(table.state.legal_actions(seat)[0]), table.version)
            second = [hub.payload(table, who)["seats"] for who in (0, 1, None)]
            assert all(a is b for a, b in zip(first, second, strict=True))  # kept across versions
            assert second[0] == [
                {"seat": 0, "kind": "human", "agent": None, "name": None, "label": "Player 0 (you)"},
                {"seat": 1, "kind": "human", "agent": None, "name": None, "label": "Player 1 (invited)"},
            ]
            await hub.rename(table, 1, "Bea")
            third = [hub.payload(table, who)["seats"] for who in (0, 1, None)]
            assert [s[1]["label"] for s in third] == ["Bea", "Bea (you)", "Bea"]
            assert all(s[1]["name"] == "Bea" for s in third)
            table.record.seats[0].name = "Ada"  # even a seat changed in place is seen (by its content)
            table.cache.clear()
            assert hub.payload(table, None)["seats"][0]["label"] == "Ada"
        finally:
            await hub.close()

    asyncio.run(scenario())


def test_a_log_tail_knows_its_text_once_made() -> None:
    async def scenario() -> None:
        hub = Hub(Store("sqlite://"), ai_delay=0.0)
        try:
            tid, _tokens = await hub.create("tiny-farms", 2, [], [(HUMAN, None), (HUMAN, None)], seed=3)
            table = await hub.get(tid)
            for _ in range(4):
                seat = table.state.actors()[0]
                await hub.act(table, seat, str(table.state.legal_actions(seat)[0]), table.version)
                tail = hub.log_lines(table, 0, 30)
                assert isinstance(tail, LogTail) and tail.encoded is not None
                assert json.loads(tail.encoded) == [dict(item) for item in tail]
        finally:
            await hub.close()

    asyncio.run(scenario())


def test_the_decision_write_picks_its_parameters_in_order() -> None:
    assert _picker(["b"])({"a": 1, "b": 2}) == (2,)
    assert _picker(["c", "a"])({"a": 1, "b": 2, "c": 3}) == (3, 1)


@pytest.mark.parametrize("game, players", [("farmerama", 2), ("tiny-towns", 3)])
def test_a_closing_step_looks_at_its_last_position_once_per_seat(
    game: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``shown_choices`` compares each counterfactual with the real step; the position the real step ended in
    is the same for every decision of the step, and each seat's view of it is made once for the whole step."""
    ours = hub_module.shown_choices
    counts: list[int] = []

    def counted(
        game: Game[Any], players: int, decisions: Sequence[Any], seqs: Sequence[int], known: Any = None
    ) -> list[int]:
        last = game.from_json(decisions[0].before)
        for decision in decisions:
            last.apply(decision.player, decision.notation)
        final = last.to_json()
        kind = type(last)
        plain_view = kind.view
        seen: Counter[int | None] = Counter()

        def view(self: State[Any], seat: int | None) -> dict[str, Any]:
            if self.to_json() == final:
                seen[seat] += 1
            return plain_view(self, seat)

        monkeypatch.setattr(kind, "view", view)
        try:
            return ours(game, players, decisions, seqs, known)
        finally:
            monkeypatch.setattr(kind, "view", plain_view)
            counts.extend(seen.values())

    monkeypatch.setattr(hub_module, "shown_choices", counted)

    async def scenario() -> None:
        hub = Hub(Store("sqlite://"), ai_delay=0.0)
        try:
            tid, _tokens = await hub.create(game, players, [], [(HUMAN, None)] * players, seed=1)
            table = await hub.get(tid)
            rng = random.Random(1)
            for _ in range(70):
                if table.state.is_over():
                    break
                seat = rng.choice(table.state.actors())
                legal = table.state.legal_actions(seat)
                await hub.act(table, seat, str(legal[rng.randrange(len(legal))]), table.version)
        finally:
            await hub.close()

    asyncio.run(scenario())
    assert counts  # steps closed and their last positions were looked at
    assert max(counts) == 1
