"""Paired comparison of two players against the same opponent on the same 2-player deals.

Each raw file (``compare.py --raw``) holds seat-balanced games of one candidate against one opponent.
Per deal, a candidate's score is its win share over the two seats (a shared win counts half); the
paired difference is candidate A's score minus candidate B's on the deals both played from both
seats, with its mean and Student-t 95% interval (accept A over B only when the interval excludes 0).

    PYTHONPATH=src python benchmarks/ai/ff_paired.py NEW.jsonl OLD.jsonl --opponent "mcts:iters=200,time=0.5"
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from pathlib import Path

from scipy import stats


def deal_scores(path: Path, opponent: str) -> dict[int, float]:
    """Per deal: the non-opponent seat's win share over both seats (deals played from both seats only)."""
    shares: dict[int, list[float]] = defaultdict(list)
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        game = json.loads(line)
        specs = game["specs"]
        seat = 1 if specs[0] == opponent else 0
        winners = game["winners"]
        shares[game["deal"]].append(1.0 / len(winners) if seat in winners else 0.0)
    return {deal: sum(s) / 2 for deal, s in shares.items() if len(s) == 2}


def main() -> None:
    """Print both players' win shares on the common deals and the paired difference."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("new", type=Path)
    ap.add_argument("old", type=Path)
    ap.add_argument("--opponent", required=True, help="the opponent's spec as written in the raw files")
    args = ap.parse_args()
    new, old = deal_scores(args.new, args.opponent), deal_scores(args.old, args.opponent)
    common = sorted(set(new) & set(old))
    if len(common) < 2:
        raise SystemExit("fewer than 2 deals in common")
    diffs = [new[d] - old[d] for d in common]
    mean = statistics.fmean(diffs)
    half = stats.t.ppf(0.975, len(diffs) - 1) * statistics.stdev(diffs) / len(diffs) ** 0.5
    print(f"deals in common: {len(common)} ({common[0]}-{common[-1]})")
    shares = [statistics.fmean(side[d] for d in common) for side in (new, old)]
    print(f"new: {shares[0]:.3f} win share; old: {shares[1]:.3f}")
    print(f"paired difference (new - old) per deal: {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]")


if __name__ == "__main__":
    main()
