"""PettingZoo's own tests on every ready game: api_test, seed_test, parallel_api_test."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
pytest.importorskip("gymnasium", reason="the rl extra is not installed")

import random
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


@pytest.mark.parametrize("game_id", all_games())
def test_raw_env_api(game_id: str) -> None:
    """The raw env passes api_test and seed_test too, observations written in place or new."""
    ready_or_skip(game_id)
    players = max(2, farmtable.get_game(game_id).min_players)
    api_test(raw_env(game_id, players, copy=False), num_cycles=10)
    seed_test(lambda: raw_env(game_id, players, copy=False), num_cycles=10)
    api_test(raw_env(game_id, players), num_cycles=10)


@pytest.mark.parametrize("game_id", all_games())
def test_per_decision_path_observes_what_the_view_shows(game_id: str) -> None:
    """Along random games, every observation ``last()`` hands out (raw: in place; checked: new arrays) equals
    the view-based encoding of the agent's seat, and the mask equals the legal actions; the raw env's
    vector is the same read-only array for a seat all game long."""
    ready_or_skip(game_id)
    players = max(2, farmtable.get_game(game_id).min_players)
    rng = random.Random(5)
    for make in (raw_env, env):
        e = make(game_id, players, copy=False) if make is raw_env else make(game_id, players)
        sp = e.unwrapped.spec
        e.reset(seed=4)
        kept: dict[str, np.ndarray] = {}
        for agent in e.agent_iter(60):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            seat = e.unwrapped.agent_seat[agent]
            assert np.array_equal(obs["observation"], sp.observe_view(e.unwrapped.state, seat))
            legal = sp.legal(e.unwrapped.state, seat)
            assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(legal)
            if make is raw_env and sp.fast is not None:
                assert not obs["observation"].flags.writeable
                assert kept.setdefault(agent, obs["observation"]) is obs["observation"]
            elif agent in kept:
                assert kept[agent] is not obs["observation"]
            else:
                kept[agent] = obs["observation"]
            e.step(rng.choice(sorted(legal)))


def test_raw_env_refuses_and_loses_nothing() -> None:
    """The raw env: ``step`` before ``reset`` is an error; an illegal or non-integer action raises
    ``ValueError`` and plays nothing (same state, same agent, same dicts); numpy integers are played."""
    raw = raw_env("farmers-finances", 2)
    with pytest.raises(RuntimeError, match="reset"):
        raw.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        raw.last()
    raw.reset(seed=1)
    mask = raw.last()[0]["action_mask"]
    before = (raw.state.to_json(), raw.agent_selection, dict(raw.rewards), dict(raw.terminations))
    for bad in (int(np.flatnonzero(mask == 0)[0]), 10_000, -1, 1.0, "0", None):
        with pytest.raises(ValueError, match="not legal"):
            raw.step(bad)
        assert (raw.state.to_json(), raw.agent_selection, dict(raw.rewards), dict(raw.terminations)) == before
    raw.step(np.int64(np.flatnonzero(mask)[0]))  # a numpy integer takes the slow path and is played
    assert raw.state.to_json() != before[0]


def test_reset_seed_deals_the_engines_game() -> None:
    """``reset(seed=s)`` deals ``new_game(seed=s)``; ``reset()`` after it repeats the same sequence."""
    game = farmtable.get_game("tiny-farms")
    for make in (raw_env, env, parallel_env):
        e = make("tiny-farms", 2)
        e.reset(seed=12)
        assert e.state.to_json() == game.new_game(players=2, seed=12).to_json()
        e.reset()
        first = e.state.to_json()
        e.reset(seed=12)
        e.reset()
        assert e.state.to_json() == first
    with pytest.raises(ValueError, match="seed"):
        raw_env("tiny-farms", 2).reset(seed=-1)


@pytest.mark.parametrize(("game_id", "players"), [("farmini", 2), ("farmini", 3), ("farmers-finances", 3)])
def test_in_place_observations_follow_whole_games(game_id: str, players: int) -> None:
    """``raw_env(copy=False)`` over two whole games (a reset between them): every observation, rewritten in
    the seat's own array (Farmini: only the farms that changed), equals the view-based encoding; ``last``
    without observing gives the same reward, flags and info."""
    ready_or_skip(game_id)
    e = raw_env(game_id, players, copy=False)
    sp = e.spec
    rng = random.Random(players)
    decisions = 0
    for seed in (3, 4):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            tail = e.last(observe=False)
            obs, *rest = e.last()
            assert tail[0] is None and tuple(rest) == tail[1:]
            if rest[1] or rest[2]:
                e.step(None)
                continue
            assert np.array_equal(obs["observation"], sp.observe_view(e.state, e.agent_seat[agent]))
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            decisions += 1
    assert decisions > 100
