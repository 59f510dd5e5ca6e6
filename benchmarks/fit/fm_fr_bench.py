"""Solo and two-player measurements of an agent spec on fixed deals, for paired comparisons.

Run it once per code version (``PYTHONPATH`` picks the version) and compare the JSON files with
``fm_fr_compare.py``: game ``i`` uses deal seed ``seed * 10_000 + i`` and agent seed ``i`` in
every run, so two runs are paired deal by deal. CPU seconds per decision (``time.process_time``)
are recorded for every decision of the measured agent.

    PYTHONPATH=src nice -n 10 /work/main/.venv/bin/python benchmarks/fit/fm_fr_bench.py \
        farmini --agent greedy --games 100 --seed 1 --out /tmp/new.json
    # two players, the agent against an opponent spec, seats alternating:
    ... fm_fr_bench.py farmini --agent greedy --opponent random --players 2 --games 100 --out x.json
"""

from __future__ import annotations

import argparse
import json
import time

import farmtable
from farmtable.agents.base import make


def main() -> None:
    """Play the games and write per-game results and per-decision CPU times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--opponent", default=None)
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    game = farmtable.get_game(args.game)
    games = []
    cpu_per_decision: list[float] = []
    for i in range(args.games):
        state = game.new_game(players=args.players, seed=args.seed * 10_000 + i)
        seat = i % args.players  # the measured agent's seat alternates (seat-balanced)
        agents = [
            make(args.agent if p == seat else (args.opponent or args.agent), seed=i * 10 + p)
            for p in range(args.players)
        ]
        while not state.is_over():
            p = state.actors()[0]
            start = time.process_time()
            action = agents[p].act(state, p)
            if p == seat:
                cpu_per_decision.append(time.process_time() - start)
            state.apply(p, action)
        result = state.result()
        games.append(
            {
                "i": i,
                "seat": seat,
                "totals": result.totals,
                "solo_score": result.solo_score if args.players == 1 else None,
                "win": (1.0 / len(result.winners)) if seat in result.winners else 0.0,
            }
        )
        print(i, result.totals, flush=True)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"args": vars(args), "games": games, "cpu_per_decision": cpu_per_decision}, f)


if __name__ == "__main__":
    main()
