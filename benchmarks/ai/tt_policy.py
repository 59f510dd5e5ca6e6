"""Tiny Towns solo: the scripted policy (``solo_policy.SoloPolicy``) against greedy, paired on the same deals.

Deal i = game seed ``--seed`` + i (the pairing of ``tt_greedy_variants.py``); greedy and the policy
are seeded by i. Prints each agent's mean, deals >= 25, max, CPU seconds, and the paired difference
(Student-t 95%)::

    PYTHONPATH=src python benchmarks/ai/tt_policy.py --deals 40 --seed 3000 --agents policy,greedy
"""

from __future__ import annotations

import argparse
import statistics
import time

import farmtable
from farmtable.agents.greedy import GreedyAgent
from farmtable.games.tiny_towns import solo_policy
from farmtable.games.tiny_towns.rules import TinyTownsState


def play_one(agent: str, seed: int, i: int, show: bool = False) -> int:
    """The final score of ``agent`` ("policy" or "greedy") on deal ``seed``."""
    state = farmtable.get_game("tiny-towns").new_game(players=1, seed=seed)
    assert isinstance(state, TinyTownsState)
    policy = solo_policy.SoloPolicy(seed=i)
    greedy = GreedyAgent(seed=i)
    while not state.is_over():
        action = policy.act(state) if agent == "policy" else greedy.act(state, 0)
        state.apply(0, action)
    if show:
        town = state.towns[0]
        print(f"  deal {seed}: {state.buildings} {town.monument} score {state.result().totals[0]} rounds {state.round}")
        for r in range(4):
            print("     ", " | ".join(f"{(v or '.')[:9]:9}" for v in town.grid[r * 4 : r * 4 + 4]))
    return int(state.result().totals[0])


def main() -> None:
    """Play every agent on the same deals and compare each with the first."""
    from scipy.stats import t

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agents", default="policy,greedy")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=3000)
    ap.add_argument("--show", action="store_true", help="print every final town")
    ap.add_argument("--set", action="append", default=[], help="NAME=VALUE: a solo_policy constant (repeatable)")
    args = ap.parse_args()
    for item in args.set:
        name, _, value = item.partition("=")
        if not hasattr(solo_policy, name):
            raise SystemExit(f"solo_policy has no constant {name}")
        setattr(solo_policy, name, type(getattr(solo_policy, name))(value))
    first: list[int] = []
    for agent in args.agents.split(","):
        start = time.process_time()
        scores = [play_one(agent, args.seed + i, i, args.show) for i in range(args.deals)]
        cpu = time.process_time() - start
        first = first or scores
        diff = [a - b for a, b in zip(scores, first, strict=True)]
        mean = statistics.mean(diff)
        half = float(t.ppf(0.975, len(diff) - 1)) * statistics.stdev(diff) / len(diff) ** 0.5 if any(diff) else 0.0
        print(
            f"{agent}: mean {statistics.mean(scores):.2f} >=25 {sum(s >= 25 for s in scores)} "
            f">=38 {sum(s >= 38 for s in scores)} max {max(scores)} "
            f"diff {mean:+.2f} [{mean - half:+.2f},{mean + half:+.2f}] cpu/game {cpu / args.deals:.2f} scores {scores}",
            flush=True,
        )


if __name__ == "__main__":
    main()
