"""OpenSpiel: every ready game registered as a pyspiel Python game; random_sim_test; MCTS plays a game."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pyspiel", reason="the rl extra is not installed")

import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import farmtable
from farmtable.rl.openspiel import short_name
from tests.rl.conftest import all_games, ready_or_skip

MCTS_SIMULATIONS = 4


def params(game_id: str) -> dict[str, int | str]:
    """The smallest multiplayer game."""
    return {"players": max(2, farmtable.get_game(game_id).min_players), "seed": 1}


@pytest.mark.parametrize("game_id", all_games())
def test_random_sim(game_id: str) -> None:
    """pyspiel.random_sim_test with 2 players, and solo (score reward)."""
    ready_or_skip(game_id)
    game = pyspiel.load_game(short_name(game_id), params(game_id))
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    if farmtable.get_game(game_id).min_players == 1:
        solo = pyspiel.load_game(short_name(game_id), {"players": 1, "reward": "score"})
        pyspiel.random_sim_test(solo, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", all_games())
def test_mcts_plays_a_full_game(game_id: str) -> None:
    """OpenSpiel's MCTS bot (on determinized states) plays seat 0 to the end against random play."""
    ready_or_skip(game_id)
    game = pyspiel.load_game(short_name(game_id), params(game_id))
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=MCTS_SIMULATIONS,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        random_state=np.random.RandomState(0),
    )
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        player = state.current_player()
        if player == 0:
            # search on a determinization: hidden cards and future dice re-drawn, as seat 0 knows them
            action = bot.step(state.resample_from_infostate(0, rng.random))
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(0.0)


def test_seeded_games_are_reproducible_and_differ() -> None:
    """Successive initial states differ; the same seed parameter repeats the sequence."""
    a = pyspiel.load_game("python_farmtable_farmers_finances", {"players": 2, "seed": 4})
    b = pyspiel.load_game("python_farmtable_farmers_finances", {"players": 2, "seed": 4})
    first, second = str(a.new_initial_state()), str(a.new_initial_state())
    assert first != second
    assert str(b.new_initial_state()) == first


def test_cloning_keeps_the_seed_sequence() -> None:
    """pyspiel's clone starts from ``new_initial_state``: cloning (a used or a fresh state) neither draws a
    seed nor changes which games come next, and the clone is of the same game."""
    plain = pyspiel.load_game("python_farmtable_farmers_finances", {"players": 2, "seed": 9})
    expected = [str(plain.new_initial_state()) for _ in range(3)]
    cloned = pyspiel.load_game("python_farmtable_farmers_finances", {"players": 2, "seed": 9})
    fresh = cloned.new_initial_state()
    twin = fresh.clone()  # a state not used yet: its game is made first, then copied
    assert str(twin) == str(fresh) == expected[0]
    used = cloned.new_initial_state()
    used.apply_action(used.legal_actions()[0])
    for _ in range(3):
        assert str(used.clone()) == str(used)
    assert str(cloned.new_initial_state()) == expected[2]


def test_observation_tensor_is_the_view() -> None:
    """observation_tensor(p) is the encoded view of p; the string is the view's JSON."""
    game = pyspiel.load_game("python_farmtable_farmerama", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    sp = game.spec
    tensor = state.observation_tensor(1)
    assert isinstance(tensor, np.ndarray) and tensor.dtype == np.float32
    assert np.array_equal(tensor, sp.observe(state.inner, 1))
    assert '"my_cards":[]' in state.observation_string(1)


@pytest.mark.parametrize("game_id", all_games())
def test_python_side_answers_equal_pyspiels_bridge(game_id: str) -> None:
    """``legal_actions``, ``current_player`` and ``is_terminal`` are answered by the Python state (kept per
    move); they equal what pyspiel's C++ bridge (``PyState::LegalActions``) answers, for every seat, at
    every position of a random game, on clones too."""
    ready_or_skip(game_id)
    players = max(2, farmtable.get_game(game_id).min_players)
    game = pyspiel.load_game(short_name(game_id), {"players": players, "seed": 2})
    state = game.new_initial_state()
    rng = random.Random(2)
    moves = 0
    seen: list[tuple[int, int]] = []
    while not state.is_terminal() and moves < 150:
        current = state.current_player()
        assert current == state.inner.actors()[0]
        for p in range(players):
            assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p), (moves, p)
            assert (state.legal_actions(p) != []) == (p == current)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        twin = state.clone()
        assert twin.current_player() == current and twin.legal_actions() == state.legal_actions()
        action = rng.choice(state.legal_actions())
        seen.append((current, action))
        state.apply_action(action)
        moves += 1
    if state.is_terminal():
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
        assert all(state.legal_actions(p) == [] for p in range(players))
    assert [(pa.player, pa.action) for pa in state.full_history()] == seen  # pyspiel's own record of the moves
