"""PettingZoo's own tests on every ready game: api_test, seed_test, parallel_api_test."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
pytest.importorskip("gymnasium", reason="the rl extra is not installed")

import warnings

import numpy as np
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.test.seed_test import parallel_seed_test

import farmtable
from farmtable.rl.catalogue import rl_game
from farmtable.rl.pettingzoo import env, parallel_env, raw_env
from tests.rl.conftest import all_games, ready_or_skip

CYCLES = 40


def player_counts(game_id: str) -> list[int]:
    """The smallest and a 3-player game (when the game takes 3)."""
    game = farmtable.get_game(game_id)
    return sorted({game.min_players, min(3, game.max_players)})


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo warns that dict observations (with an action mask) are not Box/Discrete: that is its own
    # convention for masked games (the classic environments get the same warning).
    warnings.filterwarnings("ignore", message="Observation space for each agent probably")
    warnings.filterwarnings("ignore", message="Observation is not a NumPy array")


@pytest.mark.parametrize("game_id", all_games())
def test_api_and_seed(game_id: str) -> None:
    """api_test and seed_test pass for the AEC environment (reward modes score and win)."""
    ready_or_skip(game_id)
    for players in player_counts(game_id):
        api_test(env(game_id, players, reward="score"), num_cycles=CYCLES)
        seed_test(lambda players=players: env(game_id, players, reward="win"), num_cycles=CYCLES)


@pytest.mark.parametrize("game_id", all_games())
def test_variants_api(game_id: str) -> None:
    """Every variant passes api_test with a player count it allows."""
    ready_or_skip(game_id)
    game = farmtable.get_game(game_id)
    for variant in game.variants:
        for players in range(game.min_players, game.max_players + 1):
            try:
                game.check_players_and_variants(players, (variant,))
            except ValueError:
                continue
            api_test(env(game_id, players, variants=(variant,)), num_cycles=10)
            break


@pytest.mark.parametrize("game_id", all_games())
def test_parallel(game_id: str) -> None:
    """parallel_api_test and parallel_seed_test pass (the Parallel env is meant for simultaneous games)."""
    ready_or_skip(game_id)
    for players in player_counts(game_id):
        parallel_api_test(parallel_env(game_id, players), num_cycles=CYCLES)
        parallel_seed_test(lambda players=players: parallel_env(game_id, players), num_cycles=CYCLES)


@pytest.mark.parametrize("game_id", all_games())
def test_full_games_end_with_zero_sum_rewards(game_id: str) -> None:
    """Masked random play reaches the end in both envs; score rewards of 2+ seats sum to zero."""
    ready_or_skip(game_id)
    players = max(2, farmtable.get_game(game_id).min_players)
    aec = env(game_id, players)
    aec.reset(seed=3)
    rng = np.random.default_rng(3)
    total = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, term, trunc, _ = aec.last()
        total[agent] += reward
        aec.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sum(total.values()) == pytest.approx(0.0)

    par = parallel_env(game_id, players, reward="win")
    observations, _ = par.reset(seed=3)
    simultaneous_steps = 0
    while par.agents:
        moving = [a for a in par.agents if observations[a]["action_mask"].any()]
        simultaneous_steps += len(moving) > 1
        actions = {
            a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) if a in moving else 0 for a in par.agents
        }
        observations, rewards, _, _, _ = par.step(actions)
    assert sum(rewards.values()) == pytest.approx(0.0)
    assert (simultaneous_steps > 0) == rl_game(game_id).simultaneous


def test_illegal_actions() -> None:
    """Raw AEC refuses an illegal action; the wrapped env ends the game at −1; so does the Parallel env."""
    raw = raw_env("farmers-finances", 2)
    raw.reset(seed=1)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        raw.step(illegal)
    par = parallel_env("farmers-finances", 2)
    par.reset(seed=1)
    _, rewards, terms, _, infos = par.step({"player_0": illegal, "player_1": 0})
    assert rewards["player_0"] == -1.0 and all(terms.values()) and infos["player_0"]["illegal_action"] == illegal
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped = env("farmers-finances", 2)
        wrapped.reset(seed=1)
        wrapped.step(illegal)
    assert wrapped.rewards["player_0"] == -1.0


def test_bad_arguments() -> None:
    """Unknown reward modes and impossible settings are refused with the game's reason."""
    with pytest.raises(ValueError, match="reward must be"):
        env("farmers-finances", 2, reward="money")
    with pytest.raises(ValueError):
        env("farmers-finances", 5)
