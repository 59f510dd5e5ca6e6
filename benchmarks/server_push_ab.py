"""Before vs after the push work (issue 16 item 3), side by side in one run, on the same load.

It takes the server of an older commit (default: the commit before the push work, ``96bfa63^``) out of
git into a temporary folder (``git archive``: nothing in the repository changes), and runs
``benchmarks/load_server.py``'s client against that server and against the server of this checkout,
alternating in every round (ABBA order: before/after, then after/before, ...), each a fresh
``farmtable serve`` process on a fresh SQLite file, on 127.0.0.1 only. Every round gives both
servers the same client seed and options.

Printed per run: decisions/s, server CPU ms per decision (``/proc`` user+system of the server
process: the measure that holds when other jobs share the cores), the human move-to-update p50/p99,
and the 1-minute load average before and after. Then the ratios after/before, paired per round, with
a 95% t interval on the log ratios (so the interval is of a ratio):

- capacity = (CPU ms per decision before) / (CPU ms per decision after): how many more decisions one
  process can serve with the same CPU (the load-robust number),
- decisions/s after / before (with ``--ai-delay 0`` the server is saturated, so this is throughput;
  with a pause the pace is set by the AI delay and the ratio is ~1 by construction).

    nice -n 10 .venv/bin/python benchmarks/server_push_ab.py --rounds 4 --ai-delay 0 --seconds 15
    nice -n 10 .venv/bin/python benchmarks/server_push_ab.py --rounds 2 --ai-delay 0.5 --seconds 30

Bounded like ``load_server.py`` (at most 500 tables, 600 s a run, 8 rounds).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_server  # the client of the load benchmark, reused as is

ROOT = Path(__file__).resolve().parents[1]
MAX_ROUNDS = 8


def export_commit(commit: str, into: Path) -> str:
    """Write ``src/`` of ``commit`` into ``into`` (``git archive``; the repository is not touched);
    returns the full commit id."""
    full = subprocess.run(
        ["git", "rev-parse", "--verify", f"{commit}^{{commit}}"], cwd=ROOT, capture_output=True, text=True
    )
    if full.returncode != 0:
        raise SystemExit(f"no such commit: {commit!r} ({full.stderr.strip()})")
    sha = full.stdout.strip()
    archive = into / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", "--format=tar", sha, "src"], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    archive.unlink()
    return sha


def export_sides(before: str, after: str | None, tmp: Path) -> tuple[str, str, dict[str, Path]]:
    """The two sides of a comparison under ``tmp``: ``src/`` of commit ``before`` and of ``after`` (or this
    checkout's when None). Returns the before commit id, the after side's name and each side's ``src``."""
    (tmp / "before").mkdir()
    old = export_commit(before, tmp / "before")
    sides = {"before": tmp / "before" / "src", "after": ROOT / "src"}
    new = "this checkout"
    if after:
        (tmp / "after").mkdir()
        new = export_commit(after, tmp / "after")
        sides["after"] = tmp / "after" / "src"
    return old, new, sides


def start(src: Path, db_url: str, port: int, ai_delay: float, lease: bool) -> subprocess.Popen[bytes]:
    """``farmtable serve`` from the sources in ``src`` on 127.0.0.1; returns once it answers."""
    cmd = [sys.executable, "-m", "farmtable", "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--db", db_url, "--ai-delay", str(ai_delay), "--sqlite-sync", "NORMAL"]
    cmd += load_server.LOAD_CLIENT_LIMITS
    if lease:  # the option came with several processes (issue 17), after the push's parent commit
        cmd += ["--lease-seconds", "5"]
    env = dict(os.environ, PYTHONPATH=str(src))
    proc = subprocess.Popen(cmd, cwd=src.parent, stdout=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        if proc.poll() is not None:
            raise SystemExit(f"the server from {src} exited with {proc.returncode}")
        time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the server from {src} did not start")


def has_option(src: Path, option: str) -> bool:
    """Whether that checkout's ``farmtable serve`` takes ``option`` (read from its source)."""
    return option.removeprefix("--").replace("-", "_") in (src / "farmtable" / "cli" / "serve.py").read_text()


def one_run(side: str, src: Path, args: argparse.Namespace, seed: int) -> dict[str, Any]:
    """One measured run of the load client against a fresh server of ``src``."""
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        port = load_server.free_port()
        proc = start(
            src, f"sqlite:///{Path(tmp) / 'bench.db'}", port, args.ai_delay, has_option(src, "--lease-seconds")
        )
        try:
            client = argparse.Namespace(
                ai_tables=args.ai_tables,
                human_tables=args.human_tables,
                agent="random",
                think_min=args.think_min,
                think_max=args.think_max,
                seed=seed,
                warmup=args.warmup,
                seconds=args.seconds,
                games=args.games,
                limits="on",
                ai_delay=args.ai_delay,
                db=None,
            )
            report = asyncio.run(load_server.run(client, [f"http://127.0.0.1:{port}"], [proc.pid]))
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
    lat = report["latency_ms"]
    return {
        "side": side,
        "seed": seed,
        "decisions_per_s": report["decisions_per_s"],
        "cpu_ms_per_decision": report["server_cpu_ms_per_decision"],
        "server_cores": report["server_cpu_s_per_s"],
        "p50_ms": lat["p50"],
        "p99_ms": lat["p99"],
        "human_moves": report["human_moves_timed"],
        "load_1min": [round(load_before, 2), report["load_average_1min"]],
        "errors": report["errors"],
    }


WORKLOAD = """
import asyncio, json, random, sys, tempfile, time
import farmtable.server.hub as hub_module
from farmtable.server.hub import HUMAN, Hub
from farmtable.server.store import Store

def socket_for(who):
    # what one page's connection of that server keeps (what it was last sent), or None (none kept)
    sub = getattr(hub_module, "Subscriber", None)
    if sub is None or not hasattr(sub, "text_of"):
        return None
    if hasattr(sub, "texts_of"):  # pages take pictures unescaped
        import inspect
        if "view" in inspect.signature(sub).parameters:  # and leave out the view they never read
            return sub(who, None, None, frames=True, view=False)
        return sub(who, None, None, frames=True)
    return sub(who, None, None)

def sent(socket, wire):
    # the texts the server sends that page's connection for this update (made, not sent)
    if socket is None:
        return wire.full
    if hasattr(socket, "texts_of"):
        return socket.texts_of(wire)
    return socket.text_of(wire)

async def main(games, decisions, tables, seed):
    with tempfile.TemporaryDirectory() as tmp:
        hub = Hub(Store(f"sqlite:///{tmp}/w.db"), ai_delay=0.0)
        wire = getattr(hub, "wire", None)
        cpu = {"decide": 0.0, "push": 0.0}
        count = 0
        # first a warm-up table per game (t = -1: imports, caches; 3 decisions, not counted)
        for g, t in [(g, -1) for g in games] + [(g, t) for g in games for t in range(tables)]:
            tid, _ = await hub.create(g, 2, [], [(HUMAN, None), (HUMAN, None)], seed=seed * 1000 + t)
            table = await hub.get(tid)
            rng = random.Random(f"{seed}:{g}:{t}")
            sockets = {who: socket_for(who) for who in (0, 1, None)} if wire is not None else {}
            for _ in range(3 if t < 0 else decisions):
                state = table.state
                if state.is_over():
                    break
                seat = state.actors()[0]
                legal = state.legal_actions(seat)
                action = str(legal[rng.randrange(len(legal))])
                c0 = time.process_time()
                await hub.act(table, seat, action, table.version)
                c1 = time.process_time()
                for who in (0, 1, None):  # one socket per seat and a spectator: what each is sent
                    if wire is not None:  # the server's own encoded update (one per seat and version), as
                        sent(sockets[who], wire(table, who))  # its page's connection is sent it
                    else:  # before the push work: Starlette's send_json, json.dumps per socket
                        json.dumps(hub.payload(table, who), separators=(",", ":"), ensure_ascii=False)
                c2 = time.process_time()
                if t >= 0:
                    cpu["decide"] += c1 - c0
                    cpu["push"] += c2 - c1
                    count += 1
        await hub.close()
        print(json.dumps({"decisions": count, "decide_us": cpu["decide"] / count * 1e6,
                          "push_us": cpu["push"] / count * 1e6}))

try:  # the collector settings the server serves with, where it has them (farmtable.server.collector)
    from farmtable.server.collector import quiet_collector
except ImportError:
    import contextlib
    quiet_collector = contextlib.nullcontext
with quiet_collector():
    asyncio.run(main(sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
"""
"""The in-process workload (``--in-process``): the same decisions on both servers' ``Hub`` (a fresh SQLite
file, the server's own decision write), and after each one the update of seat 0, seat 1 and a spectator,
built and JSON-encoded as that server's push does for the table page's connection of each seat: the
texts its ``Subscriber`` picks (``texts_of``: a new picture unescaped after the update, else the update without it;
``text_of``: the full update or the one without an unchanged picture) where it has one, else
``Hub.wire(...).full``, else ``json.dumps`` of ``Hub.payload``, as Starlette's ``send_json`` did for every
socket; the sends themselves are not in it (the live run has them); CPU time only
(``time.process_time``), so a busy machine barely moves it and no AI pacing or update coalescing enters.
Each side runs under the garbage-collector settings its server serves with (``quiet_collector`` where the
server has it, CPython's defaults before). Written against the Hub API both commits share."""

GAMES = ["tiny-farms", "farmini", "farmerama", "tiny-towns", "farmers-finances"]

PROFILE = """
import contextlib, cProfile, io, json, pstats, sys, time
code = sys.argv.pop(1)
out = io.StringIO()
prof = cProfile.Profile(time.process_time)  # CPU time: a busy machine's waits are charged to no function
with contextlib.redirect_stdout(out):
    prof.enable()
    exec(compile(code, "<workload>", "exec"), {"__name__": "__workload__"})
    prof.disable()
stats = pstats.Stats(prof).stats
total = sum(tt for _, _, tt, _, _ in stats.values())
rows = [
    {"function": f"{file.split('/src/')[-1]}:{line}({name})", "self": round(tt / total, 4),
     "cumulative": round(ct / total, 4)}
    for (file, line, name), (_, _, tt, ct, _) in stats.items()
]
mine = [r for r in rows if r["function"].startswith("farmtable/")]
print(json.dumps({
    "workload": json.loads(out.getvalue().strip().splitlines()[-1]),
    "profiled_cpu_s": round(total, 3),
    "by_cumulative": sorted(mine, key=lambda r: -r["cumulative"])[:30],
    "by_self": sorted(rows, key=lambda r: -r["self"])[:20],
}))
"""
"""``--profile``: :data:`WORKLOAD` of this checkout once under ``cProfile`` timed by CPU time (imports and the
warm-up included); the shares of the profiled CPU time by function (cumulative, the project's functions; and
self time, all). Profiling slows every call, small ones
most, so the shares are a guide to where the time goes, not measurements to compare."""


def in_process_run(side: str, src: Path, args: argparse.Namespace, seed: int) -> dict[str, Any]:
    """One in-process run of :data:`WORKLOAD` with the sources in ``src`` (a child process)."""
    load_before = os.getloadavg()[0]
    games = ",".join(args.games or GAMES)
    got = run_child(src, WORKLOAD, games, str(args.decisions), str(args.tables), str(seed), what="the workload")
    return {
        "side": side,
        "seed": seed,
        "decisions": got["decisions"],
        "decide_us": round(got["decide_us"], 1),
        "push_us": round(got["push_us"], 1),
        "total_us": round(got["decide_us"] + got["push_us"], 1),
        "load_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }


def run_child(src: Path, code: str, *argv: str, what: str = "the run", env: dict[str, str] | None = None) -> Any:
    """Run ``python -c code argv...`` with the sources in ``src`` first on the path and return the JSON of its
    last output line; a failure stops the benchmark with the child's error. ``env`` replaces the environment
    (``PYTHONPATH`` is always set); by default the child inherits this process's."""
    out = subprocess.run(
        [sys.executable, "-c", code, *argv],
        cwd=src.parent,
        env=dict(os.environ if env is None else env, PYTHONPATH=str(src)),
        capture_output=True,
        text=True,
        timeout=600,
    )
    if out.returncode != 0:
        raise SystemExit(f"{what} failed with {src}:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def ratio_interval(pairs: list[tuple[float, float]]) -> dict[str, float]:
    """Geometric mean of ``a/b`` over the pairs, with a 95% t interval on the log ratios."""
    logs = [math.log(a / b) for a, b in pairs]
    mean = statistics.fmean(logs)
    if len(logs) < 2:
        return {"ratio": round(math.exp(mean), 3), "low": float("nan"), "high": float("nan"), "n": len(logs)}
    half = stats.t.ppf(0.975, len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    return {
        "ratio": round(math.exp(mean), 3),
        "low": round(math.exp(mean - half), 3),
        "high": round(math.exp(mean + half), 3),
        "n": len(logs),
    }


def main() -> None:
    """Parse the options, export the older server, run the rounds, print the table and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="96bfa63^", help="the older commit (default: before the push work)")
    parser.add_argument("--after", help="a commit to compare instead of this checkout's working tree")
    parser.add_argument("--rounds", type=int, default=4, help="rounds; each runs both servers (ABBA order)")
    parser.add_argument("--ai-tables", type=int, default=80)
    parser.add_argument("--human-tables", type=int, default=20)
    parser.add_argument("--ai-delay", type=float, default=0.0, help="0: saturate the server (throughput)")
    parser.add_argument("--seconds", type=float, default=15, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=2.0)
    parser.add_argument("--games", nargs="*", help="game ids (default: every game of the server)")
    parser.add_argument("--seed", type=int, default=1, help="client seed of round 1 (round r uses seed + r)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="the in-process workload (CPU per decision and push) instead of live servers",
    )
    parser.add_argument("--decisions", type=int, default=60, help="--in-process: decisions per table")
    parser.add_argument("--tables", type=int, default=2, help="--in-process: tables per game")
    parser.add_argument(
        "--profile", action="store_true", help="--in-process: profile this checkout's workload once (no comparison)"
    )
    args = parser.parse_args()
    if not (1 <= args.decisions <= 400 and 1 <= args.tables <= 10):
        raise SystemExit("--decisions is 1 to 400 and --tables 1 to 10 (bounded on purpose)")
    if not 1 <= args.rounds <= MAX_ROUNDS:
        raise SystemExit(f"--rounds is 1 to {MAX_ROUNDS} (bounded on purpose)")
    if args.ai_tables + args.human_tables > load_server.MAX_TABLES or args.seconds + args.warmup > 600:
        raise SystemExit(f"bounded on purpose: at most {load_server.MAX_TABLES} tables and 600 s a run")
    if args.profile:
        games = ",".join(args.games or GAMES)
        got = run_child(
            ROOT / "src",
            PROFILE,
            WORKLOAD,
            games,
            str(args.decisions),
            str(args.tables),
            str(args.seed),
            what="profile",
        )
        print(json.dumps(got, indent=None if args.json else 1))
        return
    with tempfile.TemporaryDirectory() as tmp:
        old_sha, new_name, sides = export_sides(args.before, args.after, Path(tmp))
        runs: list[dict[str, Any]] = []
        for r in range(args.rounds):
            order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
            for side in order:
                if args.in_process:
                    run = in_process_run(side, sides[side], args, args.seed + r)
                else:
                    run = one_run(side, sides[side], args, args.seed + r)
                run["round"] = r + 1
                runs.append(run)
                if not args.json:
                    print(json.dumps(run), flush=True)
    by_round = {(x["round"], x["side"]): x for x in runs}
    pairs = [(by_round[(r, "before")], by_round[(r, "after")]) for r in range(1, args.rounds + 1)]
    if args.in_process:
        report_in_process(args, old_sha, new_name, runs, pairs)
        return
    summary = {
        "before_commit": old_sha,
        "after": new_name,
        "ai_tables": args.ai_tables,
        "human_tables": args.human_tables,
        "ai_delay_s": args.ai_delay,
        "seconds": args.seconds,
        "capacity_ratio_cpu_before_over_after": ratio_interval(
            [(b["cpu_ms_per_decision"], a["cpu_ms_per_decision"]) for b, a in pairs]
        ),
        "decisions_per_s_ratio_after_over_before": ratio_interval(
            [(a["decisions_per_s"], b["decisions_per_s"]) for b, a in pairs]
        ),
        "p99_ratio_after_over_before": ratio_interval([(a["p99_ms"], b["p99_ms"]) for b, a in pairs]),
        "median": {
            side: {
                key: statistics.median(x[key] for x in runs if x["side"] == side)
                for key in ("decisions_per_s", "cpu_ms_per_decision", "p50_ms", "p99_ms")
            }
            for side in ("before", "after")
        },
        "runs": runs,
    }
    if args.json:
        print(json.dumps(summary))
        return
    print(
        f"\nbefore = {old_sha[:10]}, after = {new_name[:13]}; {args.ai_tables} AI + {args.human_tables} human tables,"
    )
    print(f"AI delay {args.ai_delay} s, {args.seconds} s measured per run, {args.rounds} rounds (ABBA)\n")
    print(f"{'round':>5} {'side':>7} {'dec/s':>8} {'CPU ms/dec':>11} {'p50 ms':>8} {'p99 ms':>8} {'load 1m':>12}")
    for x in runs:
        load = f"{x['load_1min'][0]:.1f}->{x['load_1min'][1]:.1f}"
        print(
            f"{x['round']:>5} {x['side']:>7} {x['decisions_per_s']:>8.1f} {x['cpu_ms_per_decision']:>11.3f} "
            f"{x['p50_ms']:>8.1f} {x['p99_ms']:>8.1f} {load:>12}"
        )
    for name in ("capacity_ratio_cpu_before_over_after", "decisions_per_s_ratio_after_over_before"):
        ci = summary[name]
        print(f"{name}: {ci['ratio']:.3f} (95% CI {ci['low']:.3f} .. {ci['high']:.3f}, {ci['n']} paired rounds)")
    ci = summary["p99_ratio_after_over_before"]
    print(f"p99 after/before: {ci['ratio']:.3f} (95% CI {ci['low']:.3f} .. {ci['high']:.3f})")


def report_in_process(
    args: argparse.Namespace,
    old_sha: str,
    new_name: str,
    runs: list[dict[str, Any]],
    pairs: list[tuple[dict[str, Any], dict[str, Any]]],
) -> None:
    """Print the in-process runs and the before/after ratios of CPU per decision (paired per round)."""
    ratios = {key: ratio_interval([(b[key], a[key]) for b, a in pairs]) for key in ("decide_us", "push_us", "total_us")}
    summary = {
        "before_commit": old_sha,
        "after": new_name,
        "games": args.games or GAMES,
        "ratio_before_over_after": ratios,
        "runs": runs,
    }
    if args.json:
        print(json.dumps(summary))
        return
    print(f"\nbefore = {old_sha[:10]}, after = {new_name[:13]}; in-process, {args.tables} tables x 5 games x")
    print(f"{args.decisions} decisions, updates for seat 0, seat 1 and a spectator; CPU us per decision\n")
    print(f"{'round':>5} {'side':>7} {'decide':>8} {'push':>8} {'total':>8} {'load 1m':>12}")
    for x in runs:
        load = f"{x['load_1min'][0]:.1f}->{x['load_1min'][1]:.1f}"
        cells = f"{x['decide_us']:>8.0f} {x['push_us']:>8.0f} {x['total_us']:>8.0f}"
        print(f"{x['round']:>5} {x['side']:>7} {cells} {load:>12}")
    for key, ci in ratios.items():
        print(f"before/after {key}: {ci['ratio']:.3f} (95% CI {ci['low']:.3f} .. {ci['high']:.3f}, {ci['n']} rounds)")


if __name__ == "__main__":
    main()
