"""Session 18 (rl18a): the faster Tiny Farms / Farmerama / Farmers Finances paths say what the plain paths say.

- the byte encoders (``farmtable.rl.fast.from_joined``: ``joined`` and ``fresh``) give the view-based
  encoding, also when two games are encoded in turn (each seat's board block is reused when that seat's
  board equals, by value, the one last encoded, whatever game it came from);
- the AEC env copies those bytes into each seat's array (``copy=False``) or hands out new writable arrays
  (``copy=True``), equal to the view-based encoding over whole games;
- the Gymnasium solo env's observations, masks and moves follow a plain engine replay of the same actions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

import numpy as np

import farmtable
from farmtable.rl.catalogue import spec, variant_sets
from farmtable.rl.pettingzoo import env, raw_env
from tests.rl.conftest import ready_or_skip

BYTE_GAMES = ("tiny-farms", "farmerama")
"""The games whose fast encoder returns the observation's bytes (``joined``)."""


def _random_move(state: Any, rng: random.Random) -> None:
    player = rng.choice(state.actors())
    state.apply(player, rng.choice(state.legal_actions(player)))


@pytest.mark.parametrize("game_id", BYTE_GAMES)
def test_joined_encoders_equal_the_view_encoding_on_interleaved_games(game_id: str) -> None:
    """``joined`` and ``fresh`` give the view's encoding on two random games played in turn (every
    player count and variant set), so a board block kept from the other game is reused only when equal;
    each ``fresh`` array is new and writable."""
    ready_or_skip(game_id)
    game = farmtable.get_game(game_id)
    checked = 0
    for players in range(game.min_players, game.max_players + 1):
        for variants in variant_sets(game_id, players):
            sp = spec(game_id, players, variants)
            joined = sp.fast.joined  # type: ignore[union-attr]
            fresh = sp.fast.fresh  # type: ignore[union-attr]
            rng = random.Random(players)
            states = [sp.new_game(11), sp.new_game(12)]
            while not all(s.is_over() for s in states):
                for state in states:
                    for p in range(players):
                        expected = sp.observe_view(state, p)
                        assert joined(state, p) == expected.tobytes(), (players, variants, p, state.to_json())
                        first, second = fresh(state, p), fresh(state, p)
                        assert first is not second and first.flags.writeable and first.dtype == np.float32
                        assert np.array_equal(first, expected)
                        checked += 1
                    if not state.is_over():
                        _random_move(state, rng)
    assert checked > 500


@pytest.mark.parametrize("game_id", BYTE_GAMES)
@pytest.mark.parametrize("copy", [False, True])
def test_aec_observations_of_byte_encoders_follow_whole_games(game_id: str, copy: bool) -> None:
    """``raw_env`` (in place or new arrays) and ``env()`` over whole games of 2 and 3 players: every
    observation equals the view-based encoding; in place, each seat's array is written through its byte
    view and handed out read-only; new arrays are writable and never reused."""
    ready_or_skip(game_id)
    for players in (2, 3):
        for e in (raw_env(game_id, players, copy=copy), env(game_id, players, copy=copy)):
            assert len(e._byte_views) == (0 if copy else players)  # the byte path is the one taken
            sp = e.spec
            rng = random.Random(players)
            seen: list[np.ndarray] = []
            for seed in (5, 6):
                e.reset(seed=seed)
                for agent in e.agent_iter():
                    obs, _, term, trunc, _ = e.last()
                    if term or trunc:
                        e.step(None)
                        continue
                    vector = obs["observation"]
                    assert np.array_equal(vector, sp.observe_view(e.state, e.agent_seat[agent]))
                    assert vector.flags.writeable == copy
                    if copy:
                        assert all(vector is not old for old in seen[-3:])
                        seen.append(vector)
                    e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


@pytest.mark.parametrize("game_id", ("tiny-farms", "farmerama", "farmers-finances"))
def test_gymnasium_solo_follows_a_plain_engine_replay(game_id: str) -> None:
    """The solo env's observation, mask and final reward at every step equal a plain replay of the same
    catalogue actions on the engine (the view-based encoding, the catalogue's legal indices)."""
    ready_or_skip(game_id)
    gym = pytest.importorskip("gymnasium")
    from farmtable.rl.gymnasium import env_id

    e = gym.make(env_id(game_id))
    sp = spec(game_id, 1)
    for seed in (1, 2):
        obs, info = e.reset(seed=seed)
        replay = e.unwrapped.state.clone()  # the dealt game, replayed on the engine beside the env
        rng = random.Random(seed)
        done = False
        while not done:
            assert np.array_equal(obs, sp.observe_view(replay, 0))
            legal = sp.legal(replay, 0)
            assert np.flatnonzero(info["action_mask"]).tolist() == sorted(legal)
            action = rng.choice(sorted(legal))
            obs, reward, done, _, info = e.step(action)
            replay.apply(0, legal[action])
        assert replay.is_over()
        assert reward == sp.rewards(replay, "score")[0]
