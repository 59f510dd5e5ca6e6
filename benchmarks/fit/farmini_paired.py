"""Paired difference of two ``compare.py --raw`` files of the same solo deals (Farmini benchmarks).

Usage: ``python benchmarks/fit/farmini_paired.py BASE OTHER [SPEC_BASE] [SPEC_OTHER]``, where BASE
and OTHER are comma-separated ``FILE.jsonl[@OFFSET]``: a run made with ``--seed 1000+OFFSET`` numbers
its deals from 0, so OFFSET is added to them (``a.jsonl,b.jsonl@100`` joins two halves of 200 deals).
Prints, for the deals both sides hold, each side's median and mean, and the mean of
OTHER − BASE with a Student-t 95% interval (accept a change only when it excludes 0).
"""

from __future__ import annotations

import json
import statistics
import sys

from scipy.stats import t


def load(paths: str, spec: str | None) -> dict[int, float]:
    """Deal -> solo score of the games in ``--raw`` files ``A.jsonl[@OFFSET],...`` (of ``spec`` if given)."""
    scores: dict[int, float] = {}
    for item in paths.split(","):
        path, _, offset = item.partition("@")
        shift = int(offset) if offset else 0
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                game = json.loads(line)
                if spec is None or game["specs"][0] == spec:
                    scores[int(game["deal"]) + shift] = float(game["solo_score"])
    return scores


def main(argv: list[str]) -> int:
    """Print the paired comparison of two raw files."""
    if len(argv) not in (2, 4):
        raise SystemExit(__doc__)
    base = load(argv[0], argv[2] if len(argv) == 4 else None)
    other = load(argv[1], argv[3] if len(argv) == 4 else None)
    deals = sorted(set(base) & set(other))
    if len(deals) < 2:
        raise SystemExit("fewer than two common deals")
    diff = [other[d] - base[d] for d in deals]
    mean = statistics.fmean(diff)
    half = float(t.ppf(0.975, len(diff) - 1)) * statistics.stdev(diff) / len(diff) ** 0.5
    for name, side in (("base", base), ("other", other)):
        values = [side[d] for d in deals]
        print(f"{name}: median {statistics.median(values):g}, mean {statistics.fmean(values):.2f}")
    print(f"paired other - base over {len(deals)} deals: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
