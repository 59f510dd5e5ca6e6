"""Load benchmark of ``farmtable serve``: many AI-vs-AI tables plus simulated people, on loopback only.

It starts the real server (uvicorn, one process, a fresh SQLite file) on 127.0.0.1, opens
``--ai-tables`` AI-vs-AI tables (each watched by a spectator WebSocket, so every decision is
also pushed) and ``--human-tables`` tables where a simulated person plays seat 0 over a
WebSocket against an AI: they think ``--think`` seconds, send a random legal move and time
how long until the update carrying it is pushed back (the latency a person feels). Finished
tables are replaced, so the number of active tables stays constant. Everything is bounded:
at most 500 tables, at most 600 seconds, and only 127.0.0.1.

    .venv/bin/python benchmarks/load_server.py --ai-tables 80 --human-tables 20 --seconds 30

Prints decisions per second (all tables) and the p50/p90/p99/max latency from a submitted move
to its pushed update, plus the server's CPU time.

Several processes (issue 17): ``--processes N --db postgresql://…`` starts N servers on one database,
or ``--urls http://127.0.0.1:A,http://127.0.0.1:B`` uses running ones. Tables are spread round-robin
over them, and each human table is also watched by a spectator on *another* process: the report then
gives the latency from a move to its update there too (through PostgreSQL ``NOTIFY``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
MAX_TABLES = 500
MAX_SECONDS = 600


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


LOAD_CLIENT_LIMITS = ["--tables-per-minute", "1000", "--sockets-per-client", "400"]
"""The benchmark plays 100 people from one address, so the two per-address limits are raised for it;
every other limit keeps its default (see benchmarks/SERVER.md)."""
NO_LIMITS = [
    "--tables-per-minute", "0", "--max-tables", "0", "--sockets-per-client", "0",
    "--sockets-per-table", "0", "--messages-per-second", "0",
]  # fmt: skip
"""``--limits off``: every count limit switched off (body, message and Host checks always run)."""


def start_server(
    db_url: str, port: int, ai_delay: float, sqlite_sync: str = "NORMAL", limits: str = "on"
) -> subprocess.Popen[bytes]:
    """``farmtable serve`` on 127.0.0.1 in a subprocess; returns once it answers."""
    cmd = [sys.executable, "-m", "farmtable", "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--lease-seconds", "5"]
    cmd += ["--db", db_url, "--ai-delay", str(ai_delay), "--sqlite-sync", sqlite_sync]
    cmd += LOAD_CLIENT_LIMITS if limits == "on" else NO_LIMITS
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120  # a start on a busy machine can take a while (not measured)
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def hello(token: str | None) -> str:
    """The first message, as the table page sends it: the seat's token (None: a spectator), and new board
    pictures asked for unescaped after their update (a server that does not know that sends them inside),
    without the view, which the page never reads (an older server sends it all the same)."""
    return json.dumps({"type": "hello", "token": token, "svg_frames": True, "view": False})


async def receive(ws: Any) -> dict[str, Any]:
    """The next JSON message; a picture sent after its update (past the first newline) is passed over: the
    simulated people read the legal moves, not the board."""
    raw = await ws.recv()
    return dict(json.loads(raw.split("\n", 1)[0]))


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


class Bench:
    """The client side: opens tables, watches them, plays the people's seats, collects latencies."""

    def __init__(self, bases: list[str], games: list[str], agent: str, think: tuple[float, float], seed: int) -> None:
        self.bases = bases
        self.base = bases[0]
        self.ws_bases = [b.replace("http://", "ws://") for b in bases]
        self.ws_base = self.ws_bases[0]
        self.clients = [httpx.AsyncClient(base_url=b, timeout=30) for b in bases]
        self.next_base = 0
        self.cross: list[float] = []
        """Move-to-update latency (ms) seen by a spectator on the next process after the mover's (with one
        process, on the same one: every run does the same work)."""
        self.games = games
        self.agent = agent
        self.think = think
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.human_moves = 0
        self.tables_opened = 0
        self.finished = 0
        self.errors: list[str] = []
        self.stop = asyncio.Event()
        self.cross_wait: list[asyncio.Task[None]] = []
        self.http = self.clients[0]

    def pick(self) -> int:
        """The process the next table goes to (round-robin)."""
        self.next_base = (self.next_base + 1) % len(self.bases)
        return self.next_base

    async def open_table(self, human: bool, where: int = 0) -> tuple[str, str | None]:
        """Open a 2-player table of a random game: AI vs AI, or a person (seat 0) vs AI."""
        if self.tables_opened >= MAX_TABLES:
            raise asyncio.CancelledError
        self.tables_opened += 1
        game = self.rng.choice(self.games)
        seats = [{"kind": "you"} if human else {"kind": "ai", "agent": self.agent}, {"kind": "ai", "agent": self.agent}]
        r = await self.clients[where].post("/api/tables", json={"game": game, "players": 2, "seats": seats})
        r.raise_for_status()
        data = r.json()
        return data["id"], data["seats"][0]["token"]

    async def ai_table(self) -> None:
        """Keep one AI-vs-AI table active (a spectator watches every push); replace it when it ends."""
        while not self.stop.is_set():
            where = self.pick()
            tid, _ = await self.open_table(human=False, where=where)
            async with websockets.connect(
                f"{self.ws_bases[where]}/ws/tables/{tid}", max_size=None, open_timeout=60
            ) as ws:
                await ws.send(hello(None))
                while not self.stop.is_set():
                    try:
                        msg = await asyncio.wait_for(receive(ws), 1.0)
                    except TimeoutError:
                        continue
                    if msg.get("type") == "update" and msg["over"]:
                        self.finished += 1
                        break

    async def human_table(self) -> None:
        """A simulated person playing seat 0 against an AI; measures submitted-move-to-pushed-update."""
        while not self.stop.is_set():
            where = self.pick()
            tid, token = await self.open_table(human=True, where=where)
            elsewhere = (where + 1) % len(self.bases)  # the same one when there is one: the same work
            seen: dict[int, float] = {}
            # a spectator on another process (the cross-process push), or on this one with one process
            watcher = asyncio.create_task(self.spectate(f"{self.ws_bases[elsewhere]}/ws/tables/{tid}", seen))
            try:
                await self.play(f"{self.ws_bases[where]}/ws/tables/{tid}", token, seen)
            finally:
                watcher.cancel()

    async def spectate(self, url: str, seen: dict[int, float]) -> None:
        """Watch a table as a spectator, noting when each version arrived."""
        async with websockets.connect(url, max_size=None, open_timeout=60) as ws:
            await ws.send(hello(None))
            while True:
                msg = await receive(ws)
                if msg.get("type") == "update":
                    seen.setdefault(msg["version"], time.perf_counter())

    async def play(self, url: str, token: str | None, seen: dict[int, float]) -> None:
        """Play seat 0 of one table until it ends or the run stops."""
        async with websockets.connect(url, max_size=None, open_timeout=60) as ws:
            await ws.send(hello(token))  # the token never in the URL
            latest: dict[str, Any] | None = None
            while not self.stop.is_set():
                if latest is None or not latest["legal"]:
                    try:
                        msg = await asyncio.wait_for(receive(ws), 1.0)
                    except TimeoutError:
                        continue
                    if msg.get("type") == "update":
                        latest = msg
                        if msg["over"]:
                            self.finished += 1
                            break
                    continue
                await asyncio.sleep(self.rng.uniform(*self.think))
                latest = await self.move(ws, latest, seen)
                if latest is None:
                    break

    async def move(
        self, ws: Any, latest: dict[str, Any], seen: dict[int, float] | None = None
    ) -> dict[str, Any] | None:
        """Send one random legal move; wait for its ack and the update that carries it."""
        action = self.rng.choice(latest["legal"])
        sent = time.perf_counter()
        move = {"type": "move", "action": action, "id": latest["version"], "version": latest["version"]}
        await ws.send(json.dumps(move))
        acked: int | None = None
        arrivals: list[tuple[float, dict[str, Any]]] = []
        while True:
            msg = await asyncio.wait_for(receive(ws), 30)
            if msg["type"] == "ack":
                acked = msg["version"]
            elif msg["type"] == "error":
                self.errors.append(msg["error"])
                return None
            elif msg["type"] == "update":
                arrivals.append((time.perf_counter(), msg))
            if acked is not None:
                carried = [(t, m) for t, m in arrivals if m["version"] >= acked]
                if carried:
                    self.latencies.append((carried[0][0] - sent) * 1000)
                    self.human_moves += 1
                    if seen is not None:
                        self.cross_wait.append(asyncio.create_task(self.cross_latency(seen, acked, sent)))
                    newest = arrivals[-1][1]
                    return None if newest["over"] else newest

    async def cross_latency(self, seen: dict[int, float], version: int, sent: float) -> None:
        """Note when the spectator on the other process got ``version`` (given up after 10 s)."""
        deadline = time.perf_counter() + 10
        while time.perf_counter() < deadline:
            arrived = [t for v, t in seen.items() if v >= version]
            if arrived:
                self.cross.append((min(arrived) - sent) * 1000)
                return
            await asyncio.sleep(0.005)

    async def stats(self) -> dict[str, Any]:
        """The servers' counters, summed."""
        total: dict[str, Any] = {}
        for client in self.clients:
            r = await client.get("/api/stats", timeout=180)  # a saturated server on a busy machine is slow
            for key, value in r.json().items():
                total[key] = total.get(key, 0) + value
        return total


def cpu_seconds(pid: int) -> float:
    """User+system CPU seconds a process and its finished children have used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_of(pids: list[int]) -> float:
    """CPU seconds of the server processes together."""
    return sum(cpu_seconds(pid) for pid in pids)


def postgres_cpu() -> float:
    """CPU seconds of every PostgreSQL process on this machine (0 if none is visible)."""
    total = 0.0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if (proc / "comm").read_text().strip() in ("postgres", "postmaster"):
                total += cpu_seconds(int(proc.name))
        except (OSError, ValueError, IndexError):
            continue
    return total


CLIENT_GC_THRESHOLDS = (50_000, 20, 1000)
"""The client's collector thresholds while it runs (CPython's are 700, 10, 10). The client stands for
a hundred people's browsers in one process: with CPython's thresholds its own full collections (walking
every socket, task and message it holds) paused it for 150 ms and more, and every update arriving
meanwhile was timed that much late — the client's pause, not the server's. So while a run lasts the
objects alive at its start are frozen and collections are rare (restored afterwards)."""


async def run(args: argparse.Namespace, bases: list[str], server_pids: list[int]) -> dict[str, Any]:
    """Run the load for ``args.seconds`` and gather the numbers (the client's collector kept quiet)."""
    saved = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*CLIENT_GC_THRESHOLDS)
    try:
        return await _run(args, bases, server_pids)
    finally:
        gc.set_threshold(*saved)
        gc.unfreeze()


async def _run(args: argparse.Namespace, bases: list[str], server_pids: list[int]) -> dict[str, Any]:
    base = bases[0]
    games = args.games or httpx.get(base + "/api/games").json()
    games = [g["id"] if isinstance(g, dict) else g for g in games]
    games = [g for g in games if g != "race"]
    bench = Bench(bases, games, args.agent, (args.think_min, args.think_max), args.seed)
    tasks = [asyncio.create_task(bench.ai_table()) for _ in range(args.ai_tables)]
    tasks += [asyncio.create_task(bench.human_table()) for _ in range(args.human_tables)]
    await asyncio.sleep(args.warmup)
    bench.latencies.clear()
    bench.cross.clear()
    start_stats = await bench.stats()
    start_cpu, start_pg = cpu_of(server_pids), postgres_cpu()
    started, window_start = time.perf_counter(), time.time()
    await asyncio.sleep(args.seconds)
    elapsed = time.perf_counter() - started
    window = [round(window_start, 3), round(time.time(), 3)]
    end_stats = await bench.stats()
    end_cpu, end_pg = cpu_of(server_pids), postgres_cpu()
    cross = list(bench.cross)
    bench.stop.set()
    for waiting in bench.cross_wait:
        waiting.cancel()
    done, pending = await asyncio.wait(tasks, timeout=5)
    for task in pending:
        task.cancel()
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            bench.errors.append(repr(task.exception()))
    for client in bench.clients:
        await client.aclose()
    lat = bench.latencies
    decisions = end_stats["decisions"] - start_stats["decisions"]
    return {
        "processes": len(bases),
        "games": games,
        "ai_tables": args.ai_tables,
        "human_tables": args.human_tables,
        "agent": args.agent,
        "ai_delay_s": args.ai_delay,
        "limits": args.limits,
        "db": "sqlite" if not args.db or args.db.startswith("sqlite") else args.db.split(":", 1)[0],
        "load_average_1min": round(os.getloadavg()[0], 2),
        "measured_unix_s": window,
        "think_s": [args.think_min, args.think_max],
        "seconds": round(elapsed, 1),
        "decisions": end_stats["decisions"] - start_stats["decisions"],
        "decisions_per_s": round((end_stats["decisions"] - start_stats["decisions"]) / elapsed, 1),
        "tables_playing_at_end": end_stats["tables_playing"],
        "watchers_at_end": end_stats["watchers"],
        "human_moves_timed": len(lat),
        "latency_ms": {
            "p50": round(percentile(lat, 50), 2),
            "p90": round(percentile(lat, 90), 2),
            "p99": round(percentile(lat, 99), 2),
            "max": round(max(lat), 2) if lat else None,
            "mean": round(statistics.fmean(lat), 2) if lat else None,
        },
        "server_cpu_s_per_s": round((end_cpu - start_cpu) / elapsed, 2) if server_pids else None,
        "server_cpu_ms_per_decision": round((end_cpu - start_cpu) / decisions * 1000, 3)
        if server_pids and decisions
        else None,
        "postgres_cpu_s_per_s": round((end_pg - start_pg) / elapsed, 2),
        "cross_process_latency_ms": {
            "n": len(cross),
            "p50": round(percentile(cross, 50), 2),
            "p99": round(percentile(cross, 99), 2),
        }
        if cross
        else None,
        "tables_opened": bench.tables_opened,
        "games_finished": bench.finished,
        "errors": bench.errors[:5],
    }


def limits_cost(n: int = 20_000, rounds: int = 7) -> dict[str, Any]:
    """CPU microseconds the limits add per request and per message (``time.process_time``, in-process).

    Each check runs ``n`` times per round against a no-op; the report gives the median of ``rounds``
    rounds and the range over the rounds (CPU time, so other jobs on the machine barely affect it).
    """
    from farmtable.server.guard import Guard
    from farmtable.server.limits import Limits, Rate, json_too_deep

    limits = Limits()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    guarded = Guard(app, limits)
    body = json.dumps({"token": "x" * 24, "action": "place C7 at 1,-1 rot 90", "version": 12}).encode()
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/tables/abc/moves",
        "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json")],
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Any) -> None:
        return None

    async def requests(target: Any) -> None:
        for _ in range(n):
            await target(scope, receive, send)

    def timed(fn: Any) -> list[float]:
        out = []
        for _ in range(rounds):
            t0 = time.process_time()
            fn()
            out.append((time.process_time() - t0) / n * 1e6)
        return sorted(out)

    bare = timed(lambda: asyncio.run(requests(app)))
    with_guard = timed(lambda: asyncio.run(requests(guarded)))
    message = json.dumps({"type": "move", "action": "place C7 at 1,-1 rot 90", "version": 12, "id": 3})
    rate = Rate(1e9)
    per_message = timed(lambda: [(json_too_deep(message, 20), rate.take()) for _ in range(n)])

    def summary(values: list[float]) -> dict[str, float]:
        return {
            "median_us": round(values[len(values) // 2], 2),
            "min_us": round(values[0], 2),
            "max_us": round(values[-1], 2),
        }

    paired = sorted(g - b for g, b in zip(with_guard, bare, strict=True))
    return {
        "http_request_no_guard": summary(bare),
        "http_request_with_guard": summary(with_guard),
        "guard_cost_per_request": summary(paired),
        "ws_message_checks": summary(per_message),
        "n": n,
        "rounds": rounds,
    }


def notify_cost(db_url: str, n: int = 300, rounds: int = 8) -> dict[str, Any]:
    """CPU and wall microseconds per stored decision with and without the ``pg_notify`` of several
    processes, measured in-process on the same database: ``rounds`` rounds, each storing ``n``
    decisions both ways (order alternating), paired per round; 95% t interval of the difference.
    It switches the announcing trigger off and on for the whole database: never on a live one.

    Also the reading side: a second connection LISTENs while the decisions are stored, and the CPU
    it spends reading the notifications is timed by ``time.thread_time`` on its thread."""
    import threading

    import psycopg

    from farmtable.server.cluster import conninfo
    from farmtable.server.store import CHANNEL, DecisionRecord, Store, TableRecord

    store = Store(db_url)
    if not store.shared:
        raise SystemExit("--notify-cost needs --db postgresql://…")
    state = "{}"

    def one_table(tag: str) -> str:
        record = TableRecord(
            f"bench-{tag}-{random.randrange(1 << 30)}", "race", 2, 1, [], {}, [], state, 0, False, None, None
        )
        store.create_table(record)
        return record.id

    read_cpu = [0.0]
    received = [0]
    stop = threading.Event()

    def listen() -> None:
        with psycopg.connect(conninfo(store.engine.url), autocommit=True) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            t0 = time.thread_time()
            while not stop.is_set():
                for _note in conn.notifies(timeout=0.2):
                    received[0] += 1
            read_cpu[0] = time.thread_time() - t0

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    time.sleep(0.5)

    def batch(notify: bool) -> tuple[float, float]:
        table_id = one_table("on" if notify else "off")
        with store.engine.begin() as conn:  # the one switch: the trigger that announces each decision
            conn.exec_driver_sql(
                f"ALTER TABLE decisions {'ENABLE' if notify else 'DISABLE'} TRIGGER farmtable_announce"
            )
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for v in range(1, n + 1):
            store.record_decision(table_id, v, DecisionRecord(v, "move", 0, "add 1", False, 0, state), state, False)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        return cpu / n * 1e6, wall / n * 1e6

    rows = []
    for r in range(rounds):
        order = [True, False] if r % 2 else [False, True]
        got = {flag: batch(flag) for flag in order}
        rows.append((got[True], got[False]))
    stop.set()
    listener.join(5)
    with store.engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE decisions ENABLE TRIGGER farmtable_announce")
    store.dispose()

    def interval(diffs: list[float]) -> list[float]:
        mean = statistics.fmean(diffs)
        half = 2.365 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("nan")
        return [round(mean - half, 1), round(mean, 1), round(mean + half, 1)]

    return {
        "decisions_per_round": n,
        "rounds": rounds,
        "writer_cpu_us_with_notify": round(statistics.median(on[0] for on, _ in rows), 1),
        "writer_cpu_us_without": round(statistics.median(off[0] for _, off in rows), 1),
        "writer_cpu_us_difference_ci95": interval([on[0] - off[0] for on, off in rows]),
        "commit_wall_us_with_notify": round(statistics.median(on[1] for on, _ in rows), 1),
        "commit_wall_us_without": round(statistics.median(off[1] for _, off in rows), 1),
        "commit_wall_us_difference_ci95": interval([on[1] - off[1] for on, off in rows]),
        "notifications_read": received[0],
        "reader_cpu_us_per_notification": round(read_cpu[0] / max(1, received[0]) * 1e6, 1),
    }


def main() -> None:
    """Parse the options, start the server, run the load, print the report."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ai-tables", type=int, default=80, help="AI-vs-AI tables kept active")
    parser.add_argument("--human-tables", type=int, default=20, help="tables with a simulated person (seat 0)")
    parser.add_argument("--seconds", type=float, default=30, help="measured time (after the warm-up)")
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--agent", default="random", help="agent spec of the AI seats")
    parser.add_argument("--ai-delay", type=float, default=0.5, help="server's pause before each AI decision (s)")
    parser.add_argument("--think-min", type=float, default=0.5, help="a person's shortest think time (s)")
    parser.add_argument("--think-max", type=float, default=2.0, help="a person's longest think time (s)")
    parser.add_argument("--games", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file in a temporary folder)")
    parser.add_argument("--sqlite-sync", default="NORMAL", help="NORMAL or FULL (fsync every decision)")
    parser.add_argument("--url", help="use a server already running at this http://127.0.0.1:PORT address")
    parser.add_argument(
        "--urls", help="comma-separated http://127.0.0.1:PORT addresses of running servers on one database"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="start this many servers on --db (more than 1: PostgreSQL)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--limits", choices=["on", "off"], default="on", help="on: defaults (per-address ones raised); off: none"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON only")
    parser.add_argument(
        "--notify-cost",
        action="store_true",
        help="measure the cost of the cross-process notification per decision in-process (--db postgresql://…)",
    )
    parser.add_argument(
        "--limits-cost", action="store_true", help="measure the CPU cost of the limit checks in-process and exit"
    )
    args = parser.parse_args()
    if args.limits_cost:
        print(json.dumps(limits_cost()))
        return
    if args.notify_cost:
        print(json.dumps(notify_cost(args.db or "")))
        return
    if args.ai_tables + args.human_tables > MAX_TABLES or args.seconds + args.warmup > MAX_SECONDS:
        raise SystemExit(f"bounded on purpose: at most {MAX_TABLES} tables and {MAX_SECONDS} s")
    urls = [u.strip().rstrip("/") for u in (args.urls or args.url or "").split(",") if u.strip()]
    if urls:
        if not all(u.startswith("http://127.0.0.1:") for u in urls):
            raise SystemExit("loopback only: every address must be http://127.0.0.1:PORT")
        report = asyncio.run(run(args, urls, []))
        print_report(report, args.json)
        return
    if args.processes < 1 or args.processes > 4:
        raise SystemExit("--processes is 1 to 4 (bounded on purpose)")
    if args.processes > 1 and not (args.db or "").startswith("postgresql"):
        raise SystemExit("several processes need --db postgresql://…")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        procs: list[subprocess.Popen[bytes]] = []
        ports = [free_port() for _ in range(args.processes)]
        try:
            for port in ports:
                procs.append(start_server(db, port, args.ai_delay, args.sqlite_sync, args.limits))
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            report = asyncio.run(run(args, bases, [p.pid for p in procs]))
        finally:
            for proc in procs:
                proc.send_signal(signal.SIGTERM)
            for proc in procs:
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
    print_report(report, args.json)


def print_report(report: dict[str, Any], as_json: bool) -> None:
    """Print the numbers: one readable line, or JSON."""
    if as_json:
        print(json.dumps(report))
        return
    lat = report["latency_ms"]
    print(
        f"{report['ai_tables']} AI-vs-AI + {report['human_tables']} human tables ({report['agent']}, "
        f"AI delay {report['ai_delay_s']} s), {report['seconds']} s: "
        f"{report['decisions_per_s']} decisions/s ({report['decisions']} stored and pushed); "
        f"move-to-update latency over {report['human_moves_timed']} human moves: "
        f"p50 {lat['p50']} ms, p90 {lat['p90']} ms, p99 {lat['p99']} ms, max {lat['max']} ms; "
        f"server CPU {report['server_cpu_s_per_s']} cores; {report['games_finished']} games finished"
    )
    if report.get("cross_process_latency_ms"):
        cross = report["cross_process_latency_ms"]
        print(
            f"{report['processes']} processes: a spectator on the next process (the same with one) got it after "
            f"p50 {cross['p50']} ms, p99 {cross['p99']} ms ({cross['n']} moves); "
            f"PostgreSQL CPU {report['postgres_cpu_s_per_s']} cores"
        )
    if report["errors"]:
        print("errors:", report["errors"])


if __name__ == "__main__":
    main()
