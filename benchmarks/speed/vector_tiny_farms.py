"""Batched Tiny Farms (issue 16, item 2): random play, the engine vs the numpy batch, side by side.

    nice -n 10 .venv/bin/python benchmarks/speed/vector_tiny_farms.py --rounds 5 --batch 1024 8192 \
        --env-batch 4096 16384 --env-obs float32 int8-nocopy

Alternating rounds in one process: the engine (``legal_actions`` + ``apply``, every check kept; the
move ``legal[agent.below(len(legal))]`` with ``agent = Rng(seed ^ 0x5DEECE66D)``) and
``rl/tiny_farms_vector.py`` playing whole games with the same policy at each batch size
(``play_random``), in decisions per CPU second (``time.process_time``). The two play identical games
from identical seeds (``tests/rl/test_tiny_farms_vector.py`` checks it move by move). Then the
``gymnasium.vector`` env ``rl.vector.TinyFarmsVectorEnv`` at each ``--env-batch``: ``--env-steps``
calls of ``step`` (observations, masks, final scoring, autoreset), the action drawn uniformly from
the mask (:func:`sample`: the mask's ones, then ``Rng.below(count)`` per game: the engine's sampler on
the mask's indices; the decisions counted from the same counts),
once per ``--env-obs`` mode (float32 or int8 observations; ``-nocopy``: ``copy=False``, one array).
Target: >= 10x the engine on one core.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from common import fmt, median_ci, ratio_ci

import farmtable
from farmtable.core import Rng
from farmtable.rl import tiny_farms_vector as v

POLICY = 0x5DEECE66D


def engine_rate(players: int, games: int, first_seed: int, observe: bool = False) -> float:
    """Decisions per CPU second of the engine on ``games`` random games. ``observe``: the engine also
    observes and masks every decision, as a one-game RL loop does (``Spec.observe`` with the fast
    encoder, ``Spec.legal_and_mask``; the same moves)."""
    from farmtable.rl.catalogue import spec

    sp = spec("tiny-farms", players)
    game = farmtable.get_game("tiny-farms")
    start = time.process_time()
    decisions = 0
    for seed in range(first_seed, first_seed + games):
        state = game.new_game(players=players, seed=seed)
        agent = Rng(seed ^ POLICY)
        while not state.is_over():
            player = state.actors()[0]
            if observe:
                sp.observe(state, player)
                sp.legal_and_mask(state, player)
            legal = state.legal_actions(player)
            state.apply(player, legal[agent.below(len(legal))])
            decisions += 1
    return decisions / (time.process_time() - start)


def vector_rate(players: int, batch: int, first_seed: int) -> float:
    """Decisions per CPU second of the batch simulator on one batch of ``batch`` games."""
    seeds = np.arange(first_seed, first_seed + batch, dtype=np.uint64)
    start = time.process_time()
    out = v.play_random(players, seeds, seeds ^ np.uint64(POLICY))
    return float(out["decisions"].sum()) / (time.process_time() - start)


def sample(mask: np.ndarray, policy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A uniformly drawn legal action per game (0 where none): ``Rng.below(count)`` among the mask's ones,
    and each game's count of legal actions.

    The mask's ones are found eight bytes at a time (the 8-byte words with a one, then the ones in those
    words), then each row's run of them by ``searchsorted``: the same indices as ``np.flatnonzero(mask)``
    (a Tiny Farms mask has 366 entries and at most 32 ones), without scanning every byte twice."""
    n, width = mask.shape
    data = np.ascontiguousarray(mask).reshape(-1).view(bool)
    if data.size % 8:
        flat = np.flatnonzero(data)
    else:
        words = data.view(np.uint64)
        hot = np.flatnonzero(words != 0)
        ones = np.flatnonzero(words[hot].view(bool))
        flat = hot[ones >> 3] * 8 + (ones & 7)
    edges = np.searchsorted(flat, np.arange(n + 1) * width)
    count = np.diff(edges)
    k = v.pick_random(policy, count)
    at = np.minimum(edges[:-1] + k, max(len(flat) - 1, 0))
    chosen: np.ndarray = np.where(count > 0, flat[at] - np.arange(n) * width, 0) if len(flat) else count
    return chosen, count


OBS_MODES = ("float32", "float32-nocopy", "int8", "int8-nocopy")
"""``--env-obs``: the env's observation dtype, and ``-nocopy`` for ``copy=False`` (one array, overwritten)."""


def env_rate(players: int, batch: int, steps: int, seed: int, mode: str = "float32") -> float:
    """Decisions per CPU second through ``TinyFarmsVectorEnv`` (observations, masks, rewards, autoreset),
    its observations as ``mode`` says (:data:`OBS_MODES`)."""
    from farmtable.rl.vector import TinyFarmsVectorEnv

    dtype, _, nocopy = mode.partition("-")
    envs = TinyFarmsVectorEnv(batch, players=players, obs_dtype=np.dtype(dtype), copy=not nocopy)
    _, infos = envs.reset(seed=seed)
    policy = np.arange(batch, dtype=np.uint64) + np.uint64(seed)
    start = time.process_time()
    decisions = 0
    for _ in range(steps):
        actions, count = sample(infos["action_mask"], policy)
        decisions += int(np.count_nonzero(count))
        _, _, _, _, infos = envs.step(actions)
    return decisions / (time.process_time() - start)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--engine-games", type=int, default=200)
    parser.add_argument("--batch", type=int, nargs="*", default=[1024, 8192])
    parser.add_argument("--env-batch", type=int, nargs="*", default=[4096])
    parser.add_argument("--env-steps", type=int, default=150)
    parser.add_argument(
        "--env-obs", nargs="*", default=["float32"], choices=OBS_MODES, help="observation modes of the env rows"
    )
    args = parser.parse_args()
    if args.rounds < 1 or args.engine_games < 1 or min(args.batch + args.env_batch, default=1) < 1:
        parser.error("--rounds, --engine-games and every --batch / --env-batch must be at least 1")
    if args.env_steps < 1:
        parser.error("--env-steps must be at least 1")
    v.check_setup(args.players)
    engine: list[float] = []
    observed: list[float] = []
    batches: dict[int, list[float]] = {b: [] for b in args.batch}
    envs: dict[tuple[int, str], list[float]] = {(b, m): [] for b in args.env_batch for m in args.env_obs}
    vector_rate(args.players, 64, 10**6)  # warm-up
    env_rate(args.players, 64, 5, 10**6)
    for r in range(args.rounds):
        engine.append(engine_rate(args.players, args.engine_games, r * args.engine_games))
        observed.append(engine_rate(args.players, args.engine_games // 2, r * args.engine_games, observe=True))
        for b in args.batch:
            batches[b].append(vector_rate(args.players, b, r * b))
        for b, m in envs:
            envs[b, m].append(env_rate(args.players, b, args.env_steps, r, m))
    print(f"Tiny Farms, {args.players} players, random play, decisions per CPU second, {args.rounds} rounds\n")
    print("| simulator | decisions/s [95% CI] | × engine (paired by round) |")
    print("|---|---:|---:|")
    print(f"| engine (apply, every check) | {fmt(median_ci(engine))} | 1 |")
    for b, rates in batches.items():
        pairs = list(zip(rates, engine, strict=True))
        print(f"| numpy batch {b:,} | {fmt(median_ci(rates))} | {fmt(ratio_ci(pairs), '.1f')} |")
    for (b, m), rates in envs.items():
        pairs = list(zip(rates, engine, strict=True))
        print(
            f"| TinyFarmsVectorEnv {b:,} games, {m} obs (obs + masks + scoring + sampler) | {fmt(median_ci(rates))} "
            f"| {fmt(ratio_ci(pairs), '.1f')} |"
        )
    pairs = list(zip(observed, engine, strict=True))
    print(f"| engine + observe + mask per decision | {fmt(median_ci(observed))} | {fmt(ratio_ci(pairs), '.2f')} |")
    if envs:
        print("\nThe env against the engine that observes and masks too (paired by round):\n")
        for (b, m), rates in envs.items():
            pairs = list(zip(rates, observed, strict=True))
            print(f"- TinyFarmsVectorEnv {b:,}, {m} obs: {fmt(ratio_ci(pairs), '.1f')} x")


if __name__ == "__main__":
    main()
