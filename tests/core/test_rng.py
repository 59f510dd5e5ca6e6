"""The generator inside every state: reproducible for small seeds, unguessable for secret ones."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import farmtable
from farmtable.core.rng import MAX_STATE, Rng, unpredictable_seed


def test_small_seeds_keep_splitmix64_bit_for_bit() -> None:
    """Seeds below 2**64 run SplitMix64 exactly as before (saved games and golden tests depend on it)."""
    rng = Rng(0)
    # The published first outputs of SplitMix64 from state 0.
    assert [rng.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert not rng.keyed


def test_secret_seeds_are_128_bits_and_keyed() -> None:
    seeds = {unpredictable_seed() for _ in range(50)}
    assert len(seeds) == 50
    assert all(seed.bit_length() == 129 for seed in seeds)
    assert Rng().keyed and Rng.unpredictable().keyed


def test_a_keyed_generator_resumes_exactly_from_its_state() -> None:
    rng = Rng(unpredictable_seed())
    for _ in range(5):
        rng.next64()
    saved = rng.state
    ahead = [rng.next64() for _ in range(20)]
    again = Rng(saved)
    assert again.keyed
    assert [again.next64() for _ in range(20)] == ahead
    assert rng.copy().next64() == Rng(rng.state).next64()
    assert 0 <= saved <= MAX_STATE


def test_keyed_draws_look_uniform_and_differ_by_key() -> None:
    a, b = Rng(2**64 + 1), Rng(2**64 + 2)
    assert [a.next64() for _ in range(4)] != [b.next64() for _ in range(4)]
    die = Rng(2**100 + 5)
    counts = Counter(die.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(800 < n < 1200 for n in counts.values())


def test_keyed_fork_stays_keyed() -> None:
    assert Rng(2**70).fork().keyed
    assert not Rng(7).fork().keyed


def test_a_state_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="whole number"):
        Rng(-1)
    with pytest.raises(ValueError, match="whole number"):
        Rng(MAX_STATE + 1)


@pytest.mark.parametrize("game_id", farmtable.list_games())
def test_a_seedless_game_is_keyed_and_saves_and_resumes(game_id: str) -> None:
    """A game started without a seed cannot be recomputed from a guessed seed, and still saves exactly."""
    game = farmtable.get_game(game_id)
    state = game.new_game(players=game.min_players if game.min_players > 1 else 2)
    assert state.rng.keyed  # type: ignore[attr-defined]
    rng = random.Random(3)
    for _ in range(30):
        if state.is_over():
            break
        player = state.actors()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    saved = state.to_json()
    assert game.from_json(saved).to_json() == saved
