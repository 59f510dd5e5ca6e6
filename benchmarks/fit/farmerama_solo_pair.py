"""Farmerama solo: two agents on the same deals, one line per deal as it finishes (for slow agents).

Deal ``i`` is game seed ``seed + i`` and each agent is seeded as in ``benchmarks/ai/compare.py``
(``(seed + deal) * 7919``), so the deals and the greedy games are the same as there. Prints each
deal's stars for both agents and their CPU seconds per decision, then the means with 95%
intervals, the share reaching 150 (Wilson), the paired difference B − A (95% t interval) and
CPU s/decision p50 / p99 / max (``time.process_time``).

    PYTHONPATH=src nice -n 10 python benchmarks/fit/farmerama_solo_pair.py --deals 8 --seed 1010 \\
        --a greedy --b normal
"""

from __future__ import annotations

import argparse
import time

import farmtable
import farmtable.agents
from farmtable.arena.stats import mean_ci, wilson
from farmtable.games.farmerama.components import SOLO_GOAL


def play(spec: str, seed: int) -> tuple[int, list[float]]:
    """One solo game of ``spec`` on game seed ``seed``: its stars and CPU seconds per decision."""
    state = farmtable.get_game("farmerama").new_game(players=1, seed=seed)
    agent = farmtable.agents.make(spec, seed=seed * 7919)
    cpu: list[float] = []
    while not state.is_over():
        start = time.process_time()
        action = agent.act(state, 0)
        cpu.append(time.process_time() - start)
        state.apply(0, action)
    return state.result().totals[0], cpu


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    """Command line: play both agents deal by deal and print the paired summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="greedy")
    ap.add_argument("--b", default="normal")
    ap.add_argument("--deals", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args()
    stars: dict[str, list[int]] = {"a": [], "b": []}
    cpu: dict[str, list[float]] = {"a": [], "b": []}
    for deal in range(args.deals):
        for side, spec in (("a", args.a), ("b", args.b)):
            total, times = play(spec, args.seed + deal)
            stars[side].append(total)
            cpu[side].extend(times)
        print(f"deal {args.seed + deal}: {args.a} {stars['a'][-1]}  {args.b} {stars['b'][-1]}", flush=True)
    for side, spec in (("a", args.a), ("b", args.b)):
        mean, low, high = mean_ci([float(s) for s in stars[side]])
        hits = sum(s >= SOLO_GOAL for s in stars[side])
        lo, hi = wilson(hits, len(stars[side]))
        values = cpu[side]
        print(
            f"{spec}: mean {mean:.1f} [{low:.1f}, {high:.1f}] max {max(stars[side])} "
            f"150+: {hits}/{len(stars[side])} [{100 * lo:.1f}, {100 * hi:.1f}]%  CPU s/decision "
            f"p50 {quantile(values, 0.5):.3f} p99 {quantile(values, 0.99):.3f} max {max(values):.3f}"
        )
    diffs = [float(b - a) for a, b in zip(stars["a"], stars["b"], strict=True)]
    d, dlo, dhi = mean_ci(diffs)
    print(f"paired {args.b} - {args.a}: {d:+.2f} [{dlo:+.2f}, {dhi:+.2f}] (normal 95%)")


if __name__ == "__main__":
    main()
