"""Tiny Towns solo: summarise ``compare.py --raw`` files, partial runs included, paired on the deals
every listed agent finished.

``compare.py --from-raw`` needs every agent to have played the same number of deals; this reads any
number of raw files (runs cut short, runs of one agent each on the same ``--seed``), keeps the deals
all the agents played, and prints per agent: mean [95%], share >= 25 (Wilson 95%), >= 38, max,
CPU s per decision p50 / p99 / max and per game; then each agent's paired difference against the first
(Student t 95%)::

    PYTHONPATH=src python benchmarks/ai/tt_paired.py benchmarks/ai/out/s7/tt-rollout-20.jsonl \
        --agents greedy "tiny-towns-rollout:time=1.0"
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import cpu_line, paired_ci

from farmtable.arena.stats import mean_ci, wilson


def load(paths: list[str]) -> dict[str, dict[int, dict[str, object]]]:
    """Games by agent spec, then by deal (a deal seen twice: the last one kept)."""
    games: dict[str, dict[int, dict[str, object]]] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.strip():
                game = json.loads(line)
                games.setdefault(game["specs"][0], {})[int(game["deal"])] = game
    return games


def main() -> None:
    """Print the paired summary."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("raw", nargs="+", help="compare.py --raw files (solo Tiny Towns)")
    ap.add_argument("--agents", nargs="+", required=True, help="specs as in the raw files; the first is the base")
    ap.add_argument("--scores", action="store_true", help="print every deal's scores")
    args = ap.parse_args()
    games = load(args.raw)
    missing = [a for a in args.agents if a not in games]
    if missing:
        raise SystemExit(f"no games of {', '.join(missing)}; the raw files hold: {', '.join(sorted(games))}")
    deals = sorted(set.intersection(*(set(games[a]) for a in args.agents)))
    if not deals:
        raise SystemExit("no deal was played by every agent")
    print(f"{len(deals)} deals played by every agent ({deals[0]}..{deals[-1]})\n")
    print(
        "| agent | mean [95%] | >= 25 [Wilson 95%] | >= 38 | max | CPU s/decision p50 / p99 / max "
        "| p50 of decisions over 10 ms (count/game) | CPU s/game |"
    )
    print("|---|---|---|---|---|---|---|---|")
    scores = {a: [float(games[a][d]["solo_score"]) for d in deals] for a in args.agents}  # type: ignore[arg-type]
    for a in args.agents:
        s = scores[a]
        m, lo, hi = mean_ci(s)
        hits = sum(1 for x in s if x >= 25)
        wl, wh = wilson(hits, len(s))
        cpu = [c for d in deals for c in games[a][d]["cpu"][0]]  # type: ignore[index]
        per_game = sum(cpu) / len(deals)
        slow = sorted(c for c in cpu if c > 0.01)
        slow_p50 = f"{slow[len(slow) // 2]:.3f} ({len(slow) / len(deals):.0f})" if slow else "-"
        print(
            f"| `{a}` | {m:.2f} [{lo:.2f}, {hi:.2f}] | {hits}/{len(s)} = {100 * hits / len(s):.1f}% "
            f"[{100 * wl:.1f}, {100 * wh:.1f}] | {sum(1 for x in s if x >= 38)} | {max(s):.0f} | "
            f"{cpu_line(cpu)} | {slow_p50} | {per_game:.1f} |"
        )
    base = args.agents[0]
    print()
    for a in args.agents[1:]:
        diff = [x - y for x, y in zip(scores[a], scores[base], strict=True)]
        m, lo, hi = paired_ci(diff)
        print(f"{a} - {base}: {m:+.2f} [{lo:+.2f}, {hi:+.2f}] (paired, t 95%, {len(diff)} deals)")
    if args.scores:
        for a in args.agents:
            print(a, [int(x) for x in scores[a]])


if __name__ == "__main__":
    main()
