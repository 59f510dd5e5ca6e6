"""Compare two ``fm_fr_bench.py`` result files paired deal by deal (same seeds, same game count).

Prints for each file the median, mean and tier shares (Wilson 95% intervals), win rate (two
players), CPU seconds per decision (p50, p99), and the paired difference of the scores (mean with
a 95% normal interval; the change counts only when that interval excludes 0).

    /work/main/.venv/bin/python benchmarks/fit/fm_fr_compare.py before.json after.json --tiers 18 20 30
"""

from __future__ import annotations

import argparse
import json
import math
import statistics

Z95 = 1.96


def wilson(k: float, n: int) -> tuple[float, float]:
    """Wilson 95% interval of a share ``k / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (centre - half, centre + half)


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def describe(name: str, data: dict, tiers: list[int]) -> list[float]:
    """Print one file's summary; return the measured agent's score per game."""
    games = data["games"]
    scores = [float(g["totals"][g["seat"]]) for g in games]
    n = len(scores)
    mean = statistics.fmean(scores)
    half = Z95 * statistics.stdev(scores) / math.sqrt(n) if n > 1 else 0.0
    cpu = data["cpu_per_decision"]
    print(
        f"{name}: {data['args']['agent']} n={n} median={statistics.median(scores):g} mean={mean:.2f} "
        f"[{mean - half:.2f}, {mean + half:.2f}] cpu/decision p50={1000 * pct(cpu, 0.5):.2f} ms "
        f"p99={1000 * pct(cpu, 0.99):.2f} ms"
    )
    for t in tiers:
        k = sum(1 for s in scores if s >= t)
        lo, hi = wilson(k, n)
        print(f"   share >= {t}: {100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
    if data["args"]["players"] > 1:
        wins = sum(g["win"] for g in games)
        lo, hi = wilson(wins, n)
        print(f"   wins vs {data['args']['opponent']}: {100 * wins / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
    return scores


def main() -> None:
    """Summaries of both files and the paired difference (after - before)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--tiers", type=int, nargs="*", default=[])
    args = parser.parse_args()
    with open(args.before, encoding="utf-8") as f:
        before = json.load(f)
    with open(args.after, encoding="utf-8") as f:
        after = json.load(f)
    a = describe("before", before, args.tiers)
    b = describe("after", after, args.tiers)
    n = min(len(a), len(b))
    diff = [b[i] - a[i] for i in range(n)]
    mean = statistics.fmean(diff)
    half = Z95 * statistics.stdev(diff) / math.sqrt(n) if n > 1 else 0.0
    verdict = "better" if mean - half > 0 else "worse" if mean + half < 0 else "no clear difference"
    print(
        f"paired difference after - before over {n} deals: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] "
        f"-> {verdict}"
    )


if __name__ == "__main__":
    main()
