"""Paired comparison of two 2-player candidates that each played the same opponent on the same deals.

Reads ``compare.py --raw`` files (seat-balanced games: each deal from both seats). For each deal
that both candidates played from both seats, the candidate's per-deal win share (a shared win
counts half) and mean margin against the opponent; prints both candidates' means over those deals
and the paired difference (B − A) with a Student t 95% interval (accept "B better" only when it
excludes 0).

Usage (from the repository root)::

    python benchmarks/ai/tf_pair_2p.py --opponent "tiny-farms-duel:time=0.5" \\
        --a "tiny-farms-duel:depth=2,time=1.0" --a-raw A1.jsonl A2.jsonl \\
        --b "tiny-farms-duel:depth=2,reply=search,time=1.0" --b-raw B1.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics

from scipy import stats


def per_deal(paths: list[str], spec: str, opponent: str) -> dict[int, tuple[float, float]]:
    """Per deal: (``spec``'s win share, its mean margin) over the deal's two seats against ``opponent``
    (a deal seen twice from one seat keeps the later game; deals missing a seat are left out)."""
    games: dict[tuple[int, int], tuple[float, float]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                g = json.loads(line)
                if sorted(g["specs"]) != sorted([spec, opponent]) or spec == opponent:
                    continue
                seat = g["specs"].index(spec)
                win = 0.0 if seat not in g["winners"] else 1.0 / len(g["winners"])
                games[(g["deal"], seat)] = (win, float(g["totals"][seat] - g["totals"][1 - seat]))
    out = {}
    for deal in {d for d, _ in games}:
        if (deal, 0) in games and (deal, 1) in games:
            a, b = games[(deal, 0)], games[(deal, 1)]
            out[deal] = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return out


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and Student t 95% interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan"), float("nan")
    half = stats.t.ppf(0.975, len(values) - 1) * statistics.stdev(values) / len(values) ** 0.5
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> int:
    """Print the paired comparison."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opponent", required=True)
    ap.add_argument("--a", required=True)
    ap.add_argument("--a-raw", nargs="+", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--b-raw", nargs="+", required=True)
    args = ap.parse_args(argv)
    a = per_deal(args.a_raw, args.a, args.opponent)
    b = per_deal(args.b_raw, args.b, args.opponent)
    deals = sorted(set(a) & set(b))
    if not deals:
        raise SystemExit("no deal played from both seats by both candidates")
    print(f"{len(deals)} deals ({deals[0]}-{deals[-1]}), both seats each, against `{args.opponent}`")
    print("| | win share per deal [95%] | margin per deal [95%] |")
    print("|---|---|---|")
    for name, data in ((f"A `{args.a}`", a), (f"B `{args.b}`", b)):
        w = interval([data[d][0] for d in deals])
        m = interval([data[d][1] for d in deals])
        print(f"| {name} | {w[0]:.3f} [{w[1]:.3f}, {w[2]:.3f}] | {m[0]:+.2f} [{m[1]:+.2f}, {m[2]:+.2f}] |")
    w = interval([b[d][0] - a[d][0] for d in deals])
    m = interval([b[d][1] - a[d][1] for d in deals])
    print(f"| B − A (paired) | {w[0]:+.3f} [{w[1]:+.3f}, {w[2]:+.3f}] | {m[0]:+.2f} [{m[1]:+.2f}, {m[2]:+.2f}] |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
