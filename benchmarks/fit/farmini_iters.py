"""How many iterations a search gets within its CPU budget on Farmini positions (cheaper evaluation: more).

Plays two-player deals 1000 and 1001 with greedy for 40 decisions; at every fourth decision with a
choice, a fresh agent ``SPEC`` searches the position once; prints the iterations it made (median,
mean, min) and its largest CPU time::

    PYTHONPATH=src nice -n 10 /work/main/.venv/bin/python benchmarks/fit/farmini_iters.py \
        "mcts:iters=800,time=1.0" 2
"""

from __future__ import annotations

import statistics
import sys
import time

import farmtable
import farmtable.agents  # registers the agents
from farmtable.agents.base import make


def main() -> None:
    """Search the positions and print the iteration counts."""
    spec = sys.argv[1] if len(sys.argv) > 1 else "mcts:iters=800,time=1.0"
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    iterations: list[int] = []
    cpu: list[float] = []
    for seed in (1000, 1001):
        state = farmtable.get_game("farmini").new_game(players=players, seed=seed)
        greedy = make("greedy", seed=1)
        for n in range(40):
            if state.is_over():
                break
            p = state.actors()[0]
            if n % 4 == 1 and len(state.legal_actions(p)) > 1:
                agent = make(spec, seed=n)
                began = time.process_time()
                agent.act(state, p)
                cpu.append(time.process_time() - began)
                iterations.append(int(getattr(agent, "last_iterations", 0)))
            state.apply(p, greedy.act(state, p))
    print(
        f"{spec} {players} players: {len(iterations)} decisions, iterations median {statistics.median(iterations)}"
        f" mean {statistics.mean(iterations):.1f} min {min(iterations)}; CPU s max {max(cpu):.3f}"
    )


if __name__ == "__main__":
    main()
