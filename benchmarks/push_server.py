"""Micro-benchmark of the server's push path (issue 16 item 3): CPU per decision, before vs after.

It drives the real :class:`farmtable.server.hub.Hub` (a fresh SQLite file, WAL, ``synchronous=NORMAL``:
the decision write is exactly the server's) with ``--tables`` tables of two human seats, each watched
by ``--sockets`` fake WebSockets (spread over seat 0, seat 1 and spectators). Every table plays
``--decisions`` decisions chosen by a fixed-seed random generator; after each one the loop waits until
every socket has been sent its update. Three modes run on the same deals, in rotating order:

- ``none``: no sockets (the decision alone: check, apply, store),
- ``before``: the push as it was: each socket builds its update dict and ``json.dumps`` it (what
  Starlette's ``send_json`` did), board picture always included,
- ``after``: the push now: one encoded text per (table, version, seat), shared by that seat's
  sockets, the board left out when the socket already shows it.

CPU seconds come from ``time.process_time()`` (all threads of this process). The push cost is the
mode minus ``none``; the before/after difference is paired per repeat (same deals) with a 95%
t interval. Fake sockets do not count the transport (framing and writing the bytes, which uvicorn
does per socket in both modes), so the bytes each mode would send are printed too.

    nice -n 10 .venv/bin/python benchmarks/push_server.py --game farmini --tables 4 --sockets 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from scipy import stats

from farmtable.server.hub import HUMAN, Hub, Subscriber, Table
from farmtable.server.store import Store

MODES = ("none", "before", "after")


class OldSubscriber:
    """The pump as it was before issue 16: a fresh ``json.dumps`` of the full update per socket."""

    def __init__(self, seat: int | None, build: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        self.seat = seat
        self.build = build
        self.ready = asyncio.Event()
        self.closed = False
        self.sent = 0
        self.bytes = 0

    def offer(self) -> None:
        """Mark the socket as owed the latest update."""
        self.ready.set()

    async def pump(self) -> None:
        """Send the latest update whenever one is owed (encoding it for this socket alone)."""
        while not self.closed:
            await self.ready.wait()
            self.ready.clear()
            if not self.closed:
                text = json.dumps(await self.build(), separators=(",", ":"), ensure_ascii=False)
                self.bytes += len(text.encode("utf-8"))
                self.sent += 1


class Counter:
    """A fake socket of the new pump: counts what it is sent."""

    def __init__(self) -> None:
        self.sent = 0
        self.bytes = 0

    async def send(self, text: str) -> None:
        """Take one update text."""
        self.bytes += len(text.encode("utf-8"))
        self.sent += 1


async def run_mode(mode: str, args: argparse.Namespace, repeat: int, folder: Path) -> dict[str, float]:
    """Play every table of one repeat in one mode; CPU seconds, decisions and bytes pushed."""
    hub = Hub(Store(f"sqlite:///{folder / f'{mode}-{repeat}.db'}"), ai_delay=0.0)
    tables: list[Table] = []
    for t in range(args.tables):
        tid, _tokens = await hub.create(args.game, 2, [], [(HUMAN, None), (HUMAN, None)], seed=1000 * repeat + t)
        tables.append(await hub.get(tid))
    counters: list[Any] = []
    tasks: list[asyncio.Task[None]] = []
    for table in tables:
        for k in range(args.sockets if mode != "none" else 0):
            seat = (0, 1, None)[k % 3]
            if mode == "before":
                old = OldSubscriber(seat, lambda table=table, seat=seat: hub.snapshot(table, seat))
                table.subscribers.add(old)  # type: ignore[arg-type]  # duck-typed like Subscriber
                counters.append(old)
                tasks.append(asyncio.create_task(old.pump()))
            else:
                box = Counter()
                sub = Subscriber(seat, lambda table=table, seat=seat: hub.wire_snapshot(table, seat), box.send)
                table.subscribers.add(sub)
                counters.append(box)
                tasks.append(asyncio.create_task(sub.pump()))
    for table in tables:
        for sub in table.subscribers:
            sub.offer()
    pushes = 1
    decisions = 0

    async def settle() -> None:
        while any(c.sent < pushes for c in counters):
            await asyncio.sleep(0)

    await settle()
    sent_before = sum(c.bytes for c in counters)
    cpu = time.process_time()
    for step in range(args.decisions):
        for t, table in enumerate(tables):
            state = table.state
            if state.is_over():
                continue
            seat = state.actors()[0]
            legal = state.legal_actions(seat)
            pick = random.Random(f"{repeat}:{t}:{step}").randrange(len(legal))
            await hub.act(table, seat, str(legal[pick]), table.version)
            decisions += 1
        pushes += 1
        await settle()
    cpu = time.process_time() - cpu
    sent = sum(c.bytes for c in counters) - sent_before
    for table in tables:
        for sub in table.subscribers:
            sub.closed = True
            sub.ready.set()
    for task in tasks:
        task.cancel()
    await hub.close()
    hub.store.dispose()
    return {"cpu": cpu, "decisions": decisions, "bytes": sent}


def interval(diffs: list[float]) -> tuple[float, float, float]:
    """Mean and 95% t interval of paired differences."""
    mean = statistics.fmean(diffs)
    if len(diffs) < 2:
        return mean, float("nan"), float("nan")
    half = stats.t.ppf(0.975, len(diffs) - 1) * statistics.stdev(diffs) / len(diffs) ** 0.5
    return mean, mean - half, mean + half


def main() -> None:
    """Run the modes side by side and print CPU per decision, push cost, bytes and the paired difference."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="farmini")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--sockets", type=int, default=8, help="fake WebSockets per table")
    parser.add_argument("--decisions", type=int, default=40, help="decision rounds per table")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if not (1 <= args.tables <= 50 and 0 <= args.sockets <= 64 and 1 <= args.decisions <= 500):
        parser.error("tables 1..50, sockets 0..64, decisions 1..500")
    per: dict[str, list[float]] = {m: [] for m in MODES}
    sent: dict[str, list[float]] = {m: [] for m in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeats):
            order = MODES[r % 3 :] + MODES[: r % 3]  # rotate so no mode always runs first (warm caches)
            for mode in order:
                out = asyncio.run(run_mode(mode, args, r, Path(tmp)))
                per[mode].append(out["cpu"] / out["decisions"] * 1e6)
                sent[mode].append(out["bytes"] / out["decisions"])
    print(
        f"game {args.game}, {args.tables} tables x {args.sockets} sockets, {args.decisions} rounds, "
        f"{args.repeats} repeats (CPU us per decision, median of repeats)"
    )
    for mode in MODES:
        print(
            f"  {mode:6s} {statistics.median(per[mode]):9.0f} us   {statistics.median(sent[mode]) / 1024:8.1f} KiB sent"
        )
    push_before = [b - n for b, n in zip(per["before"], per["none"], strict=True)]
    push_after = [a - n for a, n in zip(per["after"], per["none"], strict=True)]
    mean, lo, hi = interval([b - a for b, a in zip(per["before"], per["after"], strict=True)])
    print(f"  push path: before {statistics.median(push_before):.0f} us, after {statistics.median(push_after):.0f} us")
    print(f"  before - after: {mean:.0f} us per decision (95% CI {lo:.0f} .. {hi:.0f}, paired over repeats)")
    ratio = [pb / pa for pb, pa in zip(push_before, push_after, strict=True) if pa > 0]
    if ratio:
        print(f"  push cost ratio before/after: median {statistics.median(ratio):.2f}x")


if __name__ == "__main__":
    main()
