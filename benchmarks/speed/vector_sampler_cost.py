"""Is the Tiny Farms bench's sampler fair? Its cost per decision in the engine column and in the env column.

    cd benchmarks/speed && nice -n 10 ../../.venv/bin/python vector_sampler_cost.py --games 100 --batch 4096 --steps 100

``vector_tiny_farms.py`` draws every move with the engine's ``Rng.below(count)``: the engine column over
its legal list (``legal[agent.below(len(legal))]``), the env column over the mask (``sample``: the mask's
ones, then ``below`` per game). This times that draw alone, in CPU seconds per decision: the engine's
on the legal lists of ``--games`` random games (replayed five times), the env's on ``--steps`` steps of
a ``--batch``-game int8 env.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from vector_tiny_farms import POLICY, sample

import farmtable
from farmtable.core import Rng
from farmtable.rl.vector import TinyFarmsVectorEnv


def engine_cost(games: int) -> tuple[float, int]:
    """CPU seconds per decision of ``legal[agent.below(len(legal))]`` on the legal lists of ``games`` games."""
    game = farmtable.get_game("tiny-farms")
    lists = []
    for seed in range(games):
        state = game.new_game(players=2, seed=seed)
        agent = Rng(seed ^ POLICY)
        while not state.is_over():
            player = state.actors()[0]
            legal = state.legal_actions(player)
            lists.append(legal)
            state.apply(player, legal[agent.below(len(legal))])
    agent = Rng(1)
    start = time.process_time()
    for _ in range(5):
        for legal in lists:
            legal[agent.below(len(legal))]
    return (time.process_time() - start) / (5 * len(lists)), len(lists)


def env_cost(batch: int, steps: int) -> tuple[float, int]:
    """CPU seconds per decision of ``sample`` on ``steps`` steps of a ``batch``-game int8 env."""
    envs = TinyFarmsVectorEnv(batch, players=2, obs_dtype=np.int8)
    _, infos = envs.reset(seed=0)
    policy = np.arange(batch, dtype=np.uint64)
    spent = 0.0
    decisions = 0
    for _ in range(steps):
        start = time.process_time()
        actions, count = sample(infos["action_mask"], policy)
        spent += time.process_time() - start
        decisions += int(np.count_nonzero(count))
        _, _, _, _, infos = envs.step(actions)
    return spent / decisions, decisions


def main() -> None:
    """Print both costs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    engine, n_engine = engine_cost(args.games)
    env, n_env = env_cost(args.batch, args.steps)
    print(f"engine column: {engine * 1e6:.3f} us a decision ({n_engine:,} decisions x 5)")
    print(
        f"env column:    {env * 1e6:.3f} us a decision ({n_env:,} decisions, {args.batch:,} games x {args.steps} steps)"
    )


if __name__ == "__main__":
    main()
