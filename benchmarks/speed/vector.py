"""Batched simulator (issue 16, target 2): random 2-player Farmers Finances, engine vs numpy batch.

    nice -n 10 .venv/bin/python benchmarks/speed/vector.py --rounds 5 --batch 1024 16384

Side by side in one process, alternating: the engine (``legal_actions`` + ``apply``, every check
kept; ``Rng.below`` picks among the legal moves) and ``games/farmers_finances/vector.py`` playing
whole games with the same random policy at each batch size (``play_random``), both in decisions per
CPU second (``time.process_time``). The two play identical games from identical seeds (the test
``tests/games/farmers_finances/test_vector.py`` checks it move by move). Target: >= 10x the engine.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from common import fmt, median_ci, ratio_ci

import farmtable
from farmtable.core import Rng
from farmtable.games.farmers_finances import vector as v


def engine_rate(players: int, games: int, first_seed: int) -> float:
    """Decisions per CPU second of the engine on ``games`` random games."""
    game = farmtable.get_game("farmers-finances")
    start = time.process_time()
    decisions = 0
    for seed in range(first_seed, first_seed + games):
        state = game.new_game(players=players, seed=seed)
        agent = Rng(seed ^ 0x5DEECE66D)
        while not state.is_over():
            player = state.current  # type: ignore[attr-defined]
            legal = state.legal_actions(player)
            state.apply(player, legal[agent.below(len(legal))])
            decisions += 1
    return decisions / (time.process_time() - start)


def vector_rate(players: int, batch: int, first_seed: int) -> float:
    """Decisions per CPU second of the batch simulator on one batch of ``batch`` games."""
    seeds = np.arange(first_seed, first_seed + batch, dtype=np.uint64)
    start = time.process_time()
    out = v.play_random(players, seeds, seeds ^ np.uint64(0x5DEECE66D))
    return float(out["decisions"].sum()) / (time.process_time() - start)


def env_rate(players: int, batch: int, steps: int, seed: int) -> float:
    """Decisions per CPU second through ``FarmersFinancesVectorEnv`` (observations, masks, rewards, autoreset)."""
    from farmtable.rl.vector import FarmersFinancesVectorEnv

    envs = FarmersFinancesVectorEnv(batch, players=players)
    _, infos = envs.reset(seed=seed)
    policy = np.arange(batch, dtype=np.uint64) + np.uint64(seed)
    start = time.process_time()
    decisions = 0
    for _ in range(steps):
        mask = infos["action_mask"].astype(bool)
        decisions += int(mask.any(axis=1).sum())
        _, _, _, _, infos = envs.step(v.pick_random(policy, mask))
    return decisions / (time.process_time() - start)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--engine-games", type=int, default=300)
    parser.add_argument("--batch", type=int, nargs="*", default=[1024, 16384])
    parser.add_argument("--env-batch", type=int, default=4096)
    parser.add_argument("--env-steps", type=int, default=200)
    args = parser.parse_args()
    engine: list[float] = []
    batches: dict[int, list[float]] = {b: [] for b in args.batch}
    env_rates: list[float] = []
    vector_rate(args.players, 64, 0)  # warm-up
    for r in range(args.rounds):
        engine.append(engine_rate(args.players, args.engine_games, r * args.engine_games))
        for b in args.batch:
            batches[b].append(vector_rate(args.players, b, r * b))
        env_rates.append(env_rate(args.players, args.env_batch, args.env_steps, r))
    print(f"Farmers Finances, {args.players} players, random play, decisions per CPU second, {args.rounds} rounds\n")
    print("| simulator | decisions/s [95% CI] | × engine (paired by round) |")
    print("|---|---:|---:|")
    print(f"| engine (apply, every check) | {fmt(median_ci(engine))} | 1 |")
    for b, rates in batches.items():
        pairs = list(zip(rates, engine, strict=True))
        print(f"| numpy batch {b:,} | {fmt(median_ci(rates))} | {fmt(ratio_ci(pairs), '.1f')} |")
    pairs = list(zip(env_rates, engine, strict=True))
    print(
        f"| rl.vector env, {args.env_batch:,} games (obs + masks + rewards) | {fmt(median_ci(env_rates))} "
        f"| {fmt(ratio_ci(pairs), '.1f')} |"
    )


if __name__ == "__main__":
    main()
