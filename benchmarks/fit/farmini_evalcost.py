"""CPU cost of the Farmini ``evaluate()`` inside a search, per kind of position.

Plays ``--games`` seeded solo or two-player games in which every decision is made by the agent
``--agent`` (default ``mcts:iters=50``, the Normal level's iterations without its clock), times
every ``evaluate()`` call the search makes (CPU seconds, ``time.process_time``) and prints
p50 / p99 / max per kind of position: no card in hand, a fence card in hand, an animal card in
hand. ``--decisions`` bounds the decisions per game (the cost grows with the farm)::

    PYTHONPATH=src nice -n 10 /work/main/.venv/bin/python benchmarks/fit/farmini_evalcost.py \\
        --games 2 --decisions 40
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

import farmtable
import farmtable.agents
from farmtable.agents.base import make
from farmtable.games.farmini import evaluation
from farmtable.games.farmini.components import ALL_CARDS, FenceCard
from farmtable.games.farmini.rules import FarminiState


def _kind(state: FarminiState) -> str:
    if state.pending is None:
        return "no card in hand"
    return "fence card in hand" if isinstance(ALL_CARDS[state.pending], FenceCard) else "animal card in hand"


def measure(games: int, decisions: int, players: int, spec: str, seed: int) -> dict[str, list[float]]:
    """CPU seconds of every ``evaluate()`` call, by kind of position, over the searched games."""
    times: dict[str, list[float]] = {}
    original: Callable[[FarminiState], list[float]] = evaluation.evaluate

    def timed(state: FarminiState) -> list[float]:
        began = time.process_time()
        values = original(state)
        times.setdefault(_kind(state), []).append(time.process_time() - began)
        return values

    evaluation.evaluate = timed
    try:
        for g in range(games):
            state = farmtable.get_game("farmini").new_game(players=players, seed=seed + g)
            agents = [make(spec, seed=seed + g + 17 * p) for p in range(players)]
            for _ in range(decisions):
                if state.is_over():
                    break
                p = state.actors()[0]
                state.apply(p, agents[p].act(state, p))
    finally:
        evaluation.evaluate = original  # type: ignore[assignment]
    return times


def main() -> None:
    """Print the evaluate() cost per kind of position."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--decisions", type=int, default=40)
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--agent", default="mcts:iters=50")
    args = ap.parse_args()
    times = measure(args.games, args.decisions, args.players, args.agent, args.seed)
    every = [t for ts in times.values() for t in ts]
    for name, ts in [*sorted(times.items()), ("all", every)]:
        ms = np.array(ts) * 1e3
        print(
            f"{name:22s} calls {len(ms):6d}  mean {ms.mean():7.3f} ms  p50 {np.percentile(ms, 50):7.3f}"
            f"  p99 {np.percentile(ms, 99):7.3f}  max {ms.max():7.3f}  total {ms.sum() / 1e3:6.2f} s"
        )


if __name__ == "__main__":
    main()
