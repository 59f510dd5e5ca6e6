"""The vector environment plays the engine's games: observations, masks and rewards, game by game."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("gymnasium", reason="the rl extra is not installed")

import numpy as np

from farmtable.rl.vector import FarmersFinancesVectorEnv
from tests.rl.vector_check import play_beside_the_engine


@pytest.mark.parametrize(("players", "reward"), [(2, "score"), (3, "win"), (4, "score"), (2, "win")])
def test_vector_env_matches_the_engine(players: int, reward: str) -> None:
    n = 12
    envs = FarmersFinancesVectorEnv(n, players=players, reward=reward)
    finished, restarted = play_beside_the_engine(envs, "farmers-finances", players, reward, seed=7, steps=400)
    assert finished > 0 and restarted > 0


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    envs = FarmersFinancesVectorEnv(4, players=2)
    _, infos = envs.reset(seed=1)
    illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in infos["action_mask"]])
    before = {k: v.copy() for k, v in envs.state.items()}
    with pytest.raises(ValueError, match="illegal actions in games"):
        envs.step(illegal)
    assert all(np.array_equal(before[k], envs.state[k]) for k in before)
    with pytest.raises(ValueError, match="reward must be"):
        FarmersFinancesVectorEnv(2, reward="money")
    with pytest.raises(ValueError, match="2–4 players"):
        FarmersFinancesVectorEnv(2, players=1)
