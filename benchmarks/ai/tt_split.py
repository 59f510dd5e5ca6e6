"""Tiny Towns solo: agents that differ only once the deck order is known, paired on a shared opening.

The rollout player's ``polish`` changes nothing before every card of the deck has been seen (the
first 12 card picks); after that the game is deterministic. Played as two separate games, the two
players' openings differ by the CPU timing of their time-budgeted early searches, which adds a
large noise (the same spec scores 27 and 20 on one deal in two runs). Here each deal's opening is
played **once**, by the first spec (``--opening``, the shipped Expert by default), up to the first
card pick with the deck order known; from that position each agent plays the rest, with its own
CPU clock. A game's score is the whole game's (opening + rest): the opening is the first spec's own
play, so each agent's game is one it could have played.

Writes one JSON line a deal (``--raw``): deal, the split round, and per agent the score and the CPU
seconds of every decision (opening decisions + the agent's own); ``--summary`` prints the paired
table (``tt_paired.py``'s columns) from one or more raw files::

    PYTHONPATH=src nice -n 10 python benchmarks/ai/tt_split.py --deals 40 --seed 3000 \\
        --agents "tiny-towns-rollout:time=1.0,k=6,worlds=2" "tiny-towns-rollout:time=1.0,k=6,worlds=2,polish=0.3" \\
        --raw benchmarks/ai/out/s8/tt-split-40.jsonl
    PYTHONPATH=src python benchmarks/ai/tt_split.py --summary benchmarks/ai/out/s8/tt-split-40.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import cpu_line, paired_ci

import farmtable
import farmtable.agents
from farmtable.arena.stats import mean_ci, wilson

GAME = "tiny-towns"


def split_deal(deal: int, opening: str, agents: list[str]) -> dict[str, Any]:
    """Play deal ``deal`` (game seed ``deal``; agents seeded ``deal * 7919`` as ``compare.py``) with
    ``opening`` up to the first card pick with the deck order known, then each agent to the end."""
    game = farmtable.get_game(GAME)
    state = game.new_game(players=1, seed=deal)
    seed = deal * 7919
    first = farmtable.agents.make(opening, seed=seed, game=GAME, players=1)
    opening_cpu: list[float] = []
    while not state.is_over() and (state.unknown > 0 or state.phase != "name"):  # type: ignore[attr-defined]
        start = time.process_time()
        action = first.act(state, 0)
        opening_cpu.append(time.process_time() - start)
        state.apply(0, action)
    out: dict[str, Any] = {"deal": deal, "split_round": state.round, "opening": opening, "agents": {}}  # type: ignore[attr-defined]
    for spec in agents:
        agent = farmtable.agents.make(spec, seed=seed, game=GAME, players=1)
        copy = state.clone()
        cpu = list(opening_cpu)
        while not copy.is_over():
            start = time.process_time()
            action = agent.act(copy, 0)
            cpu.append(time.process_time() - start)
            copy.apply(0, action)
        result = copy.result()
        out["agents"][spec] = {
            "solo_score": int(result.solo_score),
            "cpu": cpu,
            "grid": list(copy.towns[0].grid),  # type: ignore[attr-defined]
            "details": dict(result.details),
        }
    return out


def summary(paths: list[str], base: str | None) -> None:
    """Print each agent's table row and the paired differences against ``base`` (the first agent)."""
    deals: dict[int, dict[str, Any]] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                deals[int(row["deal"])] = row
    if not deals:
        raise SystemExit("no deal in the raw files")
    agents = list(next(iter(deals.values()))["agents"])
    keys = sorted(d for d, row in deals.items() if all(a in row["agents"] for a in agents))
    print(
        f"{len(keys)} deals ({keys[0]}..{keys[-1]}), split at rounds {min(deals[d]['split_round'] for d in keys)}"
        f"..{max(deals[d]['split_round'] for d in keys)}\n"
    )
    print("| agent | mean [95%] | >= 25 [Wilson 95%] | >= 38 | max | CPU s/decision p50 / p99 / max | CPU s/game |")
    print("|---|---|---|---|---|---|---|")
    scores = {a: [float(deals[d]["agents"][a]["solo_score"]) for d in keys] for a in agents}
    for a in agents:
        s = scores[a]
        m, lo, hi = mean_ci(s)
        hits = sum(1 for x in s if x >= 25)
        wl, wh = wilson(hits, len(s))
        cpu = [c for d in keys for c in deals[d]["agents"][a]["cpu"]]
        print(
            f"| `{a}` | {m:.2f} [{lo:.2f}, {hi:.2f}] | {hits}/{len(s)} = {100 * hits / len(s):.1f}% "
            f"[{100 * wl:.1f}, {100 * wh:.1f}] | {sum(1 for x in s if x >= 38)} | {max(s):.0f} | "
            f"{cpu_line(cpu)} | {sum(cpu) / len(keys):.1f} |"
        )
    first = base or agents[0]
    print()
    for a in agents:
        if a != first:
            diff = [x - y for x, y in zip(scores[a], scores[first], strict=True)]
            m, lo, hi = paired_ci(diff)
            better = sum(1 for x in diff if x > 0)
            worse = sum(1 for x in diff if x < 0)
            print(
                f"{a} - {first}: {m:+.2f} [{lo:+.2f}, {hi:+.2f}] (paired, t 95%, {len(diff)} deals; "
                f"better on {better}, worse on {worse})"
            )
    for a in agents:
        print(a, [int(x) for x in scores[a]])


def main() -> None:
    """Play the deals (``--raw``) or summarise raw files (``--summary``)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=3000, help="first deal (game seed)")
    ap.add_argument("--agents", nargs="+", help="specs; each plays the rest of every deal")
    ap.add_argument("--opening", default="tiny-towns-rollout:time=1.0,k=6,worlds=2", help="who plays the opening")
    ap.add_argument("--raw", help="append one JSON line a deal here")
    ap.add_argument("--summary", nargs="+", help="raw files to summarise instead of playing")
    args = ap.parse_args()
    if args.summary:
        summary(args.summary, None)
        return
    if not args.agents or not args.raw:
        raise SystemExit("give --agents and --raw (or --summary FILES)")
    for spec in [args.opening, *args.agents]:
        farmtable.agents.make(spec, seed=0, game=GAME, players=1)  # a bad spec fails before any game
    with Path(args.raw).open("a") as out:
        for deal in range(args.seed, args.seed + args.deals):
            row = split_deal(deal, args.opening, args.agents)
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(deal, row["split_round"], *(r["solo_score"] for r in row["agents"].values()), flush=True)


if __name__ == "__main__":
    main()
