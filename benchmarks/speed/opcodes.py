"""Engine work counted, not timed: Python opcodes per random decision, this checkout against a base.

    nice -n 10 .venv/bin/python benchmarks/speed/opcodes.py --base /tmp/sp7-base/src --games tiny-towns farmini
    nice -n 10 .venv/bin/python benchmarks/speed/opcodes.py --warm 300      # steady state: every table made

CPU time on a shared machine moves with the load (the paired ratios of ``engine.py`` carry intervals of
+-10-20% at load 8); the number of Python opcodes a seeded random game executes does not move at all.
Each side plays the same random 2-player games as ``engine.py`` (game ``i`` = deal ``i``, a
``random.Random(i)`` picking among ``legal_actions``, every move through ``apply``) under a
``sys.settrace`` opcode counter, after ``--warm`` untraced games of other deals (1, as ``engine.py``:
tables the rules make once per process are then mostly made inside the count; 300: steady state).
Opcodes are not time (a C-level call counts as one), so this complements ``engine.py``, never replaces it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from common import RANDOM_GAMES, add_sides, ensure_base, run_worker

WORKER = (
    RANDOM_GAMES
    + r"""
count = 0
def tracer(frame, event, arg):
    global count
    frame.f_trace_opcodes = True
    frame.f_trace_lines = False
    if event == "opcode":
        count += 1
    return tracer
sys.settrace(tracer)
decisions = sum(play(seed) for seed in range(games))
sys.settrace(None)
print(json.dumps({"decisions": decisions, "opcodes": count}))
"""
)


def run(src: Path, game_id: str, games: int, warm: int) -> dict[str, int]:
    """One worker process on ``src``: its decisions and opcodes."""
    data: dict[str, int] = run_worker(src, WORKER, game_id, games, warm)
    return data


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="traced games per side")
    parser.add_argument("--warm", type=int, default=1, help="untraced games played first")
    add_sides(parser, "count")
    args = parser.parse_args()
    base = ensure_base(args.base)
    print(f"random 2-player play, {args.deals} deals, {args.warm} warm-up game(s); Python opcodes per decision\n")
    print("| game | decisions | base opcodes/decision | this opcodes/decision | base/this |")
    print("|---|---:|---:|---:|---:|")
    for game_id in args.games:
        b = run(base, game_id, args.deals, args.warm)
        t = run(args.this, game_id, args.deals, args.warm)
        per_b, per_t = b["opcodes"] / b["decisions"], t["opcodes"] / t["decisions"]
        print(f"| {game_id} | {t['decisions']:,} | {per_b:,.0f} | {per_t:,.0f} | {per_b / per_t:.2f} |", flush=True)


if __name__ == "__main__":
    main()
