"""Seat names (issue 15 item 3) and log lines that are secret only while their step is open (item 2)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import farmtable
from farmtable.server.hub import check_name
from farmtable.server.narrate import log_text
from farmtable.server.store import Seat
from tests.server.conftest import TestClient, new_table, seat_headers, token, ws_open


def rename(client: TestClient, tid: str, tok: str | None, name: Any) -> Any:
    """POST a new name for the seat of ``tok``."""
    return client.post(f"/api/tables/{tid}/name", json={"name": name}, headers=seat_headers(tok))


def test_the_creator_names_their_seat_and_everyone_reads_it(client: TestClient) -> None:
    table = new_table(client, name="  Ada  ")
    tid = table["id"]
    mine = client.get(f"/api/tables/{tid}", headers=seat_headers(token(table, 0))).json()
    assert mine["seats"][0]["name"] == "Ada" and mine["seats"][0]["label"] == "Ada (you)"
    assert mine["seats"][1]["name"] is None and mine["seats"][1]["label"] == "Player 1 (invited)"
    theirs = client.get(f"/api/tables/{tid}", headers=seat_headers(token(table, 1))).json()
    assert theirs["seats"][0]["label"] == "Ada" and theirs["seats"][1]["label"] == "Player 1 (you)"


def test_a_seat_renames_itself_and_the_watchers_are_sent_it(client: TestClient) -> None:
    table = new_table(client)
    tid, friend = table["id"], token(table, 1)
    with ws_open(client, tid) as spectator:
        assert spectator.receive_json()["seats"][1]["name"] is None
        answer = rename(client, tid, friend, "Zoë O'Neil-2")
        assert answer.status_code == 200, answer.text
        assert answer.json()["seats"][1]["label"] == "Zoë O'Neil-2 (you)"
        pushed = spectator.receive_json()
        assert pushed["type"] == "update" and pushed["seats"][1]["name"] == "Zoë O'Neil-2"
    with ws_open(client, tid, token(table, 0)) as ws:  # the WebSocket names its seat too
        ws.receive_json()
        ws.send_json({"type": "name", "name": "Ada", "id": 7})
        replies = [ws.receive_json(), ws.receive_json()]
        ack = next(r for r in replies if r["type"] == "ack")
        update = next(r for r in replies if r["type"] == "update")
        assert ack == {"type": "ack", "id": 7, "version": 0, "name": "Ada"}
        assert update["seats"][0]["label"] == "Ada (you)"
    with client.__class__(client.app) as again:  # stored: a fresh read has it
        assert again.get(f"/api/tables/{tid}").json()["seats"][0]["name"] == "Ada"


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("", "at least one character"),
        ("    ", "at least one character"),
        ("x" * 25, "at most 24"),
        ("<b>Ada</b>", "'<'"),
        ("Ada\u202e", "U+202E"),
        ("Ada!", "'!'"),
        (7, "valid string"),
    ],
)
def test_a_bad_name_is_refused_saying_why_and_changes_nothing(client: TestClient, name: Any, problem: str) -> None:
    table = new_table(client)
    tid = table["id"]
    answer = rename(client, tid, token(table, 0), name)
    assert answer.status_code == 400 and problem in answer.json()["error"], answer.text
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["name"] is None
    body = {"game": "race", "players": 2, "seats": [{"kind": "you"}, {"kind": "invite"}], "name": name}
    assert client.post("/api/tables", json=body).status_code == 400


def test_naming_needs_the_seat_token(client: TestClient) -> None:
    table = new_table(client)
    assert rename(client, table["id"], None, "Ada").status_code == 403
    assert rename(client, table["id"], "not-a-token", "Ada").status_code == 403


def test_ai_seats_are_named_by_their_level_else_their_spec(client: TestClient) -> None:
    table = new_table(
        client, seats=[{"kind": "ai", "agent": "normal"}, {"kind": "ai", "agent": "random"}, {"kind": "you"}]
    )
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    assert [s["name"] for s in seats[:2]] == ["Normal AI", "random"]
    assert [s["label"] for s in seats[:2]] == ["Normal AI", "random"]


def test_names_are_plain_checked_text() -> None:
    assert check_name(" Ada  Lovelace ") == "Ada  Lovelace"
    assert check_name("Έλενα") == "Έλενα" and check_name("李雷") == "李雷"
    assert check_name("e\u0301") == "é"  # NFC: the accent joins its letter


def test_seats_stored_before_names_load_unnamed() -> None:
    old = {"kind": "human", "agent": None, "token_hash": "ab", "issued": 1.0}
    assert Seat.from_dict(old).name is None
    assert Seat.from_dict(Seat("human", None, "ab", 1.0, "Ada").to_dict()).name == "Ada"


# --- secrets only while secret ------------------------------------------------------------------------


def test_tiny_towns_choices_are_shown_once_their_step_is_over(client: TestClient) -> None:
    if "tiny-towns" not in farmtable.list_games():
        pytest.skip("tiny-towns is not registered yet")
    table = new_table(client, "tiny-towns")
    tid, tokens = table["id"], [token(table, 0), token(table, 1)]
    rng = random.Random(4)
    hidden_seen = 0
    for _ in range(60):
        view = client.get(f"/api/tables/{tid}").json()
        if view["over"]:
            break
        seat = rng.choice(view["actors"])
        mine = client.get(f"/api/tables/{tid}", headers=seat_headers(tokens[seat])).json()
        body = {"token": tokens[seat], "action": rng.choice(mine["legal"]), "version": mine["version"]}
        assert client.post(f"/api/tables/{tid}/moves", json=body).status_code == 200
        other = client.get(f"/api/tables/{tid}/log", headers=seat_headers(tokens[1 - seat])).json()["log"]
        last = other[-1]["text"]
        now = client.get(f"/api/tables/{tid}").json()
        one_left = len(now["actors"]) == 1 and len(view["actors"]) == 2
        if one_left and body["action"].startswith("place "):  # one of two has placed: the other may not read it
            assert last == f"Player {seat} chose (secret)"
            hidden_seen += 1
        if body["action"].startswith("name "):
            assert last == log_text("move", seat, body["action"], hidden=False)  # naming a resource is public
    assert hidden_seen, "no placement was made while the other still had to place"
    log = client.get(f"/api/tables/{tid}/log", headers=seat_headers(tokens[0])).json()["log"]
    shown = [line for line in log if line["player"] == 1 and line["text"].startswith("Player 1 placed ")]
    hidden = [line["seq"] for line in log if "(secret)" in line["text"]]
    named = [line["seq"] for line in log if " named " in line["text"]]
    assert len(shown) > 5, "the other player's past placements are shown"
    theirs = {
        line["seq"]: line["text"]
        for line in client.get(f"/api/tables/{tid}/log", headers=seat_headers(tokens[1])).json()["log"]
    }
    for seq in hidden:  # still secret: the step open now, or the monument kept (the game never shows it)
        assert seq > named[-1] or theirs[seq].startswith("Player 1 kept the monument "), theirs[seq]
    kept = [seq for seq in hidden if theirs[seq].startswith("Player 1 kept the monument ")]
    assert kept, "the kept monument stays secret"
