"""Join by short code (issue 15 item 3): an invited seat gets a 6-character code; typing it gives the
seat's link once; a bad, used or unknown code is refused saying why, and nothing changes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from farmtable.server.app import JOIN_ALPHABET, read_join_code
from farmtable.server.store import seal_token, unseal_token
from tests.server.conftest import TestClient, new_table, seat_headers, token


def test_an_invited_seat_is_joined_once_by_its_code(client: TestClient) -> None:
    table = new_table(client)
    mine, theirs = table["seats"]
    assert mine["code"] is None  # your own seat needs no code
    code = theirs["code"]
    assert len(code) == 7 and code[3] == "-" and all(ch in JOIN_ALPHABET for ch in code.replace("-", ""))
    typed = " " + code.lower().replace("-", " ") + " "  # case, spaces and dashes do not matter
    joined = client.post("/api/join", json={"code": typed})
    assert joined.status_code == 200, joined.text
    data = joined.json()
    assert data["id"] == table["id"] and data["seat"] == 1
    assert data["link"] == theirs["link"]  # the same seat and token as the invitation link
    friend = data["link"].split("#token=")[1]
    seen = client.get(f"/api/tables/{table['id']}", headers=seat_headers(friend)).json()
    assert seen["seat"] == 1
    again = client.post("/api/join", json={"code": code})
    assert again.status_code == 404 and "works once" in again.json()["error"]


def test_codes_that_are_not_codes_are_refused_saying_what_a_code_is(client: TestClient) -> None:
    for typed in ("", "ABC", "ABCDEFG", "ABC-D0E", "<b>x</b>"):
        answer = client.post("/api/join", json={"code": typed})
        assert answer.status_code == 400, typed
        assert "6 letters and digits" in answer.json()["error"]
    unknown = client.post("/api/join", json={"code": "ZZZ-ZZZ"})
    assert unknown.status_code == 404


def test_the_database_holds_neither_the_code_nor_the_token(client: TestClient, db_url: str) -> None:
    table = new_table(client)
    code, friend = table["seats"][1]["code"].replace("-", ""), token(table, 1)
    path = Path(db_url.removeprefix("sqlite:///"))
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT code_hash, sealed FROM join_codes").fetchall()
    assert len(rows) == 1
    stored = " ".join(rows[0])
    assert code not in stored and friend not in stored
    assert unseal_token(code, rows[0][1]) == friend
    assert seal_token(code, friend) == rows[0][1]
    assert read_join_code(code.lower()) == code


def test_join_tries_are_rate_limited(client: TestClient) -> None:
    answers = [client.post("/api/join", json={"code": "ZZZ-ZZZ"}).status_code for _ in range(25)]
    assert answers[0] == 404 and 429 in answers
