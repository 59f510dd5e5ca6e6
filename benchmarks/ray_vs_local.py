"""Check that the Ray backend stores the same games as the local backend for the same seeds.

Usage: .venv/bin/python benchmarks/ray_vs_local.py [GAME] [GAMES] [OUT_DIR]
Runs the same arena twice (local processes, then a local Ray started with 2 CPUs) into
two SQLite files and compares every stored game except its wall time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from farmtable.arena import ResultStore, run_jobs, schedule


def main() -> int:
    """Run both backends and print whether every game matches."""
    game = sys.argv[1] if len(sys.argv) > 1 else "farmers-finances"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    out = Path(sys.argv[3] if len(sys.argv) > 3 else "benchmarks/out")
    out.mkdir(parents=True, exist_ok=True)
    jobs = schedule(game, ["ismcts:iters=30,depth=5", "greedy"], games, 2, seed=7)
    timings = {}
    rows = {}
    for backend in ("local", "ray"):
        path = out / f"ray-check-{backend}.sqlite"
        path.unlink(missing_ok=True)
        start = time.perf_counter()
        run_jobs(jobs, ResultStore(path), workers=2, backend=backend)
        timings[backend] = time.perf_counter() - start
        rows[backend] = [r.outcome() for r in ResultStore(path).records()]
    same = rows["local"] == rows["ray"]
    print(
        f"{game}: {games} games (ismcts:iters=30,depth=5 vs greedy, seed 7), "
        f"local {timings['local']:.1f} s, ray {timings['ray']:.1f} s (Ray start-up included)"
    )
    print(f"identical stored games (seed, agents, every action, totals, ranking, details): {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
