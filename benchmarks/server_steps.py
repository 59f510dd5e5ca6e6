"""Where a decision's CPU goes, step by step, on two commits side by side (issue 16 item 3).

The in-process workload of ``server_push_ab.py --in-process`` (the same seeded decisions on the ``Hub`` of
each side: a fresh SQLite file, then the update of seat 0, seat 1 and a spectator as the table page's
connection is sent it), with a timer (``time.process_time``) around each step the hub takes: the decision's
write, ``History.apply``, the state's ``to_json``/``from_json``, ``view``, ``legal_actions``, the pictures
(by game and role: the seat deciding, a seat waiting, the spectator), the update texts, the log, the live
score, the events and the reveal of a simultaneous step. Printed per side: µs per decision by step, and
**calls per decision** by step, which do not depend on the machine's load (the timers do: they are a guide,
the total is measured by ``server_push_ab.py``). Steps nest (``to_json`` is also inside ``History.apply``).

    nice -n 10 .venv/bin/python benchmarks/server_steps.py --before 89878f5 --tables 1 --json

It takes each side's ``src/`` out of git (``git archive`` into a temporary folder; nothing in the repository
changes) and runs each in a child process, one after the other.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_push_ab import GAMES, export_sides, run_child

STEPS = """
import asyncio, collections, json, random, sys, tempfile, time
import farmtable.server.hub as H
from farmtable.server.hub import HUMAN, Hub
from farmtable.server.store import Store

spent = collections.defaultdict(float)
calls = collections.defaultdict(int)
timing = [False]

def timed(fn, label):
    def run(*args, **kwargs):
        if not timing[0]:
            return fn(*args, **kwargs)
        name = label(*args) if callable(label) else label
        t = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - t
            calls[name] += 1
    return run

def wrap(owner, name, label):
    fn = getattr(owner, name)
    static = isinstance(getattr(owner, "__dict__", {}).get(name), staticmethod)
    setattr(owner, name, staticmethod(timed(fn, label)) if static else timed(fn, label))

def role(game, view, legal, player):
    return "picture " + game.id + (" deciding" if legal else " spectator" if player is None else " waiting")

wrap(H, "render", role)
for name, label in [("table_extras", "live score"), ("narrate_events", "events"), ("encode_update", "update texts"),
                    ("shown_choices", "reveal (shown_choices)")]:
    if hasattr(H, name):
        wrap(H, name, label)
wrap(H.History, "apply", "History.apply")
wrap(H.Hub, "log_lines", "log")
wrapped_states = set()

async def main(games, decisions, tables, seed):
    with tempfile.TemporaryDirectory() as tmp:
        hub = Hub(Store(f"sqlite:///{tmp}/w.db"), ai_delay=0.0)
        wrap(hub.store, "record_decision", "decision write (SQLite)")
        count = 0
        for g, t in [(g, -1) for g in games] + [(g, t) for g in games for t in range(tables)]:
            tid, _ = await hub.create(g, 2, [], [(HUMAN, None), (HUMAN, None)], seed=seed * 1000 + t)
            table = await hub.get(tid)
            kind = type(table.state)
            if kind not in wrapped_states:
                wrapped_states.add(kind)
                for name in ("view", "to_json", "legal_actions", "clone"):
                    wrap(kind, name, "state." + name)
                wrap(type(table.game), "from_json", "game.from_json")
            rng = random.Random(f"{seed}:{g}:{t}")
            sockets = {who: H.Subscriber(who, None, None, frames=True, view=False) for who in (0, 1, None)}
            for _ in range(3 if t < 0 else decisions):
                state = table.state
                if state.is_over():
                    break
                seat = state.actors()[0]
                legal = state.legal_actions(seat)
                action = str(legal[rng.randrange(len(legal))])
                timing[0] = t >= 0
                c0 = time.process_time()
                await hub.act(table, seat, action, table.version)
                c1 = time.process_time()
                for who in (0, 1, None):
                    sockets[who].texts_of(hub.wire(table, who))
                c2 = time.process_time()
                timing[0] = False
                if t >= 0:
                    spent["total: decide"] += c1 - c0
                    spent["total: push"] += c2 - c1
                    count += 1
        await hub.close()
        print(json.dumps({"decisions": count,
                          "us_per_decision": {k: round(v / count * 1e6, 1) for k, v in sorted(spent.items())},
                          "calls_per_decision": {k: round(v / count, 3) for k, v in sorted(calls.items())}}))

from farmtable.server.collector import quiet_collector
with quiet_collector():
    asyncio.run(main(sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
"""
"""The workload with a timer around each step (a child process per side). Needs the ``Subscriber`` that
takes pictures unescaped and leaves the view out (session 15's hub and later)."""


def main() -> None:
    """Parse the options, export both sides, run the workload on each and print the steps side by side."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="89878f5", help="the older commit (default: main of session 16)")
    parser.add_argument("--after", help="a commit to compare instead of this checkout's working tree")
    parser.add_argument("--games", nargs="*", help="game ids (default: all five)")
    parser.add_argument("--decisions", type=int, default=60, help="decisions per table")
    parser.add_argument("--tables", type=int, default=1, help="tables per game (1 to 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    if not 1 <= args.tables <= 10 or not 1 <= args.decisions <= 500:
        raise SystemExit("--tables is 1 to 10 and --decisions 1 to 500")
    games = ",".join(args.games or GAMES)
    with tempfile.TemporaryDirectory() as tmp:
        old, new, sides = export_sides(args.before, args.after, Path(tmp))
        got: dict[str, Any] = {
            side: run_child(src, STEPS, games, str(args.decisions), str(args.tables), str(args.seed), what=side)
            for side, src in sides.items()
        }
    report = {"before": old, "after": new, "games": games.split(","), **got}
    if args.json:
        print(json.dumps(report))
        return
    steps = sorted(set(got["before"]["us_per_decision"]) | set(got["after"]["us_per_decision"]))
    print(f"before {old[:10]}, after {new[:10]}; {got['after']['decisions']} decisions a side")
    print(f"{'step':44} {'µs/decision before':>18} {'after':>8} {'calls/decision before':>22} {'after':>8}")
    for step in steps:
        row = [got[s]["us_per_decision"].get(step, 0.0) for s in ("before", "after")]
        count = [got[s]["calls_per_decision"].get(step, 0.0) for s in ("before", "after")]
        print(f"{step:44} {row[0]:18.1f} {row[1]:8.1f} {count[0]:22.3f} {count[1]:8.3f}")


if __name__ == "__main__":
    main()
