"""Pair solo Tiny Farms runs of ``benchmarks/ai/compare.py --raw`` made in chunks (the expectimax player's tables).

Usage (``benchmarks/fit`` on ``PYTHONPATH`` or run from the repository root)::

    python benchmarks/fit/tiny_farms_expectimax.py \\
        expectimax=/tmp/tf7/x_k4_hard_1000_8.jsonl,/tmp/tf7/x_k4_hard_1008_32.jsonl \\
        easy=/tmp/tf6/br_greedy_hard.jsonl normal=/tmp/tf6/br_normal_hard.jsonl

The first run is paired with each of the others on the deals both played (deal = game seed): for
each, the deals, the win share (a tie counts half; Wilson 95%), the mean margin over Emma (Student t
95%), CPU s/decision p50 / p99 / max of the first run, and the paired differences first − other of
the margin and of the win (Student t 95% over the deals). A run is ``NAME=FILE[,FILE...]``: chunks of
one agent's games (later files win on a repeated deal).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tiny_farms import _student_ci, _wilson


def load(files: str) -> dict[int, dict[str, Any]]:
    """The games of one agent from comma-separated ``--raw`` files, keyed by deal."""
    games: dict[int, dict[str, Any]] = {}
    for name in files.split(","):
        with open(name, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    game = json.loads(line)
                    games[game["deal"]] = game
    return games


def won(game: dict[str, Any]) -> float:
    """1 for a win, 0.5 for a tie, 0 for a loss (the rules' own outcome, milk breaks ties)."""
    return {"win": 1.0, "tie": 0.5}.get(game["details"]["outcome"], 0.0)


def summary(games: list[dict[str, Any]]) -> str:
    """Deals, wins [Wilson], margin [Student t], CPU s/decision p50 / p99 / max of one run."""
    wins = sum(won(g) for g in games)
    low, high = _wilson(wins, len(games))
    mean, mlow, mhigh = _student_ci([float(g["solo_score"]) for g in games])
    cpu = sorted(x for g in games for x in g["cpu"][0])
    p99 = cpu[min(len(cpu) - 1, int(0.99 * len(cpu)))]
    return (
        f"{len(games)} deals, wins {wins / len(games):.1%} [{low:.1%}, {high:.1%}], "
        f"margin {mean:+.2f} [{mlow:+.2f}, {mhigh:+.2f}], CPU s/decision p50 {cpu[len(cpu) // 2]:.3f} "
        f"p99 {p99:.3f} max {cpu[-1]:.3f}"
    )


def main(argv: list[str]) -> int:
    """Print the first run against each of the others, paired on the deals they share."""
    if len(argv) < 2 or any("=" not in a for a in argv):
        print(__doc__)
        return 2
    runs = [(a.split("=", 1)[0], load(a.split("=", 1)[1])) for a in argv]
    name, first = runs[0]
    print(f"{name}: {summary(list(first.values()))}")
    for other_name, other in runs[1:]:
        deals = sorted(set(first) & set(other))
        if not deals:
            print(f"{other_name}: no deal in common")
            continue
        margin = _student_ci([float(first[d]["solo_score"] - other[d]["solo_score"]) for d in deals])
        wins = _student_ci([100 * (won(first[d]) - won(other[d])) for d in deals])
        print(
            f"  {other_name} on the same deals: {summary([other[d] for d in deals])}\n"
            f"    paired {name} - {other_name}: margin {margin[0]:+.2f} [{margin[1]:+.2f}, {margin[2]:+.2f}], "
            f"wins {wins[0]:+.1f} [{wins[1]:+.1f}, {wins[2]:+.1f}] points"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
