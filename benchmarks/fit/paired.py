"""Paired comparison of two solo benchmark runs on the same deals (``farmtable solo ... --db FILE``).

Usage::

    .venv/bin/python benchmarks/fit/paired.py BEFORE.sqlite AFTER.sqlite

Games are matched by ``game_index`` and the deal seed (the same ``--seed`` gives the same deals).
Prints, for each run, the solo objective (Farmers Finances: turns, lower is better; Tiny Farms:
the margin over Emma and the win share) with 95% intervals (Wilson for shares), the paired
difference AFTER − BEFORE with a normal 95% interval, and the seconds per decision (p50, p99 of
the per-game means) as the arena records them: WALL time, so only a rough guide on a shared machine.
"""

from __future__ import annotations

import json
import math
import sqlite3
import statistics
import sys
from typing import Any


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a share."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def load(path: str) -> dict[tuple[int, int], dict[str, Any]]:
    """The games of a run, keyed by (game index, deal seed)."""
    with sqlite3.connect(path) as db:
        rows = db.execute("select game_index, seed, game, totals, details, decisions, seconds from games").fetchall()
    games: dict[tuple[int, int], dict[str, Any]] = {}
    for index, seed, game, totals, details, decisions, seconds in rows:
        info = json.loads(details)
        record: dict[str, Any] = {"game": game, "per_decision": seconds / max(decisions, 1)}
        if game == "farmers-finances":
            record["value"] = float(info["turns"])
            record["win"] = None
        elif "emma_total" in info:
            record["value"] = float(json.loads(totals)[0] - info["emma_total"])
            record["win"] = 1.0 if info["outcome"] == "win" else 0.5 if info["outcome"] == "tie" else 0.0
        else:  # any other solo game: the score
            record["value"] = float(json.loads(totals)[0])
            record["win"] = None
        games[(index, seed)] = record
    return games


def describe(name: str, records: list[dict[str, Any]]) -> None:
    """One run: mean objective, win share, CPU per decision."""
    values = [r["value"] for r in records]
    n = len(values)
    mean, half = statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(n)
    label = "turns" if records[0]["game"] == "farmers-finances" else "margin"
    text = f"{name}: n={n} mean {label} {mean:.2f} [{mean - half:.2f}, {mean + half:.2f}]"
    if records[0]["win"] is not None:
        wins = sum(r["win"] for r in records)
        low, high = wilson(wins, n)
        text += f"  wins {wins / n:.1%} [{low:.1%}, {high:.1%}]"
    else:
        for k in (15, 20):
            hits = sum(v <= k for v in values)
            low, high = wilson(hits, n)
            text += f"  <={k}: {hits / n:.1%} [{low:.1%}, {high:.1%}]"
    cpu = sorted(r["per_decision"] for r in records)
    text += f"  wall s/decision p50 {cpu[n // 2]:.4f} p99 {cpu[min(n - 1, int(n * 0.99))]:.4f}"
    print(text)


def main() -> None:
    """Compare two runs."""
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    before, after = load(sys.argv[1]), load(sys.argv[2])
    keys = sorted(set(before) & set(after))
    if not keys:
        raise SystemExit("the two runs share no deals: use the same --seed and game count")
    describe("before", [before[k] for k in keys])
    describe("after ", [after[k] for k in keys])
    diffs = [after[k]["value"] - before[k]["value"] for k in keys]
    mean, half = statistics.fmean(diffs), 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    print(f"paired after - before: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] over {len(keys)} deals")
    if before[keys[0]]["win"] is not None:
        win_diffs = [after[k]["win"] - before[k]["win"] for k in keys]
        mean, half = statistics.fmean(win_diffs), 1.96 * statistics.stdev(win_diffs) / math.sqrt(len(win_diffs))
        print(f"paired win share after - before: {mean:+.1%} [{mean - half:+.1%}, {mean + half:+.1%}]")


if __name__ == "__main__":
    main()
