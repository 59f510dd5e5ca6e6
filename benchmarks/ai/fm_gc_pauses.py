"""Where a ``farmini-duel:playout=N`` decision's CPU goes past its cap: the garbage collector's pauses.

Plays deal ``--seed`` greedy against greedy (``duel.greedy_take`` + ``duel.finish_turn``) to turn
``--turns``; at every ``--every``-th turn's take it times one decision of
``farmini-duel:time=T,playout=N`` (``time.process_time``) and reports the worlds it rated; every
garbage collection during the run is timed through ``gc.callbacks`` and the pauses over 5 ms are
listed (generation, CPU s). Example (about 6 CPU s)::

    PYTHONPATH=src nice -n 10 python benchmarks/ai/fm_gc_pauses.py --seed 2003
"""

from __future__ import annotations

import argparse
import gc
import time
from typing import Any

import farmtable
from farmtable.games.farmini.duel import DuelAgent, finish_turn, greedy_take
from farmtable.games.farmini.rules import FarminiState


def main() -> None:
    """Run the probe and print the decisions and the long collections."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2003)
    ap.add_argument("--turns", type=int, default=24)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--time", type=float, default=1.0)
    ap.add_argument("--playout", type=int, default=4)
    args = ap.parse_args()
    pauses: list[tuple[int, float]] = []
    began = [0.0]

    def watch(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[0] = time.process_time()
        else:
            pauses.append((int(info["generation"]), time.process_time() - began[0]))

    gc.callbacks.append(watch)
    state = farmtable.get_game("farmini").new_game(players=2, seed=args.seed)
    assert isinstance(state, FarminiState)
    agent = DuelAgent(seed=1, time=args.time, playout=args.playout)
    while not state.is_over() and state.turn < args.turns:
        p = state.current
        if state.pending is None and state.turn % args.every == 0:
            start = time.process_time()
            agent.act(state, p)
            print(f"turn {state.turn:3d}: {time.process_time() - start:.3f} CPU s, {agent.last_worlds} worlds")
        if state.pending is None:
            greedy_take(state, p)
        finish_turn(state, p)
    gc.callbacks.remove(watch)
    long = [(g, round(d, 3)) for g, d in pauses if d > 0.005]
    print(f"{len(pauses)} collections, {sum(1 for g, _ in pauses if g == 2)} of generation 2; over 5 ms: {long}")


if __name__ == "__main__":
    main()
