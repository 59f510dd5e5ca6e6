"""The Tiny Farms vector env plays the engine's games: observations, masks, rewards, autoreset.

Also Gymnasium's environment checks that apply to a vector env (spaces, seeding, fresh arrays,
a standard vector wrapper), and the batched final scoring against ``scoring.score_players`` /
``result()`` on random finished games of every player count and variant the simulator plays.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("gymnasium", reason="the rl extra is not installed")

import numpy as np

import farmtable
from farmtable.core import Rng
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import scoring
from farmtable.rl import tiny_farms_vector as v
from farmtable.rl.catalogue import final_rewards, rl_game
from farmtable.rl.vector import TinyFarmsVectorEnv
from tests.rl.vector_check import play_beside_the_engine

ZERO = ("horses-zero-ranks",)
SETUPS = [(players, variants) for players in (2, 3, 4) for variants in ((), ZERO)]
POLICY = 0x5DEECE66D


@pytest.mark.parametrize(("players", "variants"), SETUPS)
def test_batched_scoring_is_the_engines_on_random_finished_games(players: int, variants: tuple[str, ...]) -> None:
    """Totals and ranking of the batch = ``result()`` of the same games played in the engine."""
    seeds = list(range(40 * players, 40 * players + 40))
    out = v.play_random(players, seeds, [s ^ POLICY for s in seeds])
    st = out["state"]
    totals = v.score(st["boards"], st["milk"], variants)
    below, above = v.places(totals, st["milk"])
    game = farmtable.get_game("tiny-farms")
    rl = rl_game("tiny-farms")
    for i, seed in enumerate(seeds):
        engine = game.new_game(players=players, seed=seed, variants=variants)
        agent = Rng(seed ^ POLICY)
        while not engine.is_over():
            seat = engine.actors()[0]
            legal = engine.legal_actions(seat)
            engine.apply(seat, legal[agent.below(len(legal))])
        result = engine.result()
        assert totals[i].tolist() == result.totals, seed
        assert ((below[i] - above[i]) / (players - 1)).tolist() == final_rewards(rl, result, players, "win"), seed
    assert len({tuple(t) for t in totals.tolist()}) > 10  # varied games, not one answer


@pytest.mark.parametrize("variants", [(), ZERO])
def test_batched_scoring_on_random_boards(variants: tuple[str, ...]) -> None:
    """Boards no game reaches (any animal anywhere, herds and flocks of every shape) score as in the engine."""
    rng = np.random.default_rng(3)
    least = 0 if variants else c.MIN_HORSES_TO_SCORE
    kinds = np.array([c.EMPTY, *c.ANIMALS])
    weights = np.array([2, 3, 4, 2, 4, 3, 1, 1, 1, 1, 1, 1], dtype=float)
    for players in (2, 3, 4):
        boards = rng.choice(kinds, p=weights / weights.sum(), size=(400, players, c.BOARD_CELLS))
        milk = rng.integers(0, c.START_MILK + 1, size=(400, players))
        totals = v.score(boards, milk, variants)
        for i in range(len(boards)):
            expected = scoring.score_players(boards[i].tolist(), milk[i].tolist(), least).totals
            assert totals[i].tolist() == expected, (players, i)


def test_scoring_parts_are_the_engines() -> None:
    rng = np.random.default_rng(5)
    farms = rng.choice([c.EMPTY, c.COW, c.CALVES, c.PIG], size=(500, c.FARM_CELLS))
    assert v.cow_points(farms).tolist() == [scoring.cow_points(f.tolist()) for f in farms]
    counts = rng.integers(0, 6, size=(300, 5))
    assert v.forest_points(counts).tolist() == [scoring.forest_points(n.tolist()) for n in counts]
    horses = rng.integers(0, 4, size=(300, 3))
    for least in (0, 1):
        expected = [scoring.horse_points(h.tolist(), False, least) for h in horses]
        assert v.horse_points(horses, least).tolist() == expected


@pytest.mark.parametrize(
    ("players", "reward", "variants"), [(2, "score", ()), (3, "win", ()), (4, "score", ZERO), (2, "win", ZERO)]
)
def test_vector_env_matches_the_engine(players: int, reward: str, variants: tuple[str, ...]) -> None:
    n = 8
    envs = TinyFarmsVectorEnv(n, players=players, reward=reward, variants=variants)
    # two games and a bit (about 33 decisions per player and game)
    finished, restarted = play_beside_the_engine(
        envs, "tiny-farms", players, reward, variants, seed=11, steps=70 * players, final_view_is_seat_0=True
    )
    assert finished >= 2 * n and restarted >= n


def test_env_checks_that_apply_to_a_vector_env() -> None:
    """Gymnasium's env-checker items for a vector env: spaces, seeding, fresh arrays, a vector wrapper."""
    from gymnasium.utils.passive_env_checker import check_obs
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = TinyFarmsVectorEnv(16, players=3)
    obs, infos = envs.reset(seed=5)
    check_obs(obs, envs.observation_space, "reset")
    again, infos_again = TinyFarmsVectorEnv(16, players=3).reset(seed=5)
    assert np.array_equal(obs, again) and np.array_equal(infos["action_mask"], infos_again["action_mask"])
    other, _ = envs.reset(seed=6)
    assert not np.array_equal(obs, other)  # another seed, other games
    rng = np.random.default_rng(0)
    wrapped = RecordEpisodeStatistics(TinyFarmsVectorEnv(16, players=2))
    obs, infos = wrapped.reset(seed=1)
    episodes = 0
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in infos["action_mask"]])
        assert envs.action_space.contains(actions)
        new_obs, *_, infos = wrapped.step(actions)
        check_obs(new_obs, wrapped.observation_space, "step")
        assert new_obs is not obs and not np.shares_memory(new_obs, obs)  # no reused data
        obs = new_obs
        if "episode" in infos:
            episodes += int(infos["_episode"].sum())
    assert episodes > 0


def test_illegal_actions_and_bad_setups_are_refused_and_change_nothing() -> None:
    envs = TinyFarmsVectorEnv(4, players=2)
    _, infos = envs.reset(seed=1)
    illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in infos["action_mask"]])
    before = {k: val.copy() for k, val in envs.state.items()}
    with pytest.raises(ValueError, match="illegal actions in games"):
        envs.step(illegal)
    with pytest.raises(ValueError, match="illegal actions in games"):
        envs.step(np.full(4, envs.rl_spec.num_actions))
    assert all(np.array_equal(before[k], envs.state[k]) for k in before)
    with pytest.raises(ValueError, match="reward must be"):
        TinyFarmsVectorEnv(2, reward="money")
    with pytest.raises(ValueError, match="players"):
        TinyFarmsVectorEnv(2, players=1)
    with pytest.raises(ValueError, match="emma-easy"):
        TinyFarmsVectorEnv(2, variants=("emma-easy",))
    with pytest.raises(ValueError, match="num_envs"):
        TinyFarmsVectorEnv(0)


@pytest.mark.parametrize(("players", "reward", "variants"), [(2, "win", ()), (3, "score", ZERO)])
def test_int8_observations_into_one_array_match_the_engine(
    players: int, reward: str, variants: tuple[str, ...]
) -> None:
    """``obs_dtype=np.int8, copy=False``: the same games, observations equal to the engine's at every step."""
    n = 6
    envs = TinyFarmsVectorEnv(n, players=players, reward=reward, variants=variants, obs_dtype=np.int8, copy=False)
    assert envs.single_observation_space.dtype == np.int8
    finished, restarted = play_beside_the_engine(
        envs, "tiny-farms", players, reward, variants, seed=3, steps=70 * players, final_view_is_seat_0=True
    )
    assert finished >= 2 * n and restarted >= n


def test_int8_and_float32_envs_give_the_same_observations_and_copy_false_reuses_one_array() -> None:
    """The int8 env's observations equal the float32 env's on the same seeds and actions; ``copy=False``
    hands out one array, overwritten by each step; the space check passes for int8."""
    from gymnasium.utils.passive_env_checker import check_obs

    wide = TinyFarmsVectorEnv(12, players=2)
    small = TinyFarmsVectorEnv(12, players=2, obs_dtype=np.int8, copy=False)
    obs_w, infos = wide.reset(seed=9)
    obs_s, infos_s = small.reset(seed=9)
    first = obs_s
    rng = np.random.default_rng(1)
    for step in range(120):
        assert obs_s.dtype == np.int8 and obs_w.dtype == np.float32
        assert np.array_equal(obs_s, obs_w), step
        assert np.array_equal(infos["action_mask"], infos_s["action_mask"])
        check_obs(obs_s, small.observation_space, "step")
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in infos["action_mask"]])
        obs_w, _, _, _, infos = wide.step(actions)
        obs_s, _, _, _, infos_s = small.step(actions)
        assert obs_s is first  # one array, written again by every step
        assert not obs_s.flags.writeable  # the env's kept observation: read-only
        assert not infos_s["action_mask"].flags.writeable  # and its kept mask (the copying env's is a copy)
        assert infos["action_mask"].flags.writeable
    obs_again, _ = small.reset(seed=9)
    assert obs_again is first and np.array_equal(obs_again, small.reset(seed=9)[0])
    assert np.array_equal(obs_again, wide.reset(seed=9)[0])
    with pytest.raises(ValueError, match="obs_dtype"):
        TinyFarmsVectorEnv(2, obs_dtype=np.uint8)  # the milk change can be negative


def test_games_that_restart_keep_the_other_games_observations() -> None:
    """A step in which some games restart resets the kept observations of those games only: the env keeps its
    ``ViewerObs`` (rebuilding it for every game whenever one restarted was the env's main cost), and the
    observations stay equal to the stateless ``observe`` of the state, game by game, through the restarts."""
    from farmtable.rl import tiny_farms_vector as tf

    envs = TinyFarmsVectorEnv(16, players=2, obs_dtype=np.int8)
    _, infos = envs.reset(seed=4)
    views = envs._viewer_obs()
    rng = np.random.default_rng(4)
    restarts = 0
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in infos["action_mask"]])
        restarting = envs._restart.copy()
        obs, _, _, _, infos = envs.step(actions)
        restarts += int(restarting.sum())
        assert envs._views is views
        assert np.array_equal(obs, tf.observe(envs.state, envs.layout).astype(np.int8))
    assert restarts >= 16
