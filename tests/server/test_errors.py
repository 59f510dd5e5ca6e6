"""Bad requests get a 4xx and a clear JSON message, and change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import TestClient, move, new_table, seat_headers, token, undo, ws_open


def snapshot(client: TestClient, table_id: str) -> dict[str, Any]:
    """What a spectator sees, minus nothing: used to show a refused request changed nothing."""
    data: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
    return data


def refused(response: Any, status: int, words: str) -> None:
    """The response has ``status`` and an ``error`` message containing ``words``."""
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


@pytest.fixture
def table(client: TestClient) -> dict[str, Any]:
    """A race table with one move played."""
    t = new_table(client)
    move(client, t["id"], token(t, 0), "add 1")
    return t


def test_unknown_table(client: TestClient, table: dict[str, Any]) -> None:
    refused(client.get("/api/tables/nope"), 404, "no table 'nope'")
    refused(client.get("/api/tables/" + "x" * 5000), 404, "no table")
    refused(move(client, "nope", token(table, 1), "add 1"), 404, "no table")
    refused(undo(client, "nope", "x"), 404, "no table")
    page = client.get("/t/nope")
    assert page.status_code == 404 and "no table" in page.text
    with ws_open(client, "nope") as ws:
        assert ws.receive_json() == {"type": "error", "status": 404, "error": "no table 'nope'"}


def test_wrong_token(client: TestClient, table: dict[str, Any]) -> None:
    tid = table["id"]
    before = snapshot(client, tid)
    refused(move(client, tid, "guess", "add 1"), 403, "does not belong")
    refused(move(client, tid, "", "add 1"), 403, "secret token")
    refused(client.get(f"/api/tables/{tid}", headers=seat_headers("guess")), 403, "does not belong")
    # a real token of another table is no token here
    other = new_table(client)
    refused(move(client, tid, token(other, 1), "add 1"), 403, "seat")
    # a seat's token acts only for that seat: player 0 cannot move for player 1
    refused(
        move(client, tid, token(table, 0), "add 1"),
        409,
        "not player 0's decision",
    )
    with ws_open(client, tid, "guess") as ws:
        assert ws.receive_json()["status"] == 403
    with ws_open(client, tid) as ws:  # a spectator cannot act
        ws.receive_json()
        ws.send_json({"type": "move", "action": "add 1", "id": 1, "version": 1})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 403
    assert snapshot(client, tid) == before


def test_illegal_move(client: TestClient, table: dict[str, Any]) -> None:
    tid = table["id"]
    before = snapshot(client, tid)
    refused(
        move(client, tid, token(table, 1), "add 7"),
        409,
        "'add 7' is not a legal move now; legal moves: add 1, add 2, roll",
    )
    with ws_open(client, tid, token(table, 1)) as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "action": "jump", "id": 3, "version": 1})
        reply = ws.receive_json()
        assert reply == {
            "type": "error",
            "id": 3,
            "status": 409,
            "error": "'jump' is not a legal move now; legal moves: add 1, add 2, roll",
        }
    assert snapshot(client, tid) == before


def test_malformed_json(client: TestClient, table: dict[str, Any]) -> None:
    tid = table["id"]
    before = snapshot(client, tid)
    bad = client.post(f"/api/tables/{tid}/moves", content=b"{not json", headers={"content-type": "application/json"})
    refused(bad, 400, "not valid JSON")
    refused(
        client.post(f"/api/tables/{tid}/moves", json={"token": token(table, 1), "version": 1}),
        400,
        "action: Field required",
    )
    refused(
        client.post(f"/api/tables/{tid}/moves", json={"token": token(table, 1), "action": 5, "version": 1}),
        400,
        "action",
    )
    refused(client.post("/api/tables", json={"game": "race", "players": "two", "seats": []}), 400, "players")
    refused(client.post(f"/api/tables/{tid}/moves", json={"token": token(table, 1), "action": "add 1"}), 400, "version")
    with ws_open(client, tid, token(table, 1)) as ws:
        ws.receive_json()
        ws.send_text("{oops")
        assert ws.receive_json() == {
            "type": "error",
            "id": None,
            "status": 400,
            "error": "the message is not valid JSON",
        }
        ws.send_json(["move"])
        assert ws.receive_json()["status"] == 400
        ws.send_json({"type": "fly", "id": 4})
        assert "unknown message type" in ws.receive_json()["error"]
    assert snapshot(client, tid) == before


def test_bad_new_tables(client: TestClient) -> None:
    count = len(client.get("/api/games").json())
    refused(
        client.post(
            "/api/tables", json={"game": "chess", "players": 2, "seats": [{"kind": "you"}, {"kind": "invite"}]}
        ),
        404,
        "no game 'chess'",
    )
    refused(
        client.post("/api/tables", json={"game": "race", "players": 5, "seats": [{"kind": "ai"}] * 5}),
        400,
        "1–3 players",
    )
    refused(
        client.post("/api/tables", json={"game": "race", "players": 2, "seats": [{"kind": "you"}]}), 400, "need 2 seats"
    )
    refused(
        client.post(
            "/api/tables",
            json={"game": "race", "players": 2, "seats": [{"kind": "you"}, {"kind": "ai", "agent": "genius"}]},
        ),
        400,
        "AI seats take one of the levels",
    )
    refused(
        client.post(
            "/api/tables", json={"game": "race", "players": 1, "variants": ["fast"], "seats": [{"kind": "you"}]}
        ),
        400,
        "no variant 'fast'",
    )
    refused(
        client.post("/api/tables", json={"game": "race", "players": 2, "seats": [{"kind": "you"}, {"kind": "you"}]}),
        400,
        "only one seat",
    )
    refused(client.post("/api/score/race", json={"text": "x"}), 404, "no scoring helper")
    assert len(client.get("/api/games").json()) == count


def test_undo_and_rematch_refusals_change_nothing(client: TestClient, table: dict[str, Any]) -> None:
    tid = table["id"]
    before = snapshot(client, tid)
    refused(undo(client, tid, token(table, 1)), 409, "cannot undo")
    refused(client.post(f"/api/tables/{tid}/rematch", json={"token": token(table, 1)}), 409, "game is over")
    refused(client.post(f"/api/tables/{tid}/undo", json={"version": 1}), 400, "token")
    assert snapshot(client, tid) == before
