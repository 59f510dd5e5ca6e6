"""Profile ``farmtable serve`` under load: where the server's CPU goes per decision (issue 16 item 3).

It starts the server of this checkout in a child process under :mod:`cProfile` with a CPU-time clock
(``time.process_time``, so waiting for a busy machine's cores is not counted), drives it with
``benchmarks/load_server.py``'s client for ``--seconds`` (after ``--warmup``), stops the server with
SIGINT (so the profile is written), and prints the functions by own CPU time and by cumulative
CPU time, each also per stored decision. Loopback only, bounded like ``load_server.py``.

    nice -n 10 .venv/bin/python benchmarks/server_profile.py --ai-tables 30 --human-tables 10 --seconds 20
    nice -n 10 .venv/bin/python benchmarks/server_profile.py ... --out /tmp/server.prof   # keep the profile
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import os
import pstats
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_server

ROOT = Path(__file__).resolve().parents[1]


def serve_profiled(out: str, argv: list[str]) -> None:
    """The child: run ``farmtable serve`` (``argv``) under cProfile on CPU time; write ``out`` on exit."""
    from farmtable.cli import main as cli_main

    prof = cProfile.Profile(time.process_time)
    sys.argv = ["farmtable", *argv]
    prof.enable()
    try:
        cli_main()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        prof.disable()
        prof.dump_stats(out)


def main() -> None:
    """Start the profiled server, run the load, stop it, print the profile."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ai-tables", type=int, default=30)
    parser.add_argument("--human-tables", type=int, default=10)
    parser.add_argument("--ai-delay", type=float, default=0.0)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--top", type=int, default=40, help="rows printed per table")
    parser.add_argument("--out", help="keep the profile in this file")
    parser.add_argument("--child", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        serve_profiled(args.child[0], args.child[1:])
        return
    if args.ai_tables + args.human_tables > load_server.MAX_TABLES or args.seconds + args.warmup > 600:
        raise SystemExit(f"bounded on purpose: at most {load_server.MAX_TABLES} tables and 600 s")
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or str(Path(tmp) / "server.prof")
        port = load_server.free_port()
        serve = ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{Path(tmp) / 'p.db'}"]
        serve += ["--ai-delay", str(args.ai_delay), "--lease-seconds", "5", *load_server.LOAD_CLIENT_LIMITS]
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        proc = subprocess.Popen(
            [sys.executable, __file__, "--child", out, *serve], cwd=ROOT, env=env, stdout=subprocess.DEVNULL
        )
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                        break
                time.sleep(0.2)
            else:
                raise SystemExit("the server did not start")
            client = argparse.Namespace(
                ai_tables=args.ai_tables, human_tables=args.human_tables, agent="random", think_min=0.5,
                think_max=2.0, seed=1, warmup=args.warmup, seconds=args.seconds, games=None, limits="on",
                ai_delay=args.ai_delay, db=None,
            )  # fmt: skip
            report = asyncio.run(load_server.run(client, [f"http://127.0.0.1:{port}"], [proc.pid]))
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
        load_server.print_report(report, as_json=False)
        stats = pstats.Stats(out)
        print(f"\nprofile: {stats.total_tt:.1f} CPU s in the server (start-up and warm-up included)")
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
