"""One check for every vector env: play it beside the engine, game by game, and compare each step."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import farmtable
from farmtable.rl.catalogue import spec


def play_beside_the_engine(
    envs: Any,
    game_id: str,
    players: int,
    reward: str,
    variants: tuple[str, ...] = (),
    seed: int = 0,
    steps: int = 100,
    final_view_is_seat_0: bool = False,
) -> tuple[int, int]:
    """Step ``envs`` ``steps`` times with random legal actions while an engine game follows each env
    game: observations, masks, whose turn, rewards and the NEXT_STEP autoreset must match the engine
    at every step. ``final_view_is_seat_0``: a finished game's observation is seat 0's, nobody to act.
    Returns (games finished, games restarted)."""
    sp = spec(game_id, players, variants)
    game = farmtable.get_game(game_id)
    obs, infos = envs.reset(seed=seed)
    engines = [game.new_game(players=players, seed=int(s), variants=variants) for s in envs.game_seeds]
    rng = np.random.default_rng(seed)
    finished = restarted = 0
    pending = np.zeros(len(engines), dtype=bool)  # ended last step: restarts on this one (NEXT_STEP autoreset)
    for _ in range(steps):
        for i, engine in enumerate(engines):
            if pending[i]:
                continue
            seat = engine.actors()[0]
            assert infos["to_act"][i] == seat
            assert np.array_equal(obs[i], sp.observe(engine, seat)), f"game {i}"
            assert np.array_equal(infos["action_mask"][i], sp.mask(engine, seat)), f"game {i}"
        actions = np.array(
            [0 if pending[i] else rng.choice(np.flatnonzero(m)) for i, m in enumerate(infos["action_mask"])]
        )
        movers = [-1 if pending[i] else e.actors()[0] for i, e in enumerate(engines)]
        for i, engine in enumerate(engines):
            if not pending[i]:
                engine.apply(movers[i], sp.legal(engine, movers[i])[int(actions[i])])
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert not truncated.any()
        for i, engine in enumerate(engines):
            if pending[i]:
                engines[i] = game.new_game(players=players, seed=int(envs.game_seeds[i]), variants=variants)
                assert rewards[i] == 0.0 and not terminated[i]
                restarted += 1
            elif engine.is_over():
                assert terminated[i]
                if final_view_is_seat_0:
                    assert np.array_equal(obs[i], sp.observe(engine, 0)), f"game {i}: the final observation (seat 0)"
                    assert not infos["action_mask"][i].any() and infos["to_act"][i] == -1
                expected = sp.rewards(engine, reward)
                assert infos["final_rewards"][i].tolist() == pytest.approx(expected)
                assert rewards[i] == pytest.approx(expected[movers[i]])
                finished += 1
            else:
                assert not terminated[i] and rewards[i] == 0.0
        pending = terminated.copy()
    return finished, restarted
