"""The attack suite: each finding of the outside review (issue 12), run against a real ``farmtable
serve`` process on 127.0.0.1 with its default limits (or small ones where a limit is the point).

Every attack is bounded in count, size and time and stops by itself. A test here fails on the
server as it was before the fix and passes after it; the finding's id is in its name.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("websockets", reason="the attack suite needs the websockets client")

import farmtable
from farmtable.core.rng import Rng
from tests.server.attack import (
    alive,
    children,
    chunked_post,
    close_code,
    get,
    handshake_refused,
    open_table,
    post,
    raw_get,
    recv,
    recv_until,
    rss_kb,
    table_as,
    ws,
    ws_url,
)
from tests.server.live import LiveServer

DUO = [{"kind": "you"}, {"kind": "invite"}]


def start(tmp: Path, name: str, *args: str, toy: bool = True) -> LiveServer:
    """A started ``farmtable serve`` on a fresh SQLite file with extra options."""
    server = LiveServer(f"sqlite:///{tmp / (name + '.db')}", toy=toy, args=list(args))
    server.start()
    return server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server with the default limits, except table creation (the suite opens many tables)."""
    live = start(tmp_path_factory.mktemp("attack"), "attack", "--tables-per-minute", "0")
    yield live
    live.stop()


def seeds_in(db: Path) -> list[int]:
    """Every stored table seed (the decimal text column), read straight from the database file."""
    with sqlite3.connect(db) as conn:
        return [int(s) for (s,) in conn.execute("SELECT seed_text FROM tables")]


# --- Critical -----------------------------------------------------------------------------------


def test_c1_every_deal_is_keyed_by_128_secret_bits(tmp_path: Path) -> None:
    """C1: seeds came from random.randrange(2**31): all 2**31 could be tried. Now: >= 2**64 (the keyed
    generator), all different, never sent to anyone, and the stored state's Rng is the keyed one."""
    server = start(tmp_path, "c1", "--tables-per-minute", "0")
    try:
        tables = [open_table(server, "farmini", DUO) for _ in range(6)]
        payloads = [json.dumps(table_as(server, t["id"], t["seats"][1]["token"])) for t in tables]
    finally:
        server.stop()
    with sqlite3.connect(tmp_path / "c1.db") as conn:
        stored = dict(conn.execute("SELECT id, seed_text FROM tables").fetchall())
    seeds = [int(stored[t["id"]]) for t in tables]
    assert all(seed >= 2**64 for seed in seeds), seeds
    assert len(set(seeds)) == len(seeds)
    for seed, payload in zip(seeds, payloads, strict=True):
        assert str(seed) not in payload and json.loads(payload)["seeded"] is None
        assert Rng(seed).keyed


def test_c2_a_chosen_seed_is_shown_to_everyone_at_the_table(server: LiveServer) -> None:
    """C2: the creator could pick the seed and nobody else was told. Now every seat and spectator sees
    "seeded game" with the seed; an unseeded table says nothing; bad seeds are refused."""
    chosen = open_table(server, "farmini", DUO, seed=424242)
    friend = table_as(server, chosen["id"], chosen["seats"][1]["token"])
    assert friend["seeded"] == "424242" and table_as(server, chosen["id"])["seeded"] == "424242"
    plain = open_table(server, "farmini", DUO)
    assert table_as(server, plain["id"], plain["seats"][1]["token"])["seeded"] is None
    for bad in (True, -1, 2**64, "7"):
        response = post(server, "/api/tables", {"game": "farmini", "players": 2, "seats": DUO, "seed": bad})
        assert response.status_code == 400, (bad, response.text)


# --- High -----------------------------------------------------------------------------------


def test_h1_a_chunked_body_is_counted_as_it_arrives_and_never_echoed(server: LiveServer) -> None:
    """H1: the 64 kB limit held only with Content-Length; a chunked 100 MB POST was read whole and echoed.
    Now 20 MB chunked is cut off with a short 413 and the server's memory barely moves."""
    assert server.proc is not None
    before = rss_kb(server.proc.pid)
    status, answer = chunked_post(server, "/api/tables", total=20_000_000)
    assert status == 413 and len(answer) < 2_000, answer[:300]
    assert rss_kb(server.proc.pid) - before < 20_000
    # a big field inside the limit: the error quotes at most a short excerpt
    body = {"game": "farmini", "players": 2, "seats": DUO, "variants": ["v" * 50_000]}
    refused = post(server, "/api/tables", body)
    assert 400 <= refused.status_code < 500 and len(refused.content) < 1_000, refused.text[:300]


def test_h2_search_budgets_are_bounded_server_side(server: LiveServer) -> None:
    """H2: ismcts:iters=100000000 and ismcts:time=1e9 were accepted. Now only the levels and specs within
    the budget are (the limits are options of farmtable serve)."""
    for spec in ("ismcts:iters=100000000", "ismcts:time=1e9", "ismcts:iters=2001", "ismcts:time=3", "ismcts:x=1"):
        seats = [{"kind": "you"}, {"kind": "ai", "agent": spec}]
        response = post(server, "/api/tables", {"game": "farmini", "players": 2, "seats": seats})
        assert response.status_code == 400, (spec, response.text)
    for spec in ("easy", "normal", "hard", "expert", "random", "ismcts:iters=50"):
        open_table(server, "farmini", [{"kind": "you"}, {"kind": "ai", "agent": spec}])


def test_h2_levels_only_refuses_raw_specs(tmp_path: Path) -> None:
    """H2 (option): ``--levels-only`` leaves the named levels (and random) as the only AI seats."""
    server = start(tmp_path, "levels", "--levels-only", "--max-ai-iters", "100")
    try:
        seats = [{"kind": "you"}, {"kind": "ai", "agent": "ismcts:iters=10"}]
        assert post(server, "/api/tables", {"game": "farmini", "players": 2, "seats": seats}).status_code == 400
        open_table(server, "farmini", [{"kind": "you"}, {"kind": "ai", "agent": "expert"}])
    finally:
        server.stop()


def test_h2_search_workers_die_with_a_killed_server(tmp_path: Path) -> None:
    """H2: the search worker processes survived kill -9 of the server and kept burning CPU. Now they end
    with it (the kernel's parent-death signal, and a watchdog)."""
    server = start(tmp_path, "workers")
    try:
        assert server.proc is not None
        pid = server.proc.pid
        ai = [{"kind": "ai", "agent": "ismcts:iters=2000"}, {"kind": "ai", "agent": "ismcts:iters=2000"}]
        open_table(server, "farmini", ai)
        table = open_table(server, "farmini", ai)
        table_as(server, table["id"])  # loading the table starts its AI
        deadline = time.monotonic() + 60
        while not (workers := [p for p, cmd in children(pid) if "spawn_main" in cmd]):
            assert time.monotonic() < deadline, "no search worker started"
            time.sleep(0.2)
        server.kill()
        deadline = time.monotonic() + 15
        while any(alive(p) for p in workers):
            assert time.monotonic() < deadline, f"search workers {workers} outlived the server"
            time.sleep(0.2)
    finally:
        server.stop()


def test_h3_table_creation_is_rate_limited_per_client(tmp_path: Path) -> None:
    """H3: 1,000 six-player tables in 26 s. Now a client opens at most --tables-per-minute a minute."""
    server = start(tmp_path, "rate", "--tables-per-minute", "5")
    try:
        codes = [
            post(server, "/api/tables", {"game": "farmini", "players": 2, "seats": DUO}).status_code for _ in range(8)
        ]
        assert codes[:5] == [201] * 5 and set(codes[5:]) == {429}, codes
    finally:
        server.stop()


def test_h3_tables_in_memory_are_capped_idle_ones_leave_first(tmp_path: Path) -> None:
    """H3: every table stayed in memory for 30 minutes. Now at most --max-tables; the least recently
    used idle ones leave first (a watched one stays) and load again, intact, when asked for."""
    server = start(tmp_path, "cap", "--tables-per-minute", "0", "--max-tables", "4")
    try:
        tables = [open_table(server, "farmini", DUO) for _ in range(10)]
        first = table_as(server, tables[0]["id"], tables[0]["seats"][0]["token"])
        with ws(server, tables[0]["id"]) as watcher:
            recv(watcher)
            for t in tables[1:]:
                table_as(server, t["id"])
                assert get(server, "/api/stats").json()["tables_in_memory"] <= 4
            stats = get(server, "/api/stats").json()
            assert stats["tables_in_memory"] <= 4 and stats["watchers"] == 1
            assert table_as(server, tables[0]["id"], tables[0]["seats"][0]["token"]) == first  # watched: stayed
        assert table_as(server, tables[1]["id"])["version"] == 0  # let go, and back from storage
    finally:
        server.stop()


def test_h4_unknown_table_ids_leave_nothing_behind(server: LiveServer) -> None:
    """H4: every GET/WebSocket for an unknown id left a lock in Hub._loading for ever. Now none stays."""
    for i in range(200):
        tid = secrets.token_urlsafe(9) if i % 2 else secrets.token_urlsafe(24)
        assert get(server, f"/api/tables/{tid}").status_code == 404
    assert get(server, "/api/tables/" + "x" * 8_000).status_code == 404
    with ws(server, "no-such-table") as conn:
        assert recv(conn)["status"] == 404
    assert get(server, "/api/stats").json()["loading"] == 0


# --- Medium ---------------------------------------------------------------------------------


def test_m1_the_same_move_from_two_sockets_applies_once(server: LiveServer) -> None:
    """M1: a move that stays legal after itself, sent from two tabs (or retried), was applied twice.
    Now each move carries its version: the repeat is refused with the current version."""
    table = open_table(server, "race", [{"kind": "you"}])  # solo race: "add 1" stays legal after itself
    tid, tok = table["id"], table["seats"][0]["token"]
    with ws(server, tid, tok) as tab1, ws(server, tid, tok) as tab2:
        version = recv_until(tab1, "update")["version"]
        recv_until(tab2, "update")
        move = {"type": "move", "action": "add 1", "version": version}
        tab1.send(json.dumps({**move, "id": 1}))
        tab2.send(json.dumps({**move, "id": 2}))
        answers = [
            next(m for m in (recv(tab) for _ in range(10)) if m["type"] in ("ack", "error")) for tab in (tab1, tab2)
        ]
    kinds = sorted(a["type"] for a in answers)
    assert kinds == ["ack", "error"], answers
    refusal = next(a for a in answers if a["type"] == "error")
    assert refusal["status"] == 409 and refusal["version"] == version + 1
    assert table_as(server, tid)["version"] == version + 1 and table_as(server, tid)["view"]["pile"] == 1
    # an HTTP retry after a lost answer: the same body twice
    body = {"token": tok, "action": "add 1", "version": version + 1}
    assert post(server, f"/api/tables/{tid}/moves", body).status_code == 200
    again = post(server, f"/api/tables/{tid}/moves", body)
    assert again.status_code == 409 and again.json()["version"] == version + 2
    assert table_as(server, tid)["view"]["pile"] == 2


def test_m1_tiny_farms_milk_retried_applies_once(server: LiveServer) -> None:
    """M1 on a real game: Tiny Farms' ``milk`` stays legal after itself; before the fix the same request
    twice gave 200 twice (version 2). Now the retry is refused and the table moved once."""
    table = open_table(server, "tiny-farms", [{"kind": "you"}], seed=1)
    tid, tok = table["id"], table["seats"][0]["token"]
    start = table_as(server, tid, tok)
    milk = next(m for m in start["legal"] if m.startswith("milk"))
    body = {"token": tok, "action": milk, "version": start["version"]}
    first = post(server, f"/api/tables/{tid}/moves", body)
    assert first.status_code == 200 and milk in first.json()["legal"]  # still legal after itself
    again = post(server, f"/api/tables/{tid}/moves", body)
    assert again.status_code == 409 and again.json()["version"] == start["version"] + 1
    assert table_as(server, tid)["version"] == start["version"] + 1


def test_m2_sockets_per_client_and_per_table_are_capped(tmp_path: Path) -> None:
    """M2: 3,000 sockets from one client. Now --sockets-per-client and --sockets-per-table, closed with 4429."""
    server = start(tmp_path, "sockets", "--sockets-per-client", "5", "--sockets-per-table", "3")
    try:
        a = open_table(server, "race", DUO)
        b = open_table(server, "race", DUO)
        with ws(server, a["id"]) as s1, ws(server, a["id"]) as s2, ws(server, a["id"]) as s3:
            for conn in (s1, s2, s3):
                recv(conn)
            with ws(server, a["id"]) as s4:  # a fourth on the same table
                assert close_code(s4) == 4429
            with ws(server, b["id"]) as s5, ws(server, b["id"]) as s6:
                recv(s5)
                recv(s6)
                with ws(server, b["id"]) as s7:  # a sixth from this client
                    assert close_code(s7) == 4429
        time.sleep(0.5)
        with ws(server, b["id"]) as again:  # closed sockets are counted out again
            assert recv(again)["type"] == "update"
    finally:
        server.stop()


def test_m2_a_flood_of_messages_closes_the_socket(server: LiveServer) -> None:
    """M2: 20,000 bad moves on one socket were answered at 5,000/s. Now the socket is closed (1008) once
    it sends faster than --messages-per-second."""
    table = open_table(server, "race", DUO)
    with ws(server, table["id"], table["seats"][0]["token"]) as conn:
        recv(conn)
        for i in range(400):
            try:
                conn.send(json.dumps({"type": "move", "action": "fly", "version": 0, "id": i}))
            except Exception:
                break
        assert close_code(conn) == 1008


def test_m3_a_finished_tiny_farms_game_reloads_from_its_save() -> None:
    """M3 (fixed on main, checked here too): a finished Tiny Farms game reads its own save back."""
    game = farmtable.get_game("tiny-farms")
    state = game.new_game(players=2, seed=5)
    agent = farmtable.agents.make("random", seed=5)
    while not state.is_over():
        seat = state.actors()[0]
        state.apply(seat, agent.act(state, seat))
    assert game.from_json(state.to_json()).to_json() == state.to_json()


def finished_race(server: LiveServer) -> tuple[str, list[str]]:
    """A race table played to its end by its two seats over HTTP."""
    table = open_table(server, "race", DUO)
    tid, tokens = table["id"], [s["token"] for s in table["seats"]]
    for _ in range(200):
        p = table_as(server, tid)
        if p["over"]:
            return tid, tokens
        seat = p["actors"][0]
        body = {"token": tokens[seat], "action": "add 2", "version": p["version"]}
        assert post(server, f"/api/tables/{tid}/moves", body).status_code == 200
    raise AssertionError("the race did not end")


def test_m4_replays_are_authorized_paged_and_compressed(server: LiveServer) -> None:
    """M4: the replay was unauthenticated, whole and uncompressed. Now a wrong token is refused like on any
    read, a page holds at most 40 frames, and it comes gzip-compressed to clients that accept it."""
    tid, tokens = finished_race(server)
    assert get(server, f"/api/tables/{tid}/replay", headers={"X-Seat-Token": "guess"}).status_code == 403
    assert get(server, f"/api/tables/{tid}/replay", params={"token": tokens[0]}).status_code == 400
    first = get(server, f"/api/tables/{tid}/replay", params={"count": 1000}, headers={"X-Seat-Token": tokens[0]})
    data = first.json()
    assert first.status_code == 200 and len(data["frames"]) <= 40 and data["total"] >= len(data["frames"])
    last = get(server, f"/api/tables/{tid}/replay", params={"start": data["total"] - 1}).json()
    assert [f["step"] for f in last["frames"]] == [data["total"] - 1]
    raw = httpx.get(
        f"{server.url}/api/tables/{tid}/replay", headers={"Accept-Encoding": "gzip"}, timeout=20
    )  # httpx decodes it; the header tells
    assert raw.headers.get("content-encoding") == "gzip" and raw.json()["frames"] == data["frames"]


# --- Low ------------------------------------------------------------------------------------------


def test_low_storage_errors_answer_the_documented_json(tmp_path: Path) -> None:
    """Low: table creation or reads on a damaged database answered a plain-text 500. Now a JSON error."""
    server = start(tmp_path, "damaged")
    try:
        table = open_table(server, "race", DUO)
        db = tmp_path / "damaged.db"
        size = db.stat().st_size
        with db.open("r+b") as f:  # the same file (the server keeps it open), overwritten with junk
            f.write(b"\xff" * max(size, 8192))
        for p in Path(tmp_path).glob("damaged.db-*"):
            with p.open("r+b") as f:
                f.write(b"\xff" * max(p.stat().st_size, 64))
        answers = [
            post(server, "/api/tables", {"game": "race", "players": 2, "seats": DUO}),
            get(server, f"/api/tables/{table['id']}x"),
        ]
        for answer in answers:
            assert answer.headers["content-type"].startswith("application/json"), answer.text[:200]
            assert answer.status_code in (404, 500, 503) and "error" in answer.json()
        assert any(a.status_code == 503 for a in answers)
    finally:
        server.stop()


def test_low_deep_json_is_refused_before_parsing(server: LiveServer) -> None:
    """Low: a 200k-deep nested JSON message raised RecursionError. Now it is refused and the socket lives."""
    table = open_table(server, "race", DUO)
    with ws(server, table["id"], table["seats"][0]["token"]) as conn:
        recv(conn)
        conn.send("[" * 2000 + "]" * 2000)
        assert "deeper" in recv_until(conn, "error")["error"]
        conn.send(json.dumps({"type": "ping", "id": 1}))
        assert recv_until(conn, "pong")["id"] == 1
    with ws(server, table["id"], table["seats"][0]["token"]) as conn:
        recv(conn)
        conn.send(b"\x00\x01binary")  # a binary frame: an error, not a crash
        assert recv_until(conn, "error")["status"] == 400
        conn.send(json.dumps({"type": "ping", "id": 2}))
        assert recv_until(conn, "pong")["id"] == 2
    with ws(server, table["id"], table["seats"][0]["token"]) as conn:
        recv(conn)
        conn.send("[" * 200_000)  # bigger than a message may be: closed
        assert close_code(conn) in (1009, 4400)
    deep = post(server, "/api/tables", None, content=b"[" * 60_000, headers={"content-type": "application/json"})
    assert deep.status_code == 400 and "deeper" in deep.json()["error"]


def test_low_security_headers_on_every_answer(server: LiveServer) -> None:
    """Low: no CSP, frame-ancestors, nosniff or Referrer-Policy. Now on pages, API and errors alike."""
    for path in ("/", "/api/games", "/api/tables/nope", "/static/table.js"):
        headers = get(server, path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"


def test_low_host_and_origin_are_checked(server: LiveServer, tmp_path: Path) -> None:
    """Low: any Host was answered (DNS rebinding) and WebSockets took any Origin. Now only localhost, IP
    addresses and --allow-host names; a WebSocket or POST from another page's Origin is refused."""
    assert raw_get(server, "/api/games", f"127.0.0.1:{server.port}")[0] == 200
    assert raw_get(server, "/api/games", f"localhost:{server.port}")[0] == 200
    status, answer = raw_get(server, "/api/games", "evil.example")
    assert status == 403 and b"allow-host" in answer
    table = open_table(server, "race", DUO)
    assert handshake_refused(server, table["id"], origin="http://evil.example") == 403
    assert handshake_refused(server, table["id"], additional_headers={"Host": "evil.example"}) == 403
    same = f"http://127.0.0.1:{server.port}"
    assert handshake_refused(server, table["id"], origin=same) is None
    body = {"game": "race", "players": 2, "seats": DUO}
    assert post(server, "/api/tables", body, headers={"Origin": "http://evil.example"}).status_code == 403
    named = start(tmp_path, "named", "--allow-host", "farm.example")
    try:
        assert raw_get(named, "/api/games", "farm.example:8000")[0] == 200
        assert raw_get(named, "/api/games", "other.example")[0] == 403
    finally:
        named.stop()


def test_low_tokens_never_travel_in_the_address(server: LiveServer) -> None:
    """Low: seat tokens travelled in ?token= query strings (logged by proxies). Now refused there; the
    header and the WebSocket's first message carry them."""
    table = open_table(server, "race", DUO)
    tid, tok = table["id"], table["seats"][0]["token"]
    assert get(server, f"/api/tables/{tid}", params={"token": tok}).status_code == 400
    assert get(server, f"/api/tables/{tid}/log", params={"token": tok}).status_code == 400
    assert table_as(server, tid, tok)["seat"] == 0
    from websockets.sync.client import connect

    with connect(ws_url(server, tid, f"?token={tok}"), open_timeout=20) as conn:
        assert close_code(conn) == 4400
    with ws(server, tid, tok) as conn:
        assert recv(conn)["seat"] == 0
    with ws(server, tid, hello=False) as conn:
        conn.send(json.dumps({"type": "move", "action": "add 1", "version": 0}))
        assert close_code(conn) == 4400


def test_low_rematch_issues_new_tokens(server: LiveServer) -> None:
    """Low: tokens carried into the rematch. Now each seat gets a new token there (the old one is refused)."""
    tid, tokens = finished_race(server)
    mine = post(server, f"/api/tables/{tid}/rematch", {"token": tokens[0]}).json()
    theirs = post(server, f"/api/tables/{tid}/rematch", {"token": tokens[1]}).json()
    assert mine["id"] == theirs["id"] and len({mine["token"], theirs["token"], *tokens}) == 4
    new = mine["id"]
    assert get(server, f"/api/tables/{new}", headers={"X-Seat-Token": tokens[0]}).status_code == 403
    assert table_as(server, new, mine["token"])["seat"] == 0
    assert table_as(server, new, theirs["token"])["seat"] == 1


def test_low_players_must_be_a_whole_number(server: LiveServer) -> None:
    """Low: ``"players": true`` was taken as 1. Now refused."""
    body: dict[str, Any] = {"game": "race", "players": True, "seats": [{"kind": "you"}]}
    response = post(server, "/api/tables", body)
    assert response.status_code == 400 and "players" in response.json()["error"]
