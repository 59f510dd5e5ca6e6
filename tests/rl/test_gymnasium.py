"""Gymnasium solo environments: registered ids, check_env, masked episodes."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("gymnasium", reason="the rl extra is not installed")

import warnings

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env

import farmtable
from farmtable.rl.gymnasium import SOLO_REWARDS, env_id
from tests.rl.conftest import all_games, ready_or_skip


def solo_or_skip(game_id: str) -> None:
    """Skip games not ready, or without solo rules."""
    ready_or_skip(game_id)
    if farmtable.get_game(game_id).min_players > 1:
        pytest.skip(f"{game_id} has no solo rules")


@pytest.mark.parametrize("game_id", all_games())
def test_check_env(game_id: str) -> None:
    """Gymnasium's check_env passes for every reward mode."""
    solo_or_skip(game_id)
    for reward in SOLO_REWARDS:
        with warnings.catch_warnings():
            # unbounded counters (money, turn numbers) have an infinite upper bound on purpose
            warnings.filterwarnings("ignore", message=".*maximum value is infinity")
            check_env(gym.make(env_id(game_id), reward=reward).unwrapped, skip_render_check=True)


@pytest.mark.parametrize("game_id", all_games())
def test_masked_episode(game_id: str) -> None:
    """A masked random episode ends; dense rewards add up to the final solo score minus the start."""
    solo_or_skip(game_id)
    env = gym.make(env_id(game_id), reward="dense", render_mode="ansi")
    obs, info = env.reset(seed=5)
    env.action_space.seed(5)
    start = env.unwrapped.spec_.rl.solo_score(env.unwrapped.state.result())
    assert isinstance(env.render(), str)
    total, done = 0.0, False
    while not done:
        assert np.array_equal(info["action_mask"].astype(bool), env.unwrapped.action_masks())
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))
        assert env.observation_space.contains(obs)
        total += reward
        done = terminated or truncated
    final = env.unwrapped.spec_.rl.solo_score(env.unwrapped.state.result())
    assert total == pytest.approx(final - start)


def test_illegal_action_ends_the_episode() -> None:
    """An action outside the mask ends the episode with the illegal reward."""
    env = gym.make("farmtable/FarmersFinances-solo-v0")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"] == illegal


def test_variants_and_seeds() -> None:
    """Variants pass through gym.make; the same seed gives the same episode."""
    a = gym.make("farmtable/TinyFarms-solo-v0", variants=("emma-hard",))
    b = gym.make("farmtable/TinyFarms-solo-v0", variants=("emma-hard",))
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=9)
    assert np.array_equal(oa, ob)
    assert a.unwrapped.state.variants == b.unwrapped.state.variants
    with pytest.raises(ValueError):
        gym.make("farmtable/TinyFarms-solo-v0", variants=("emma-hard", "emma-easy"))
