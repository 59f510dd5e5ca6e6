"""Engine speed (issue 16, target 5): random play, this checkout against a base commit, side by side.

    nice -n 10 .venv/bin/python benchmarks/speed/engine.py --rounds 6 --seconds 1.5
    nice -n 10 .venv/bin/python benchmarks/speed/engine.py --games farmers-finances --rounds 10
    nice -n 10 .venv/bin/python benchmarks/speed/engine.py --this /tmp/snapshot/src   # a committed snapshot
    nice -n 10 .venv/bin/python benchmarks/speed/engine.py --games farmini --warm 300  # a process's steady state

Each round starts one worker process per side (``this`` = ``src/`` of this checkout or ``--this``, ``base`` = the
snapshot in ``--base``, see ``common.py``), alternating which side goes first; each worker plays
whole random 2-player games with the same seeds (game ``i`` = deal ``i``, ``random.Random(i)`` picks
uniformly among ``legal_actions``; every move through ``apply``, every check kept), after ``--warm``
untimed games of other deals (1 by default; more measures a process whose per-process tables are made),
for ``--seconds`` of its own CPU time (``time.process_time``) and reports decisions and games. The ratio this/base is
taken per round (same seeds, same load), and its median and ~95% interval printed.
Targets: Farmers Finances games/s >= 1.8x the base; every game >= 100k decisions/s.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from common import add_sides, ensure_base, fmt, median_ci, ratio_ci, run_worker

WORKER = r"""
import json, random, sys, time
import farmtable
game_id, seconds, warm = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
game = farmtable.get_game(game_id)
players = 2
def play(seed):
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    n = 0
    while not state.is_over():
        player = state.actors()[0]
        legal = state.legal_actions(player)
        state.apply(player, legal[rng.randrange(len(legal))])
        n += 1
    return n
for seed in range(10**6, 10**6 + warm):  # warm-up games of other deals (default 1)
    play(seed)
start = time.process_time()
games = decisions = 0
while games == 0 or time.process_time() - start < seconds:
    decisions += play(games)
    games += 1
cpu = time.process_time() - start
print(json.dumps({"games": games, "decisions": decisions, "cpu": cpu}))
"""


def run(src: Path, game_id: str, seconds: float, warm: int = 1) -> dict[str, float]:
    """One worker process on ``src``: its games, decisions and CPU seconds (after ``warm`` untimed games)."""
    data: dict[str, float] = run_worker(src, WORKER, game_id, seconds, warm)
    return data


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--warm", type=int, default=1, help="untimed games of other deals first (1; 300: tables made)")
    add_sides(parser, "measure")
    args = parser.parse_args()
    base = ensure_base(args.base)
    print(
        f"random 2-player play, CPU time, {args.rounds} alternating rounds of {args.seconds} s per side "
        f"after {args.warm} warm-up game(s)\n"
    )
    print("| game | base decisions/s | this decisions/s | base games/s | this games/s | this/base (paired) |")
    print("|---|---:|---:|---:|---:|---:|")
    for game_id in args.games:
        rates: dict[str, list[tuple[float, float]]] = {"base": [], "this": []}
        for r in range(args.rounds):
            order = [("base", base), ("this", args.this)]
            for label, src in order if r % 2 == 0 else order[::-1]:
                d = run(src, game_id, args.seconds, args.warm)
                rates[label].append((d["decisions"] / d["cpu"], d["games"] / d["cpu"]))
        pairs = [(t[1], b[1]) for t, b in zip(rates["this"], rates["base"], strict=True)]
        cells = [
            fmt(median_ci([x[0] for x in rates["base"]])),
            fmt(median_ci([x[0] for x in rates["this"]])),
            fmt(median_ci([x[1] for x in rates["base"]]), ",.1f"),
            fmt(median_ci([x[1] for x in rates["this"]]), ",.1f"),
            fmt(ratio_ci(pairs), ".2f"),
        ]
        print(f"| {game_id} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
