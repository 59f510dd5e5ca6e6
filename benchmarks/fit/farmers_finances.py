"""Farmers Finances solo: the solved game's numbers, and the optimal policy played through the real engine.

Usage (from the repository root, sources first on the path)::

    PYTHONPATH=src nice -n 10 .venv/bin/python benchmarks/fit/farmers_finances.py --games 2000 --seed 0

Prints the exact optimal expected turns and the shares within 15 / 20 turns (the belief model of
``solver.py``), then plays ``--games`` solo deals (seeds ``seed … seed+games-1``) through the
engine with (a) the solver's one-step expectimax and (b) the greedy agent on the new
``heuristic``, and reports mean turns and the shares with Wilson 95% intervals, paired where it
matters. CPU seconds are counted with ``time.process_time``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable

import farmtable
from farmtable.agents.greedy import GreedyAgent
from farmtable.games.farmers_finances.rules import FarmersFinancesState
from farmtable.games.farmers_finances.solver import solution

Policy = Callable[[FarmersFinancesState], str]


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a share."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def play(seed: int, policy: Policy, variants: tuple[str, ...] = ()) -> int:
    """Play one solo deal to the end with ``policy``; the number of turns taken."""
    state = farmtable.get_game("farmers-finances").new_game(players=1, seed=seed, variants=variants)
    assert isinstance(state, FarmersFinancesState)
    while not state.is_over():
        state.apply(0, policy(state))
    return state.turn


def greedy_policy(seed: int) -> Policy:
    """The greedy agent (one determinization, one step) on ``heuristic``."""
    agent = GreedyAgent(seed)

    def act(state: FarmersFinancesState) -> str:
        return str(agent.act(state, 0))

    return act


def report(name: str, turns: list[int]) -> None:
    """One line: mean turns with a normal 95% interval, shares within 15 and 20 with Wilson intervals."""
    n = len(turns)
    mean = statistics.fmean(turns)
    half = 1.96 * statistics.stdev(turns) / math.sqrt(n)
    parts = [f"{name:<28} n={n} mean turns {mean:.2f} [{mean - half:.2f}, {mean + half:.2f}]"]
    for k in (15, 20):
        hits = sum(t <= k for t in turns)
        low, high = wilson(hits, n)
        parts.append(f"≤{k}: {hits / n:.1%} [{low:.1%}, {high:.1%}]")
    print("  ".join(parts))


def paired(name: str, a: list[int], b: list[int]) -> None:
    """Mean of the paired difference a − b (same deals) with a normal 95% interval."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    print(f"{name}: mean difference {mean:+.2f} turns [{mean - half:+.2f}, {mean + half:+.2f}]")


def main() -> None:
    """Print the exact numbers and the engine simulation."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-greedy", action="store_true", help="simulate only the solver's policy")
    args = parser.parse_args()
    start = time.process_time()
    sol = solution()
    built = time.process_time() - start
    print(f"solved in {built:.2f} CPU s ({sol.sweeps} sweeps, {len(sol.index)} pile/farm configs x 5 rows x 70 coins)")
    print(f"exact (belief model): optimal expected turns {sol.expected_turns_from_start():.4f}")
    for k in (10, 12, 14, 15, 16, 18, 20, 25):
        print(f"  P(turns <= {k}) = {sol.share_within(k):.4f}")
    six = solution(True)
    print(f"variant solo-six-choose: optimal expected turns {six.expected_turns_from_start():.4f}")
    seeds = range(args.seed, args.seed + args.games)
    t0 = time.process_time()
    optimal = [play(s, sol.best_action) for s in seeds]
    t1 = time.process_time()
    print(f"\nthrough the engine, {args.games} deals (seeds {args.seed}..{args.seed + args.games - 1}):")
    report("solver (1-step expectimax)", optimal)
    print(f"  {(t1 - t0) / sum(optimal) * 1e3:.3f} CPU ms per decision")
    if not args.no_greedy:
        greedy = [play(s, greedy_policy(s)) for s in seeds]
        t2 = time.process_time()
        report("greedy on heuristic", greedy)
        print(f"  {(t2 - t1) / sum(greedy) * 1e3:.3f} CPU ms per decision")
        paired("greedy - solver", greedy, optimal)


if __name__ == "__main__":
    main()
