"""Paired comparison of two candidates that each played the same opponent on the same 2-player deals.

Reads two ``compare.py --players 2 --raw`` files (candidate X against B, candidate Y against the same
B, the same ``--seed``), keeps the deals both played from both seats, and reports per deal the
difference Y − X of the candidate's mean margin over the two seatings and of its win share (a tie
counts half), with normal 95% intervals (``farmtable.arena.stats.mean_ci``): accept Y over X only
when the interval excludes 0. Optional ``--first``/``--last`` keep a range of game seeds.

    PYTHONPATH=src python benchmarks/ai/fr_paired.py X.jsonl Y.jsonl --opponent greedy
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

from farmtable.arena.stats import mean_ci


def per_deal(path: str, opponent: str) -> dict[int, tuple[float, float]]:
    """Deal -> (the candidate's mean margin, its win share) over the deal's two seatings."""
    games: dict[int, list[tuple[float, float]]] = defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            game = json.loads(line)
            specs = game["specs"]
            mine = 1 if specs[0] == opponent else 0
            if specs[1 - mine] != opponent:
                raise ValueError(f"{path}: a game without the opponent {opponent!r}: {specs}")
            totals, winners = game["totals"], game["winners"]
            share = (1.0 / len(winners)) if mine in winners else 0.0
            games[int(game["deal"])].append((totals[mine] - totals[1 - mine], share))
    out: dict[int, tuple[float, float]] = {}
    for deal, rows in games.items():
        if len(rows) == 2:
            out[deal] = (sum(r[0] for r in rows) / 2, sum(r[1] for r in rows) / 2)
    return out


def main() -> None:
    """Print the paired differences Y − X."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("x")
    ap.add_argument("y")
    ap.add_argument("--opponent", required=True, help="the spec both candidates played against")
    ap.add_argument("--first", type=int, default=None, help="first game seed kept")
    ap.add_argument("--last", type=int, default=None, help="last game seed kept")
    args = ap.parse_args()
    x, y = per_deal(args.x, args.opponent), per_deal(args.y, args.opponent)
    deals = sorted(
        d for d in set(x) & set(y) if (args.first is None or d >= args.first) and (args.last is None or d <= args.last)
    )
    if not deals:
        raise SystemExit("no deal played from both seats in both files")
    margin = mean_ci([y[d][0] - x[d][0] for d in deals])
    share = mean_ci([y[d][1] - x[d][1] for d in deals])
    xs, ys = mean_ci([x[d][1] for d in deals]), mean_ci([y[d][1] for d in deals])
    print(f"{len(deals)} deals ({deals[0]}–{deals[-1]}), each from both seats, against {args.opponent}")
    print(f"X win share {xs[0]:.3f}, Y win share {ys[0]:.3f}")
    print(f"Y − X margin per deal {margin[0]:+.2f} [{margin[1]:+.2f}, {margin[2]:+.2f}]")
    print(f"Y − X win share per deal {share[0]:+.3f} [{share[1]:+.3f}, {share[2]:+.3f}]")


if __name__ == "__main__":
    main()
