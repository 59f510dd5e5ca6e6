"""Seat tokens expire (issue 12, Low: "tokens never expire"): a real ``farmtable serve`` with a
lifetime of about 1.7 seconds (``--token-days 0.00002``) refuses a token older than that with the
documented JSON error (401, WebSocket close 4401) and the table stays as it was."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("websockets", reason="the expiry tests need the websockets client")

from tests.server.attack import close_code, get, open_table, post, recv, recv_until, table_as, ws
from tests.server.live import LiveServer

LIFETIME_DAYS = 0.00002
"""About 1.73 seconds."""
PAST_LIFETIME = LIFETIME_DAYS * 86_400 + 0.3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose seat tokens act for about 1.7 seconds."""
    db = tmp_path_factory.mktemp("expiry") / "expiry.db"
    live = LiveServer(f"sqlite:///{db}", args=["--token-days", str(LIFETIME_DAYS), "--tables-per-minute", "0"])
    live.start()
    yield live
    live.stop()


def test_an_expired_token_is_refused_with_401_and_changes_nothing(server: LiveServer) -> None:
    """HTTP: the token acts at first; once its lifetime has passed, reads as a seat, moves and undo
    are refused with 401 and a JSON error naming the expiry; version and board are unchanged."""
    table = open_table(server, "race", [{"kind": "you"}])
    tid, tok = table["id"], table["seats"][0]["token"]
    start = table_as(server, tid, tok)
    moved = post(server, f"/api/tables/{tid}/moves", {"token": tok, "action": "add 1", "version": start["version"]})
    assert moved.status_code == 200, moved.text
    before = table_as(server, tid)
    time.sleep(PAST_LIFETIME)
    for response in (
        post(server, f"/api/tables/{tid}/moves", {"token": tok, "action": "add 1", "version": before["version"]}),
        post(server, f"/api/tables/{tid}/undo", {"token": tok, "version": before["version"]}),
        get(server, f"/api/tables/{tid}", headers={"X-Seat-Token": tok}),
    ):
        assert response.status_code == 401, response.text
        assert "expired" in response.json()["error"]
    after = table_as(server, tid)  # a spectator still reads the table: it is unchanged
    assert after["version"] == before["version"] and after["view"] == before["view"]


def test_an_expired_token_cannot_act_on_an_open_socket_nor_open_a_new_one(server: LiveServer) -> None:
    """WebSocket: a socket opened in time gets a 401 error for a move made after the expiry (the
    table does not move); a new hello with the expired token is closed with 4401."""
    table = open_table(server, "race", [{"kind": "you"}])
    tid, tok = table["id"], table["seats"][0]["token"]
    with ws(server, tid, tok) as conn:
        version = recv_until(conn, "update")["version"]
        time.sleep(PAST_LIFETIME)
        conn.send(json.dumps({"type": "move", "action": "add 1", "version": version, "id": 7}))
        answer = next(m for m in (recv(conn) for _ in range(10)) if m["type"] in ("ack", "error"))
    assert answer["type"] == "error" and answer["status"] == 401 and answer["id"] == 7, answer
    assert table_as(server, tid)["version"] == version
    with ws(server, tid, tok) as late:
        assert close_code(late) == 4401


def test_a_fresh_table_token_still_acts(server: LiveServer) -> None:
    """The lifetime counts from each token's own issue: a new table's token acts at once."""
    table = open_table(server, "race", [{"kind": "you"}])
    tid, tok = table["id"], table["seats"][0]["token"]
    moved = post(server, f"/api/tables/{tid}/moves", {"token": tok, "action": "add 1", "version": 0})
    assert moved.status_code == 200, moved.text
