"""Session 18 (rl18b): the faster OpenSpiel observations and Farmini encoder say what the plain encoding says.

- OpenSpiel's ``observation_tensor`` hands out read-only arrays; an array the caller let go of is rewritten
  in place for the same seat, one the caller keeps never changes (every game, every seat, random games);
- Farmini's ``fresh_tracked``/``rewrite`` (the in-place writer OpenSpiel uses) and the encoder's layouts grown
  card by card equal the view-based encoding on random games of every player count and variant set, also on
  clones and determinized copies (farms met without their history).
"""

from __future__ import annotations

import gc
import random
import weakref

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pyspiel", reason="the rl extra is not installed")

import numpy as np
import pyspiel

import farmtable
import farmtable.rl.openspiel  # registers the games
from farmtable.rl import farmini
from farmtable.rl.catalogue import spec, variant_sets
from farmtable.rl.openspiel import short_name
from tests.rl.conftest import all_games, ready_or_skip

KEEP_EVERY = 5
"""Every ``KEEP_EVERY``-th observation is kept (with a copy) by the test, the others are let go of."""


@pytest.mark.parametrize("game_id", all_games())
def test_openspiel_observations_are_read_only_and_kept_ones_never_change(game_id: str) -> None:
    """Every seat's ``observation_tensor`` is the view's encoding and read-only at every step of a random game;
    the observations kept along the way still hold what they held when handed out."""
    ready_or_skip(game_id)
    players = max(2, farmtable.get_game(game_id).min_players)
    game = pyspiel.load_game(short_name(game_id), {"players": players, "seed": 5})
    sp = game.spec
    state = game.new_initial_state()
    rng = random.Random(5)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    seen = 0
    while not state.is_terminal() and seen < 400:
        for seat in range(players):
            tensor = state.observation_tensor(seat)
            assert not tensor.flags.writeable
            assert np.array_equal(tensor, sp.observe_view(state.inner, seat)), (seen, seat)
            if seen % KEEP_EVERY == 0:
                kept.append((tensor, tensor.copy()))
            seen += 1
            del tensor
        state.apply_action(rng.choice(state.legal_actions()))
    assert kept
    for tensor, copy in kept:
        assert np.array_equal(tensor, copy)


@pytest.mark.parametrize("game_id", ["farmini", "tiny-towns", "farmers-finances"])
def test_openspiel_rewrites_a_released_observation_in_place_and_never_a_kept_one(game_id: str) -> None:
    """An observation the caller let go of is the array the next observation of that seat is written into;
    one the caller keeps (or keeps a view of) is not written again: the next one is a new array."""
    ready_or_skip(game_id)
    game = pyspiel.load_game(short_name(game_id), {"players": 2, "seed": 9})
    sp = game.spec
    state = game.new_initial_state()
    rng = random.Random(9)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    released = weakref.ref(state.observation_tensor(0))
    gc.collect()
    state.apply_action(rng.choice(state.legal_actions()))
    again = state.observation_tensor(0)
    assert released() is again  # the state kept it and wrote the new observation into it
    assert np.array_equal(again, sp.observe_view(state.inner, 0))
    part = again[:10]  # a view keeps the array too
    copy = again.copy()
    del again
    state.apply_action(rng.choice(state.legal_actions()))
    fresh = state.observation_tensor(0)
    assert fresh.base is not part.base and not np.shares_memory(fresh, part)
    assert np.array_equal(part, copy[:10])
    assert np.array_equal(fresh, sp.observe_view(state.inner, 0))
    with pytest.raises(ValueError):
        fresh[0] = 1.0


def test_openspiel_clone_does_not_share_observation_arrays() -> None:
    """A clone keeps its own arrays: observing the clone never writes into the original's observations."""
    game = pyspiel.load_game(short_name("farmini"), {"players": 2, "seed": 4})
    sp = game.spec
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    mine = state.observation_tensor(0)
    expected = mine.copy()
    twin = state.clone()
    for _ in range(8):
        twin.apply_action(rng.choice(twin.legal_actions()))
        twin.observation_tensor(0)
    assert np.array_equal(mine, expected)
    assert np.array_equal(twin.observation_tensor(0), sp.observe_view(twin.inner, 0))


def _farmini_specs() -> list[tuple[int, tuple[str, ...]]]:
    game = farmtable.get_game("farmini")
    return [
        (players, variants)
        for players in range(game.min_players, game.max_players + 1)
        for variants in variant_sets("farmini", players)
    ]


@pytest.mark.parametrize(("players", "variants"), _farmini_specs())
def test_farmini_rewrite_in_place_equals_the_view_encoding(players: int, variants: tuple[str, ...]) -> None:
    """``fresh_tracked`` then ``rewrite`` into one array per seat (observed at random moments, so an array
    may be several moves behind) write the view's encoding, on random games with a fresh encoder each (the
    layouts grown card by card from their last one) and on clones and determinizations of their positions
    (farms met without their history: layouts keyed by content)."""
    ready_or_skip("farmini")
    sp = spec("farmini", players, variants)
    encoder = farmini.fast_encoder(sp)
    game = farmtable.get_game("farmini")
    checked = 0
    for seed in range(3):
        state = game.new_game(players=players, seed=seed, variants=variants)
        rng = random.Random(seed)
        arrays: list[tuple[np.ndarray, list[object]] | None] = [None] * players
        while not state.is_over():
            for seat in range(players):
                if rng.random() < 0.6:
                    continue
                kept = arrays[seat]
                if kept is None:
                    kept = arrays[seat] = encoder.fresh_tracked(state, seat)
                else:
                    encoder.rewrite(state, seat, kept[0], kept[1])
                assert np.array_equal(kept[0], sp.observe_view(state, seat)), (seed, seat, checked)
                checked += 1
            if rng.random() < 0.1:
                twin = state.clone() if rng.random() < 0.5 else state.determinize(0, rng.randrange(10**6))
                seat = rng.randrange(players)
                assert np.array_equal(encoder.fresh_tracked(twin, seat)[0], sp.observe_view(twin, seat))
            player = state.actors()[0]
            legal = state.legal_actions(player)
            state.apply(player, legal[rng.randrange(len(legal))])
    assert checked > 50
