"""Where a ``farmini-duel`` take decision's CPU goes: its card rollouts, and the garbage collector's pauses.

Plays deal ``deal`` (game seed) with the spec at seat ``seat`` and the greedy agent at the other,
seeded as ``compare.py`` seeds them, and for every decision of the spec over 0.05 CPU s prints its
CPU seconds (``time.process_time``), the worlds it rated, the longest single card rollout
(``playout.rollout``), the CPU seconds of every garbage collection inside it (``gc.callbacks``),
those of generation 2 listed, and the agent's last measured full collection (``lc``, session 15's
collector reserve). About 25 CPU s a game at ``time=1.0``::

    PYTHONPATH=src nice -n 10 python benchmarks/ai/fm_decision_parts.py 2000 1 "farmini-duel:time=1.0,playout=4"
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path
from typing import Any

import farmtable
import farmtable.agents
from farmtable.games.farmini import playout as fast

sys.path.insert(0, str(Path(__file__).parent))
from compare import warm_up


def main() -> None:
    """Play the deal and print the spec's decisions over 0.05 CPU s with their parts."""
    deal, seat, spec = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    steps: list[float] = []
    pauses: list[tuple[int, float]] = []
    began = [0.0]
    real = fast.rollout

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        out = real(*args, **kwargs)
        steps.append(time.process_time() - start)
        return out

    def watch(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[0] = time.process_time()
        else:
            pauses.append((int(info["generation"]), time.process_time() - began[0]))

    fast.rollout = timed  # type: ignore[assignment]
    gc.callbacks.append(watch)
    state = farmtable.get_game("farmini").new_game(players=2, seed=deal)
    specs = ["greedy", "greedy"]
    specs[seat] = spec
    agents = [farmtable.agents.make(s, seed=deal * 7919 + i, game="farmini", players=2) for i, s in enumerate(specs)]
    warm_up(state)
    while not state.is_over():
        p = state.actors()[0]
        steps.clear()
        pauses.clear()
        start = time.process_time()
        action = agents[p].act(state, p)
        spent = time.process_time() - start
        if p == seat and spent > 0.05:
            agent = agents[p]
            print(
                f"turn {state.turn:2d} {spent:.3f} worlds={getattr(agent, 'last_worlds', 0)} rollouts={len(steps)} "
                f"max rollout={max(steps, default=0):.3f} gc={sum(d for _, d in pauses):.3f} "
                f"gen2={[round(d, 3) for g, d in pauses if g == 2]} lc={getattr(agent, 'last_collect', None)}",
                flush=True,
            )
        state.apply(p, action)


if __name__ == "__main__":
    main()
