"""Solo summary of Farmini ``compare.py --raw`` files: median, mean, rulebook tiers, CPU per decision.

Usage: ``python benchmarks/fit/farmini_summary.py FILE.jsonl[@OFFSET],... [SPEC]`` (the file syntax
of ``farmini_paired.py``: halves of one set of deals run as separate processes are joined). Prints
one Markdown row: deals, median, mean with its normal 95% interval, the share at 35+ (won),
30+ (podium), 25+, 20+ (the middle row) and 10+ with Wilson 95% intervals, the maximum, and the
CPU seconds per decision p50 / p99 / max.
"""

from __future__ import annotations

import json
import statistics
import sys

from farmtable.arena.stats import mean_ci, wilson

TIERS = (35, 30, 25, 20, 10)
"""The rulebook's solo rows (normal rules: 35 won, 30 podium, 20 ponies, 10 almost) and 25."""


def load(paths: str, spec: str | None) -> tuple[dict[int, float], list[float]]:
    """Deal -> solo score, and every decision's CPU seconds, of ``A.jsonl[@OFFSET],...``."""
    scores: dict[int, float] = {}
    cpu: list[float] = []
    for item in paths.split(","):
        path, _, offset = item.partition("@")
        shift = int(offset) if offset else 0
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                game = json.loads(line)
                if spec is None or game["specs"][0] == spec:
                    scores[int(game["deal"]) + shift] = float(game["solo_score"])
                    cpu.extend(game["cpu"][0])
    return scores, cpu


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def row(scores: dict[int, float], cpu: list[float]) -> str:
    """The Markdown row of one agent's results."""
    values = list(scores.values())
    n = len(values)
    mean, low, high = mean_ci(values)
    cells = [str(n), f"{statistics.median(values):g}", f"{mean:.2f} [{low:.2f}, {high:.2f}]"]
    for tier in TIERS:
        hits = sum(1 for v in values if v >= tier)
        lo, hi = wilson(hits, n)
        cells.append(f"{hits}/{n}: {hits / n:.1%} [{lo:.1%}, {hi:.1%}]")
    cells.append(f"{max(values):g}")
    cells.append(f"{_quantile(cpu, 0.5):.3f} / {_quantile(cpu, 0.99):.3f} / {max(cpu):.3f}")
    return "| " + " | ".join(cells) + " |"


def main(argv: list[str]) -> int:
    """Print the header and the row."""
    if len(argv) not in (1, 2):
        raise SystemExit(__doc__)
    scores, cpu = load(argv[0], argv[1] if len(argv) == 2 else None)
    if not scores:
        raise SystemExit("no games found")
    head = ["deals", "median", "mean [95%]", *(f"{t}+" for t in TIERS), "max", "CPU s/decision p50 / p99 / max"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    print(row(scores, cpu))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
