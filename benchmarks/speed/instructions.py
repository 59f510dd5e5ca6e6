"""Engine work in machine instructions: valgrind cachegrind's instruction count per random decision, side by side.

    nice -n 10 .venv/bin/python benchmarks/speed/instructions.py --base /tmp/en9-base/src --games farmini
    nice -n 10 .venv/bin/python benchmarks/speed/instructions.py --deals 40 --warm 20 --games farmini tiny-towns

CPU seconds on a shared machine move with the load; the number of instructions a seeded random game
executes hardly moves at all, and unlike ``opcodes.py`` it counts the work done inside C calls too.
Each side runs twice under ``valgrind --tool=cachegrind --cache-sim=no``: ``--warm`` games of other
deals then ``--deals`` random 2-player games (game ``i`` = deal ``i``, a ``random.Random(i)`` picking
among ``legal_actions``, every move through ``apply``, as ``engine.py``), and the warm games alone; the
difference of the two totals (start-up and warm-up subtracted) over the decisions is the figure.
Needs ``valgrind`` on the path; each run takes ~50x its native time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import RANDOM_GAMES, add_sides, ensure_base

WORKER = (
    RANDOM_GAMES
    + r"""
decisions = sum(play(seed) for seed in range(games))
print(json.dumps({"decisions": decisions}))
"""
)

_TOTAL = re.compile(r"^summary:\s+(\d+)", re.MULTILINE)


def instructions(src: Path, game_id: str, games: int, warm: int) -> tuple[int, int]:
    """(instructions, decisions) of one cachegrind run of the worker on ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src))
    with tempfile.TemporaryDirectory() as tmp:
        out_file = Path(tmp) / "cg.out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={out_file}",
                sys.executable,
                "-c",
                WORKER,
                game_id,
                str(games),
                str(warm),
            ],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        found = _TOTAL.search(out_file.read_text())
    if found is None:
        raise RuntimeError(f"no instruction total in cachegrind's output: {done.stderr[-400:]}")
    return int(found.group(1)), int(json.loads(done.stdout.strip().splitlines()[-1])["decisions"])


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="counted games per side")
    parser.add_argument("--warm", type=int, default=20, help="games of other deals played first, not counted")
    add_sides(parser, "count")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: this benchmark counts instructions with cachegrind")
    base = ensure_base(args.base)
    print(f"instructions per random 2-player decision, {args.deals} deals after {args.warm} others\n")
    print("| game | decisions | base instructions/decision | this instructions/decision | base/this |")
    print("|---|---:|---:|---:|---:|")
    for game_id in args.games:
        per: dict[str, float] = {}
        decisions = 0
        for label, src in (("base", base), ("this", args.this)):
            total, decisions = instructions(src, game_id, args.deals, args.warm)
            start_up, _ = instructions(src, game_id, 0, args.warm)
            per[label] = (total - start_up) / decisions
        ratio = per["base"] / per["this"]
        print(f"| {game_id} | {decisions:,} | {per['base']:,.0f} | {per['this']:,.0f} | {ratio:.2f}× |", flush=True)


if __name__ == "__main__":
    main()
