"""The JSON API and the WebSocket of the real app, on a real SQLite file, with the toy game."""

from __future__ import annotations

import time
from typing import Any

from tests.server.conftest import (
    TEST_LIMITS,
    TestClient,
    create_app,
    move,
    new_table,
    seat_headers,
    token,
    undo,
    ws_open,
)


def get(client: TestClient, table_id: str, tok: str | None = None) -> dict[str, Any]:
    """The table as a seat (or a spectator) sees it."""
    response = client.get(f"/api/tables/{table_id}", headers=seat_headers(tok))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def wait_for(client: TestClient, table_id: str, tok: str | None, check: Any, timeout: float = 10) -> dict[str, Any]:
    """Poll the table until ``check(payload)`` holds (AI seats move in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        payload = get(client, table_id, tok)
        if check(payload) or time.monotonic() > deadline:
            return payload
        time.sleep(0.02)


def test_games_and_pages_are_served(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert "race" in [g["id"] for g in games]
    assert client.get("/api/agents").json()[0]["spec"] == "random"
    home = client.get("/")
    assert home.status_code == 200 and "Race to Ten" in home.text
    assert client.get("/new").status_code == 200
    assert client.get("/score").status_code == 200
    assert client.get("/static/table.js").status_code == 200


def test_a_seat_sees_its_view_and_acts_with_its_token(client: TestClient) -> None:
    table = new_table(client)
    me = get(client, table["id"], token(table, 0))
    assert me["seat"] == 0 and me["actors"] == [0]
    assert me["legal"] == ["add 1", "add 2", "roll"]
    assert me["view"]["my_secret"] is not None
    assert 'data-action="add 1"' in me["svg"]
    friend = get(client, table["id"], token(table, 1))
    assert friend["seat"] == 1 and friend["legal"] == []
    spectator = get(client, table["id"])
    assert spectator["seat"] is None and spectator["view"]["my_secret"] is None and spectator["legal"] == []

    after = move(client, table["id"], token(table, 0), "add 2").json()
    assert after["version"] == 1 and after["actors"] == [1]
    assert after["log"] == [{"seq": 1, "player": 0, "text": "Player 0: add 2", "events": []}]
    assert get(client, table["id"])["view"]["pile"] == 2


def test_the_websocket_pushes_updates_and_takes_moves(client: TestClient) -> None:
    table = new_table(client)
    with (
        ws_open(client, table["id"], token(table, 0)) as ws0,
        ws_open(client, table["id"]) as spectator,
    ):
        assert ws0.receive_json()["version"] == 0
        assert spectator.receive_json()["seat"] is None
        ws0.send_json({"type": "move", "action": "add 1", "id": 7, "version": 0})
        messages = [ws0.receive_json(), ws0.receive_json()]
        kinds = {m["type"]: m for m in messages}
        assert kinds["ack"] == {"type": "ack", "id": 7, "version": 1}
        assert kinds["update"]["view"]["pile"] == 1
        pushed = spectator.receive_json()
        assert pushed["version"] == 1 and pushed["view"]["pile"] == 1
        ws0.send_json({"type": "ping", "id": 8})
        assert ws0.receive_json() == {"type": "pong", "id": 8}


def test_ai_seats_play_on_the_server_to_the_end(client: TestClient) -> None:
    table = new_table(client, seats=[{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "greedy"}])
    final = wait_for(client, table["id"], None, lambda p: p["over"])
    assert final["over"] and final["result"]["winners"]
    assert all(s["kind"] == "ai" for s in final["seats"])
    sheet = final["result"]["sheet"]  # the readable sheet, columns headed by the seats' names
    assert sheet["columns"] == [s["label"] for s in final["seats"]]
    assert sheet["totals"] == [str(t) for t in final["result"]["totals"]] and sheet["standing"]


def test_the_scoring_helper_answers_a_sheet_headed_by_the_typed_names(client: TestClient) -> None:
    typed = "Anna: 72 coins, 1 wheat, 1 bread, 1 animal\nBen: 72 coins, 2 wheat\n"
    answer = client.post("/api/score/farmers-finances", json={"text": typed})
    assert answer.status_code == 200, answer.text
    sheet = answer.json()["sheet"]
    assert sheet["columns"] == ["Anna", "Ben"]
    assert "Anna" in sheet["standing"] and "[" not in " ".join(sheet["notes"])


def test_undo_follows_the_terminal_policy(client: TestClient) -> None:
    table = new_table(client)
    tid, t0, t1 = table["id"], token(table, 0), token(table, 1)
    move(client, tid, t0, "add 1")
    assert get(client, tid, t0)["can_undo"] is True  # player 0's own last decision, nobody decided since
    response = undo(client, tid, t1)
    assert response.status_code == 409 and "player 0's" in response.json()["error"]
    move(client, tid, t1, "add 2")
    assert get(client, tid, t0)["can_undo"] is False  # player 1 decided since
    assert get(client, tid, t1)["can_undo"] is True
    undone = undo(client, tid, t1).json()
    assert undone["view"]["pile"] == 1 and undone["actors"] == [1] and undone["version"] == 3
    assert undone["log"][-1]["text"] == "Player 1 took back a decision (add 2)"
    move(client, tid, t1, "roll")
    refused = undo(client, tid, t1)  # a roll revealed chance: it stands
    assert refused.status_code == 409 and "revealed" in refused.json()["error"]


def test_rematch_keeps_the_seats_with_new_tokens(client: TestClient) -> None:
    table = new_table(client, seats=[{"kind": "you"}, {"kind": "ai", "agent": "random"}])
    tid, t0 = table["id"], token(table, 0)
    early = client.post(f"/api/tables/{tid}/rematch", json={"token": t0})
    assert early.status_code == 409
    while not (p := get(client, tid, t0))["over"]:
        if p["legal"]:
            move(client, tid, t0, "add 2")
        else:
            time.sleep(0.01)
    new = client.post(f"/api/tables/{tid}/rematch", json={"token": t0}).json()
    again = client.post(f"/api/tables/{tid}/rematch", json={"token": t0}).json()
    assert again["id"] == new["id"] and again["token"] == new["token"] != t0  # the same new token each time
    assert get(client, tid, t0)["rematch"] == new["id"]
    assert client.get(f"/api/tables/{new['id']}", headers=seat_headers(t0)).status_code == 403  # the old one
    fresh = get(client, new["id"], new["token"])
    assert fresh["seat"] == 0 and fresh["version"] == 0 and fresh["seats"][1]["agent"] == "random"


def test_replay_recomputes_every_position_from_the_log(client: TestClient) -> None:
    table = new_table(client)
    tid, tokens = table["id"], [token(table, 0), token(table, 1)]
    assert client.get(f"/api/tables/{tid}/replay").status_code == 409
    moves = 0
    while not (p := get(client, tid))["over"]:
        seat = p["actors"][0]
        move(client, tid, tokens[seat], "add 2")
        moves += 1
    replay = client.get(f"/api/tables/{tid}/replay").json()
    assert len(replay["frames"]) == moves + 1
    assert replay["frames"][0]["text"] == "Start of the game"
    assert replay["frames"][1]["text"] == "Player 0: add 2"
    assert replay["result"]["totals"] == p["result"]["totals"]
    assert client.get(f"/replay/{tid}").status_code == 200


def test_a_restarted_app_finds_every_table_where_it_was(race: None, db_url: str) -> None:
    with TestClient(create_app(db_url, limits=TEST_LIMITS)) as c:
        table = new_table(c)
        tid, t0 = table["id"], token(table, 0)
        move(c, tid, t0, "add 2")
        before = get(c, tid, t0)
    with TestClient(create_app(db_url, limits=TEST_LIMITS)) as c:
        after = get(c, tid, t0)
        assert after["version"] == before["version"] and after["view"] == before["view"]
        # the same lines; the pushed events only where this process stored the decision (the page asks
        # GET /events for the others)
        assert after["log"] == [{k: v for k, v in line.items() if k != "events"} for line in before["log"]]
        moved = move(c, tid, token(table, 1), "add 1")
        assert moved.status_code == 200 and moved.json()["view"]["pile"] == 3


def test_updates_carry_the_log_tail_and_the_whole_log_is_one_request_away(client: TestClient) -> None:
    table = new_table(client)
    tid, t0 = table["id"], token(table, 0)
    for _ in range(20):  # 40 log lines: a move and its undo, twenty times
        move(client, tid, t0, "add 1")
        undo(client, tid, t0)
    payload = get(client, tid, t0)
    assert payload["log_total"] == 40 and len(payload["log"]) == 30 and payload["log"][0]["seq"] == 11
    full = client.get(f"/api/tables/{tid}/log", headers=seat_headers(t0)).json()
    assert [line["seq"] for line in full["log"]] == list(range(1, 41))
    assert full["log"][0]["text"] == "Player 0: add 1"
    assert full["log"][1]["text"] == "Player 0 took back a decision (add 1)"
    assert client.get(f"/api/tables/{tid}/log", headers=seat_headers("nope")).status_code == 403


def test_a_searching_ai_thinks_in_a_worker_process(client: TestClient) -> None:
    import farmtable

    if "farmers-finances" not in farmtable.list_games():
        return
    table = new_table(client, "farmers-finances", seats=[{"kind": "ai", "agent": "ismcts:iters=5"}, {"kind": "you"}])
    moved = wait_for(client, table["id"], token(table, 1), lambda p: p["version"] >= 1, timeout=60)
    assert moved["version"] >= 1 and moved["notice"] is None
    assert client.app.state.hub._procs is not None  # type: ignore[attr-defined]


def test_a_stored_state_the_game_cannot_read_is_rebuilt_from_the_log(race: None, db_url: str) -> None:
    from sqlalchemy import text

    from farmtable.server import create_app

    with TestClient(create_app(db_url, limits=TEST_LIMITS)) as c:
        table = new_table(c)
        tid, tokens = table["id"], [token(table, 0), token(table, 1)]
        for seat, action in [(0, "add 2"), (1, "roll"), (0, "add 1")]:
            move(c, tid, tokens[seat], action)
        before = get(c, tid, tokens[1])
        with c.app.state.hub.store.engine.begin() as conn:  # type: ignore[attr-defined]
            conn.execute(text("UPDATE tables SET state = :s WHERE id = :i"), {"s": '{"farmtable": 1}', "i": tid})
    with TestClient(create_app(db_url, limits=TEST_LIMITS)) as c:
        after = get(c, tid, tokens[1])
        assert after["view"] == before["view"] and after["version"] == 3 and after["actors"] == [1]


def test_idle_tables_leave_memory_and_come_back_intact(client: TestClient) -> None:
    table = new_table(client)
    tid, t0 = table["id"], token(table, 0)
    move(client, tid, t0, "add 2")
    before = get(client, tid, t0)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with ws_open(client, tid) as ws:
        ws.receive_json()
        assert hub.sweep(0) == 0  # watched: it stays
    time.sleep(0.05)
    assert hub.sweep(0) >= 1 and tid not in hub.tables
    again = get(client, tid, t0)
    # intact; a line's pushed events stay only with the process that stored it (the page asks GET /events)
    assert again == {**before, "log": [{k: v for k, v in line.items() if k != "events"} for line in before["log"]]}


def test_a_database_made_before_seeds_grew_is_migrated(race: None, db_url: str) -> None:
    """An older database (an integer ``seed`` column only) gets the new columns and its tables still load."""
    import sqlite3

    with TestClient(create_app(db_url, limits=TEST_LIMITS)) as c:
        table = new_table(c)
        before = get(c, table["id"], token(table, 0))
    path = db_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE tables SET seed = 3")
        conn.execute("ALTER TABLE tables DROP COLUMN seed_text")
        conn.execute("ALTER TABLE tables DROP COLUMN meta")
    with TestClient(create_app(db_url, limits=TEST_LIMITS)) as c:
        after = get(c, table["id"], token(table, 0))
        assert after["view"] == before["view"] and after["seeded"] is None
        assert move(c, table["id"], token(table, 0), "add 1").status_code == 200
        fresh = new_table(c, seed=None)
        assert get(c, fresh["id"])["version"] == 0
    with sqlite3.connect(path) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(tables)")}
        seeds = [int(s) for (s,) in conn.execute("SELECT seed_text FROM tables WHERE seed_text IS NOT NULL")]
    assert {"seed_text", "meta"} <= columns and seeds and all(s >= 2**64 for s in seeds)
