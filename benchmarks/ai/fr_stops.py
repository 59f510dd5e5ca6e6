"""How often a timed duel player's decisions reached the refinement's stop, read from raw games' CPU alone.

Works on any ``compare.py --players 2 --raw`` file (no per-table log needed, so it also reads older
runs): among the decisions of the agents whose spec contains ``--spec`` (every seat it played), the
*costly* ones (over ``--costly`` CPU s: a phase-1 table or a phase-3 line; the other decisions replay
a planned step and cost ~0) and, of those, the ones at or over ``--stop`` CPU s (the refinement's
stop is 0.8 of a 1.0 s budget, so a decision that ends there was cut by the clock). A proxy:
``fr_adapt.py --summarise`` reads the tables' own reports where they were logged.

    python benchmarks/ai/fr_stops.py --spec "adapt=1" benchmarks/ai/out/s13/fr13/adapt-vs-base-20*[0-9].jsonl
"""

from __future__ import annotations

import argparse
import json

from farmtable.arena.stats import wilson


def count(paths: list[str], spec: str, costly: float, stop: float) -> tuple[int, int, int]:
    """(games, costly decisions, those at or over ``stop``) of the seats whose spec contains ``spec``."""
    games = costly_n = stopped = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                game = json.loads(line)
                for seat, name in enumerate(game["specs"]):
                    if spec not in name:
                        continue
                    games += 1
                    cpu = [c for c in game["cpu"][seat] if c > costly]
                    costly_n += len(cpu)
                    stopped += sum(1 for c in cpu if c >= stop)
    return games, costly_n, stopped


def main() -> None:
    """Print the share of costly decisions that reached the stop, with its Wilson 95% interval."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("raw", nargs="+")
    ap.add_argument("--spec", required=True, help="a substring of the duel agent's spec")
    ap.add_argument("--costly", type=float, default=0.05, help="CPU s over which a decision counts")
    ap.add_argument("--stop", type=float, default=0.795, help="CPU s at or over which it reached the stop")
    args = ap.parse_args()
    games, n, stopped = count(args.raw, args.spec, args.costly, args.stop)
    if not n:
        raise SystemExit("no costly decision of that spec")
    lo, hi = wilson(stopped, n)
    print(
        f"{games} games, {n} decisions over {args.costly} CPU s, {stopped} at or over {args.stop} s: "
        f"{stopped / n:.1%} [{lo:.1%}, {hi:.1%}]"
    )


if __name__ == "__main__":
    main()
