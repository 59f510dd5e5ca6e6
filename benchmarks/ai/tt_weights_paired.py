"""Tiny Towns solo: greedy (Easy) with several weights files, paired on the same deals.

The cheap test of a new evaluation (a greedy game costs about 0.2 CPU s): each weights file's solo
model plays the same deals (game seeds ``--seed`` + i, greedy seeded by i, as
``tt_greedy_variants.py``) and is compared deal by deal with the first file (Student t 95%)::

    PYTHONPATH=src python benchmarks/ai/tt_weights_paired.py src/farmtable/games/tiny_towns/weights.json \
        /tmp/fit_it2.json --deals 100 --seed 3000

``--scores FILE`` writes every file's scores by deal as JSON (for later pairing).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from tt_greedy_variants import play

from farmtable.arena.stats import wilson


def t_interval(diff: list[float]) -> tuple[float, float, float]:
    """Mean of ``diff`` and its Student t 95% interval."""
    from scipy.stats import t

    mean = statistics.mean(diff)
    if len(diff) < 2 or not any(d != diff[0] for d in diff):
        return mean, mean, mean
    half = float(t.ppf(0.975, len(diff) - 1)) * statistics.stdev(diff) / len(diff) ** 0.5
    return mean, mean - half, mean + half


def main() -> None:
    """Play every weights file's solo model with greedy on the deals; print the paired summary."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("weights", nargs="+", help="weights files (evaluation.FEATURES layout); the first is the base")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=3000)
    ap.add_argument("--model", default="solo", help="the model of each file to play (default: solo)")
    ap.add_argument("--scores", help="write the scores by file as JSON here")
    args = ap.parse_args()
    results: dict[str, list[int]] = {}
    base: list[int] = []
    for path in args.weights:
        weights = json.loads(Path(path).read_text())["weights"][args.model]
        start = time.process_time()
        scores = play(weights, args.seed, args.deals)
        cpu = time.process_time() - start
        results[path] = scores
        base = base or scores
        mean, low, high = t_interval([a - b for a, b in zip(scores, base, strict=True)])
        hits = sum(s >= 25 for s in scores)
        w_low, w_high = wilson(hits, len(scores))
        print(
            f"{path}: {len(scores)} deals from {args.seed}, mean {statistics.mean(scores):.2f}, "
            f">= 25 {hits} [{100 * w_low:.1f}, {100 * w_high:.1f}]%, max {max(scores)}, "
            f"- first {mean:+.2f} [{low:+.2f}, {high:+.2f}], {cpu:.0f} CPU s",
            flush=True,
        )
    if args.scores:
        Path(args.scores).write_text(json.dumps({"seed": args.seed, "deals": args.deals, "scores": results}) + "\n")


if __name__ == "__main__":
    main()
