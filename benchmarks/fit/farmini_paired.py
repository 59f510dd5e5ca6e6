"""Paired difference of two ``compare.py --raw`` files of the same solo deals (Farmini benchmarks).

Usage: ``python benchmarks/fit/farmini_paired.py BASE OTHER [SPEC_BASE] [SPEC_OTHER]``, where BASE
and OTHER are comma-separated ``FILE.jsonl[@OFFSET]``: a run made with ``--seed 1000+OFFSET`` numbers
its deals from 0, so OFFSET is added to them (``a.jsonl,b.jsonl@100`` joins two halves of 200 deals).
Prints, for the deals both sides hold, each side's median and mean, and the mean of
OTHER − BASE with a Student-t 95% interval (accept a change only when it excludes 0).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from scipy.stats import t

sys.path.insert(0, str(Path(__file__).resolve().parent))
from farmini_summary import load as load_run  # one reader of the raw files


def load(paths: str, spec: str | None) -> dict[int, float]:
    """Deal -> solo score of the games in ``--raw`` files ``A.jsonl[@OFFSET],...`` (of ``spec`` if given)."""
    return load_run(paths, spec)[0]


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
