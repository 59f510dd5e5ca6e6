"""Can the search tell the moves apart? Search one position with several seeds and count the choices.

The issue's symptom: eight searches of one Tiny Towns position with different seeds chose 5–7
different squares. A search whose value signal separates the moves picks the same move (or one
of very few) whatever its seed.

Example::

    PYTHONPATH=src python benchmarks/ai/stability.py --game tiny-towns --players 1 --steps 12 \\
        --agents "ismcts:iters=200,depth=5" "mcts:iters=200" --seeds 8
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from typing import Any

import farmtable
import farmtable.agents
from farmtable.core import State


def position(game_id: str, players: int, seed: int, steps: int) -> State[Any]:
    """The position after ``steps`` random decisions of deal ``seed``, at a decision with a real choice."""
    state = farmtable.get_game(game_id).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    done = 0
    while not state.is_over():
        p = state.actors()[0]
        legal = state.legal_actions(p)
        if done >= steps and len(legal) > 2:
            return state
        state.apply(p, rng.choice(legal))
        done += 1
    raise ValueError(f"{game_id} deal {seed} ended before a choice after {steps} decisions")


def main(argv: list[str] | None = None) -> int:
    """Print, per agent and position, how many different moves the seeded searches chose."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", required=True)
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--steps", type=int, nargs="+", default=[12])
    ap.add_argument("--deal", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--agents", nargs="+", required=True)
    args = ap.parse_args(argv)
    print("| position | legal moves | agent | distinct choices over seeds | most chosen (times) |")
    print("|---|---:|---|---:|---|")
    for steps in args.steps:
        state = position(args.game, args.players, args.deal, steps)
        p = state.actors()[0]
        for spec in args.agents:
            picks = Counter(str(farmtable.agents.make(spec, seed=s).act(state, p)) for s in range(args.seeds))
            top, times = picks.most_common(1)[0]
            where = f"{args.game} deal {args.deal} after {steps}"
            print(f"| {where} | {len(state.legal_actions(p))} | `{spec}` | {len(picks)} | `{top}` ({times}) |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
