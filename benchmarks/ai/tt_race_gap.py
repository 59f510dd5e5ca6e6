"""Tiny Towns with 2 players: who wins by how many rounds apart the two towns were completed (session 15).

No game is played: every 2-player Tiny Towns game in the ``compare.py --raw`` files given (a game is
recognised by its ``master_builder_turns`` and two ``completed_round`` entries) is read, and for each gap
(rounds between the two completions) the games the town complete last won, the games the town complete
first won, ties, and the two towns' mean scores.

    python benchmarks/ai/tt_race_gap.py $(find benchmarks/ai/out -name '*.jsonl')
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict


def main() -> None:
    """Print the table of the raw files given."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", nargs="+")
    args = ap.parse_args()
    by_gap: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
    level = 0
    seen: set[str] = set()
    for path in args.raw:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if not line.strip() or line in seen:
                    continue
                seen.add(line)  # a game copied into two files counts once
                game = json.loads(line)
                d = game.get("details", {})
                done = d.get("completed_round")
                if "master_builder_turns" not in d or not done or len(done) != 2 or None in done:
                    continue
                if done[0] == done[1]:
                    level += 1
                    continue
                last = 0 if done[0] > done[1] else 1
                winners = game["winners"]
                who = "tie" if len(winners) > 1 else "last" if winners == [last] else "first"
                by_gap[abs(done[0] - done[1])].append((who, game["totals"][last], game["totals"][1 - last]))
    print(f"games with both towns complete in the same round: {level}")
    print("| rounds apart | games | last won | first won | tie | score last | score first |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    groups = [(1, 1), (2, 2), (3, 3), (4, 6), (7, 10), (11, 99)]
    for lo, hi in groups:
        rows = [r for g in range(lo, hi + 1) for r in by_gap.get(g, [])]
        if not rows:
            continue
        label = str(lo) if lo == hi else f"{lo}-{hi}" if hi < 99 else f"{lo}+"
        count = {k: sum(1 for r in rows if r[0] == k) for k in ("last", "first", "tie")}
        print(
            f"| {label} | {len(rows)} | {count['last']} | {count['first']} | {count['tie']} "
            f"| {statistics.fmean(r[1] for r in rows):.2f} | {statistics.fmean(r[2] for r in rows):.2f} |"
        )


if __name__ == "__main__":
    main()
