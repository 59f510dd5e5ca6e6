"""The vector environment plays the engine's games: observations, masks and rewards, game by game."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("gymnasium", reason="the rl extra is not installed")

import numpy as np

import farmtable
from farmtable.rl.catalogue import spec
from farmtable.rl.vector import FarmersFinancesVectorEnv


@pytest.mark.parametrize(("players", "reward"), [(2, "score"), (3, "win"), (4, "score"), (2, "win")])
def test_vector_env_matches_the_engine(players: int, reward: str) -> None:
    n = 12
    envs = FarmersFinancesVectorEnv(n, players=players, reward=reward)
    sp = spec("farmers-finances", players)
    game = farmtable.get_game("farmers-finances")
    obs, infos = envs.reset(seed=7)
    engines = [game.new_game(players=players, seed=int(s)) for s in envs.game_seeds]
    rng = np.random.default_rng(7)
    finished = restarted = 0
    pending = np.zeros(n, dtype=bool)  # ended last step: restarts on this one (NEXT_STEP autoreset)
    for _ in range(400):
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
                engines[i] = game.new_game(players=players, seed=int(envs.game_seeds[i]))
                assert rewards[i] == 0.0 and not terminated[i]
                restarted += 1
            elif engine.is_over():
                assert terminated[i]
                expected = sp.rewards(engine, reward)
                assert infos["final_rewards"][i].tolist() == pytest.approx(expected)
                assert rewards[i] == pytest.approx(expected[movers[i]])
                finished += 1
            else:
                assert not terminated[i] and rewards[i] == 0.0
        pending = terminated.copy()
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
