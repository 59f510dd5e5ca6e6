"""Print the markdown tables of benchmarks/README.md from a results file written by run_all.sh.

Usage: .venv/bin/python benchmarks/summarize.py benchmarks/out/results.sqlite
"""

from __future__ import annotations

import sys

from farmtable.arena import ResultStore, solo, stats


def main() -> int:
    """Print the 2-player matchups and the solo tiers as markdown tables."""
    records = ResultStore(sys.argv[1]).records()
    print("| game | agent A | agent B | games | A win rate [95% CI] | A mean score | B mean score | seat 0 win rate |")
    print("|---|---|---|---|---|---|---|---|")
    pairs: dict[tuple[str, frozenset[str]], list] = {}
    for r in records:
        if r.players == 2:
            pairs.setdefault((r.game, frozenset(r.agents)), []).append(r)
    for (game, _), recs in sorted(pairs.items(), key=lambda kv: (kv[0][0], sorted(kv[0][1]))):
        summary = stats.agent_summaries(recs)
        a, b = summary[0], summary[-1]
        seat0 = stats.seat_rates(recs)[0]
        print(
            f"| {game} | `{a.agent}` | `{b.agent}` | {len(recs)} | {a.wins} | {a.score[0]:.1f} | "
            f"{b.score[0]:.1f} | {seat0} |"
        )
    print()
    print("| game | variant | agent | games | median score (p10–p90) | tier (or better): share [95% CI] |")
    print("|---|---|---|---|---|---|")
    solo_runs: dict[tuple[str, tuple[str, ...], str], list] = {}
    for r in records:
        if r.players == 1:
            solo_runs.setdefault((r.game, tuple(r.variants), r.agents[0]), []).append(r)
    for (game, variants, _), recs in sorted(solo_runs.items()):
        summary = solo.summarize(recs)
        q = solo.quantiles(summary.totals, (0.1, 0.5, 0.9))
        tiers = "; ".join(f"{name}: {rate}" for name, rate in summary.tiers)
        print(
            f"| {game} | {'+'.join(variants) or '—'} | `{recs[0].agents[0]}` | {summary.games} | "
            f"{q[1]:g} ({q[0]:g}–{q[2]:g}) | {tiers} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
