"""Several ``farmtable serve`` processes on one PostgreSQL database (issue 17).

Real processes on loopback, a real database (FARMTABLE_TEST_POSTGRES, as ``./scripts/test`` exports it;
without it these tests skip), real WebSocket clients. Every wait is bounded by a deadline, which is a
bound on how long a test may hang, not a speed requirement.
"""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, suppress
from typing import Any

import httpx
import pytest

pytest.importorskip("websockets", reason="the cluster tests speak WebSocket with the websockets client")
from websockets.sync.client import ClientConnection, connect

import farmtable
from tests.server.live import LiveServer

PG_URL = os.environ.get("FARMTABLE_TEST_POSTGRES", "")
pytestmark = pytest.mark.skipif(
    not PG_URL, reason="set FARMTABLE_TEST_POSTGRES=postgresql://user@host/db to run the multi-process tests"
)

PUSH_BOUND = 20.0
"""Seconds a pushed update may take before a test gives up (a hang guard on a shared 2-core machine)."""
LIMIT_ARGS = ["--tables-per-minute", "0", "--messages-per-second", "0", "--sockets-per-client", "0"]


@pytest.fixture
def servers(request: pytest.FixtureRequest) -> Iterator[list[LiveServer]]:
    """``request.param`` (default 2) server processes on the test database, started and stopped."""
    count = getattr(request, "param", 2)
    with ExitStack() as stack:
        started = []
        for _ in range(count):
            server = LiveServer(PG_URL, args=[*LIMIT_ARGS, "--lease-seconds", "2"])
            server.start()
            stack.callback(server.stop)
            started.append(server)
        yield started


def without_events(table: dict[str, Any]) -> dict[str, Any]:
    """A table as read, its log lines without the ``events`` that only the storing process pushes."""
    return {**table, "log": [{k: v for k, v in line.items() if k != "events"} for line in table.get("log", [])]}


def open_table(server: LiveServer, game: str, seats: list[dict[str, Any]], seed: int = 5) -> dict[str, Any]:
    """Open a table through one server."""
    body = {"game": game, "players": len(seats), "seats": seats, "seed": seed}
    answer = httpx.post(f"{server.url}/api/tables", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def get_table(server: LiveServer, tid: str, tok: str | None = None) -> dict[str, Any]:
    """The table as a seat (or a spectator) reads it from one server."""
    answer = httpx.get(f"{server.url}/api/tables/{tid}", headers={"X-Seat-Token": tok} if tok else {}, timeout=10)
    answer.raise_for_status()
    data: dict[str, Any] = answer.json()
    return data


class Watcher:
    """A WebSocket on one server that said hello (with a seat token or as a spectator) and keeps the
    latest update it was pushed."""

    def __init__(self, server: LiveServer, tid: str, tok: str | None) -> None:
        self.ws: ClientConnection = connect(f"ws://127.0.0.1:{server.port}/ws/tables/{tid}", open_timeout=10)
        self.ws.send(json.dumps({"type": "hello", "token": tok}))
        self.latest: dict[str, Any] = {}
        self.replies: list[dict[str, Any]] = []
        self.wait_for(0)

    def wait_for(self, version: int) -> dict[str, Any]:
        """Read until an update of ``version`` or later arrives; the update."""
        deadline = time.monotonic() + PUSH_BOUND
        while self.latest.get("version", -1) < version:
            left = deadline - time.monotonic()
            assert left > 0, (
                f"no update of version {version} within {PUSH_BOUND} s (latest {self.latest.get('version')})"
            )
            message = json.loads(self.ws.recv(timeout=left))
            if message["type"] == "update":
                self.latest = message
            else:
                self.replies.append(message)
        return self.latest

    def close(self) -> None:
        """Close the socket (quietly if the server is gone)."""
        with suppress(Exception):  # a killed server: nothing to close politely
            self.ws.close()


def play_across(servers: list[LiveServer], game: str, players: int, seed: int) -> None:
    """Every seat on its own server's WebSocket plus a spectator on each server; random legal moves
    until the game ends; every move must reach every socket."""
    table = open_table(servers[0], game, [{"kind": "you"}] + [{"kind": "invite"}] * (players - 1), seed)
    tid = table["id"]
    tokens = [s["token"] for s in table["seats"]]
    seats = [Watcher(servers[i % len(servers)], tid, tokens[i]) for i in range(players)]
    spectators = [Watcher(server, tid, None) for server in servers]
    rng = random.Random(seed)
    try:
        for version in range(5000):
            now = seats[0].wait_for(version)
            if now["over"]:
                break
            seat = rng.choice(now["actors"])
            mine = seats[seat].wait_for(version)
            seats[seat].ws.send(json.dumps({"type": "move", "action": rng.choice(mine["legal"]), "version": version}))
            for watcher in seats + spectators:  # on every process, within the bound
                assert watcher.wait_for(version + 1)["version"] == version + 1
            assert not [r for r in seats[seat].replies if r["type"] == "error"], seats[seat].replies
        assert all(w.latest["over"] for w in seats + spectators), f"{game} did not finish"
        totals = {json.dumps(w.latest["result"]["totals"]) for w in seats + spectators}
        assert len(totals) == 1
    finally:
        for watcher in seats + spectators:
            watcher.close()


@pytest.mark.parametrize("game", ["farmini", "tiny-farms", "farmerama", "tiny-towns", "farmers-finances"])
def test_two_processes_play_a_full_game_of_every_game(servers: list[LiveServer], game: str) -> None:
    if game not in farmtable.list_games():
        pytest.skip(f"{game} is not registered")
    play_across(servers, game, 2, seed=3)


@pytest.mark.parametrize("servers", [3], indirect=True)
def test_three_processes_three_seats(servers: list[LiveServer]) -> None:
    play_across(servers, "tiny-farms", 3, seed=8)


def test_the_same_move_sent_to_two_processes_is_applied_once(servers: list[LiveServer]) -> None:
    a, b = servers
    table = open_table(a, "race", [{"kind": "you"}, {"kind": "invite"}], seed=2)
    tid, tokens = table["id"], [s["token"] for s in table["seats"]]
    get_table(b, tid)  # both processes hold the table in memory
    applied = 0
    for round_ in range(6):
        now = get_table(a, tid)
        if now["over"]:
            break
        seat = now["actors"][0]
        body = {"token": tokens[seat], "action": "add 1", "version": now["version"]}
        answers: list[int] = []
        start = threading.Barrier(2)
        threads = [threading.Thread(target=send_at_once, args=(s, tid, body, start, answers)) for s in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(answers) == [200, 409], f"round {round_}: {answers}"
        applied += 1
        assert get_table(b, tid)["version"] == get_table(a, tid)["version"] == now["version"] + 1
    log = httpx.get(f"{a.url}/api/tables/{tid}/log", timeout=10).json()["log"]
    assert len(log) == applied


def send_at_once(
    server: LiveServer, tid: str, body: dict[str, Any], start: threading.Barrier, answers: list[int]
) -> None:
    """POST a move as soon as the other thread is ready too; note the status."""
    start.wait()
    answers.append(httpx.post(f"{server.url}/api/tables/{tid}/moves", json=body, timeout=20).status_code)


def test_kill_9_of_the_ai_holder_another_takes_over_and_nothing_acknowledged_is_lost(
    servers: list[LiveServer],
) -> None:
    for server in servers:  # the AI thinks for a second, so the kill lands while it holds the lease
        server.stop()
        server.ai_delay = 1.0
        server.start()
    table = open_table(servers[0], "race", [{"kind": "you"}, {"kind": "ai", "agent": "random"}], seed=4)
    tid, tok = table["id"], table["seats"][0]["token"]
    watchers = {id(s): Watcher(s, tid, tok) for s in servers}  # the seat's page open on both processes
    rng = random.Random(1)
    acknowledged: dict[int, str] = {}
    killed: LiveServer | None = None
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            live = [s for s in servers if s is not killed]
            server = rng.choice(live)
            now = get_table(server, tid, tok)
            if now["over"]:
                break
            if 0 in now["actors"]:
                action = rng.choice(now["legal"])
                answer = httpx.post(
                    f"{server.url}/api/tables/{tid}/moves",
                    json={"token": tok, "action": action, "version": now["version"]},
                    timeout=20,
                )
                assert answer.status_code == 200, answer.text
                acknowledged[now["version"] + 1] = action
            elif killed is None:
                holders = [s for s in servers if leases_held(s)]
                if holders:
                    killed = holders[0]
                    killed.kill()  # mid-thought: its lease must expire, then the other takes it
                    survivor = next(s for s in servers if s is not killed)
                    watchers.pop(id(killed)).close()
                    watchers[id(killed)] = Watcher(survivor, tid, tok)  # the page reconnects to a live process
            else:
                time.sleep(0.05)
        assert killed is not None, "no process was seen holding the AI lease"
        survivor = next(s for s in servers if s is not killed)
        assert get_table(survivor, tid)["over"], "the game did not finish after the kill"
        log = httpx.get(f"{survivor.url}/api/tables/{tid}/log", headers={"X-Seat-Token": tok}, timeout=10)
        by_seq = {line["seq"]: line["text"] for line in log.json()["log"]}
        assert len(acknowledged) >= 2
        for seq, action in acknowledged.items():  # every acknowledged decision is in the stored log
            assert by_seq[seq] == f"Player 0: {action}", (seq, by_seq.get(seq))
        assert any(text.startswith("Player 1: ") for seq, text in by_seq.items() if seq > min(acknowledged))
        for watcher in watchers.values():  # both pages (one reconnected) caught up with the end
            final = watcher.wait_for(len(by_seq))
            assert final["over"] and final["version"] == len(by_seq)
    finally:
        for watcher in watchers.values():
            watcher.close()


def leases_held(server: LiveServer) -> int:
    """The ``farmtable_ai_leases_held`` gauge of a live server (0 for a dead one)."""
    if server.proc is None:
        return 0
    if server.proc.poll() is not None:
        return 0
    text = httpx.get(f"{server.url}/metrics", timeout=10).text
    line = next(ln for ln in text.splitlines() if ln.startswith("farmtable_ai_leases_held "))
    return int(float(line.split()[1]))


def test_a_process_that_missed_changes_serves_the_current_version(servers: list[LiveServer]) -> None:
    a, b = servers
    table = open_table(a, "race", [{"kind": "you"}, {"kind": "invite"}], seed=6)
    tid, tokens = table["id"], [s["token"] for s in table["seats"]]
    assert get_table(a, tid)["version"] == 0  # in a's memory now
    assert a.proc is not None
    a.proc.send_signal(signal.SIGSTOP)  # a hears nothing while b plays
    try:
        for _ in range(3):
            now = get_table(b, tid)
            seat = now["actors"][0]
            body = {"token": tokens[seat], "action": "add 1", "version": now["version"]}
            assert httpx.post(f"{b.url}/api/tables/{tid}/moves", json=body, timeout=10).status_code == 200
    finally:
        a.proc.send_signal(signal.SIGCONT)
    current = get_table(b, tid)
    # the very first read after waking is current (a log line's pushed events are known only to the
    # process that stored it; the page asks GET /events for the others)
    assert without_events(get_table(a, tid)) == without_events(current)
    seat = current["actors"][0]  # and a move made on b's picture is taken by a
    body = {"token": tokens[seat], "action": "add 1", "version": current["version"]}
    assert httpx.post(f"{a.url}/api/tables/{tid}/moves", json=body, timeout=10).status_code == 200
    assert get_table(b, tid)["version"] == current["version"] + 1


def test_health_readiness_and_metrics(servers: list[LiveServer]) -> None:
    a = servers[0]
    assert httpx.get(f"{a.url}/healthz", timeout=10).json() == {"ok": True}
    ready = httpx.get(f"{a.url}/readyz", timeout=10).json()
    assert ready["ready"] is True and ready["shared"] is True
    table = open_table(a, "race", [{"kind": "you"}, {"kind": "invite"}], seed=1)
    body = {"token": table["seats"][0]["token"], "action": "add 1", "version": 0}
    assert httpx.post(f"{a.url}/api/tables/{table['id']}/moves", json=body, timeout=10).status_code == 200
    text = httpx.get(f"{a.url}/metrics", timeout=10).text
    values = {ln.split()[0]: float(ln.split()[1]) for ln in text.splitlines() if ln and not ln.startswith("#")}
    assert values["farmtable_decisions_total"] >= 1 and values["farmtable_tables_in_memory"] >= 1
    assert 'farmtable_push_latency_seconds_bucket{le="0.01"}' in values
    assert values["farmtable_notifications_total"] >= 1  # its own decision came back on the channel


def test_a_stale_copy_is_found_by_its_version_and_refreshed(race: None) -> None:
    """Two hubs (as two processes would) on one database, no notifications at all: the one whose copy
    is behind finds out when it writes, reads what it missed, and refuses the stale decision."""
    import asyncio

    from farmtable.server.hub import HUMAN, ApiError, Hub
    from farmtable.server.store import Store

    async def scenario() -> None:
        one, two = Hub(Store(PG_URL)), Hub(Store(PG_URL))
        try:
            tid, _tokens = await one.create("race", 2, [], [(HUMAN, None), (HUMAN, None)], seed=1)
            mine, theirs = await one.get(tid), await two.get(tid)
            await one.act(mine, 0, "add 1", 0)
            assert theirs.version == 0  # two has not heard of it
            with pytest.raises(ApiError) as refused:  # made at 0, applied once already: refused, not doubled
                await two.act(theirs, 0, "add 1", 0)
            assert refused.value.status == 409 and theirs.version == 1
            assert await two.act(theirs, 1, "add 2", 1) == 2  # a decision on the current version is taken
            await one.fresh(mine)  # a read checks the stored version
            assert mine.version == 2 and [ln.notation for ln in mine.lines] == ["add 1", "add 2"]
            assert mine.state.to_json() == theirs.state.to_json()
        finally:
            await one.close()
            await two.close()
            one.store.dispose()
            two.store.dispose()

    asyncio.run(scenario())
