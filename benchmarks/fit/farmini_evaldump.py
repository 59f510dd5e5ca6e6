"""Write ``evaluate()`` of every position of seeded random Farmini games, or compare two such files.

Used to show that a faster evaluation gives the same values as the one before: run it once with
each source tree on the path, then compare::

    (cd OLD && PYTHONPATH=src python WT/benchmarks/fit/farmini_evaldump.py old.json)
    PYTHONPATH=src python benchmarks/fit/farmini_evaldump.py new.json
    python benchmarks/fit/farmini_evaldump.py --compare old.json new.json

The games: 1 and 2 players, the default faces, ``cards-v1``, ``second-variant`` and
``gaps-not-enclosed``, seeds 0-3, every position until the end (3,008 positions).
"""

from __future__ import annotations

import argparse
import json
import random
import sys

import farmtable

VARIANT_SETS: tuple[tuple[str, ...], ...] = ((), ("cards-v1",), ("second-variant",), ("gaps-not-enclosed",))


def dump(path: str, seeds: int) -> int:
    """Write the evaluation of every position to ``path`` (a JSON list); return how many."""
    out: list[list[float]] = []
    for players in (1, 2):
        for variants in VARIANT_SETS:
            for seed in range(seeds):
                state = farmtable.get_game("farmini").new_game(players=players, seed=seed, variants=variants)
                rng = random.Random(seed)
                while not state.is_over():
                    out.append(state.evaluate())
                    mover = state.actors()[0]
                    state.apply(mover, rng.choice(state.legal_actions(mover)))
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(out, fh)
    return len(out)


def compare(old: str, new: str) -> tuple[int, float]:
    """How many positions two dumps hold and the largest difference of a value between them."""
    with open(old, encoding="utf-8") as fh:
        a = json.load(fh)
    with open(new, encoding="utf-8") as fh:
        b = json.load(fh)
    if len(a) != len(b):
        raise SystemExit(f"the dumps hold {len(a)} and {len(b)} positions: not the same games")
    worst = max((abs(x - y) for u, v in zip(a, b, strict=True) for x, y in zip(u, v, strict=True)), default=0.0)
    return len(a), worst


def main() -> None:
    """Dump, or compare two dumps."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--seeds", type=int, default=4)
    args = ap.parse_args()
    if args.compare:
        if len(args.files) != 2:
            sys.exit("--compare takes two dump files")
        count, worst = compare(*args.files)
        print(f"{count} positions, largest difference {worst:.3g}")
    else:
        print(f"{dump(args.files[0], args.seeds)} positions written")


if __name__ == "__main__":
    main()
