"""Farmerama, two players: seat-balanced duels where each agent judges positions with its own estimate.

``evaluation.estimate`` with several players is chosen by ``evaluation.MULTI_ESTIMATE``
(``plan``: the planner's board value; ``hand``: the older hand rule). This script gives each agent
its own choice (the global is set around each of its decisions), so two evaluations can meet in one
process, and the baseline can keep the evaluation it was measured with. Each deal (game seed
``seed + i``) is played twice with the seats swapped. Prints A's win share (a shared win counts
half) with its Wilson interval, the paired per-deal score margin with a 95% t interval, and each
agent's CPU seconds per decision (p50 / p99 / max, ``time.process_time``).

    PYTHONPATH=src nice -n 10 python benchmarks/fit/farmerama_duel.py --deals 10 \\
        --a "mcts:iters=100,time=0.2@plan" --b "ismcts:iters=200,depth=5@hand"
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import farmtable
import farmtable.agents
from farmtable.arena.stats import mean_ci, wilson
from farmtable.games.farmerama import evaluation


class WithEstimate:
    """An agent that decides with ``evaluation.MULTI_ESTIMATE`` set to ``estimate``."""

    def __init__(self, spec: str, estimate: str, seed: int) -> None:
        if estimate not in ("plan", "hand"):
            raise ValueError(f"estimate must be 'plan' or 'hand', got {estimate!r}")
        self.agent = farmtable.agents.make(spec, seed=seed)
        self.estimate = estimate
        self.cpu: list[float] = []

    def act(self, state: Any, player: int) -> Any:
        """The wrapped agent's action, decided under this agent's estimate (CPU time recorded)."""
        saved = evaluation.MULTI_ESTIMATE
        evaluation.MULTI_ESTIMATE = self.estimate
        start = time.process_time()
        try:
            return self.agent.act(state, player)
        finally:
            self.cpu.append(time.process_time() - start)
            evaluation.MULTI_ESTIMATE = saved


def split(text: str) -> tuple[str, str]:
    """``"SPEC@ESTIMATE"`` as (spec, estimate); the estimate defaults to ``plan``."""
    spec, _, estimate = text.partition("@")
    return spec, estimate or "plan"


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    """Command line: play the duels and print the summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="SPEC@plan|hand")
    ap.add_argument("--b", required=True, help="SPEC@plan|hand")
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args()
    game = farmtable.get_game("farmerama")
    wins: list[float] = []
    margins: list[float] = []
    cpu: dict[str, list[float]] = {"a": [], "b": []}
    for deal in range(args.deals):
        pair_margin = 0.0
        for a_seat in (0, 1):
            state = game.new_game(players=2, seed=args.seed + deal)
            sides = {a_seat: "a", 1 - a_seat: "b"}
            agents = {
                seat: WithEstimate(*split(args.a if side == "a" else args.b), seed=(args.seed + deal) * 7919 + seat)
                for seat, side in sides.items()
            }
            while not state.is_over():
                p = state.actors()[0]
                state.apply(p, agents[p].act(state, p))
            result = state.result()
            totals = result.totals
            win = 1.0 if result.winners == [a_seat] else 0.5 if a_seat in result.winners else 0.0
            wins.append(win)
            pair_margin += totals[a_seat] - totals[1 - a_seat]
            for seat, side in sides.items():
                cpu[side].extend(agents[seat].cpu)
            print(f"deal {deal} A in seat {a_seat}: totals {totals} A win {win}", flush=True)
        margins.append(pair_margin / 2)
    share = sum(wins) / len(wins)
    low, high = wilson(sum(wins), len(wins))
    m, mlo, mhi = mean_ci(margins)
    print(f"\nA = {args.a}, B = {args.b}: {len(wins)} games ({args.deals} deals x 2 seats)")
    print(f"A win share {100 * share:.1f}% [{100 * low:.1f}, {100 * high:.1f}]")
    print(f"A margin per deal {m:+.2f} [{mlo:+.2f}, {mhi:+.2f}] (normal 95%; median {statistics.median(margins):+.1f})")
    for side in ("a", "b"):
        values = cpu[side]
        p50, p99 = quantile(values, 0.5), quantile(values, 0.99)
        print(f"{side.upper()} CPU s/decision p50 {p50:.4f} p99 {p99:.4f} max {max(values):.4f}")


if __name__ == "__main__":
    main()
