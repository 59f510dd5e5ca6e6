"""Hypothesis properties of random play: money never negative, cards conserved (6 per copy)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import farmtable
from farmtable.games.farmers_finances.rules import FarmersFinancesState

GAME = farmtable.get_game("farmers-finances")

SETUPS = [(1, ()), (1, ("solo-six-choose",)), (2, ()), (2, ("empty-market-extra-change",)), (3, ()), (4, ())]


def _check_invariants(state: FarmersFinancesState) -> None:
    copies = 1 if state.players <= 2 else 2
    assert all(m >= 0 for m in state.money), f"negative money: {state.money}"
    wheat_market, animal_market = state.market_counts()
    wheat_farms = sum(h[0] + h[1] for h in state.hands)
    animal_farms = sum(h[2] for h in state.hands)
    # hand + market = 6 per copy: 4 wheat/bread and 2 animals
    assert wheat_market + wheat_farms == 4 * copies
    assert animal_market + animal_farms == 2 * copies
    assert all(n >= 0 for h in state.hands for n in h)
    assert 1 <= state.row <= 5
    if state.solo and not state.is_over():
        assert state.left and state.right, "a solo pile is empty between turns"


@settings(max_examples=60, deadline=None)
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(min_value=0, max_value=2**32),
    choices=st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=400),
)
def test_random_play_keeps_money_and_cards(setup: tuple[int, tuple[str, ...]], seed: int, choices: list[int]) -> None:
    players, variants = setup
    state = GAME.new_game(players=players, seed=seed, variants=variants)
    _check_invariants(state)
    for choice in choices:
        if state.is_over():
            break
        player = state.actors()[0]
        legal = state.legal_actions(player)
        state.apply(player, legal[choice % len(legal)])
        _check_invariants(state)


@settings(max_examples=30, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_end_with_someone_at_70(setup: tuple[int, tuple[str, ...]], seed: int) -> None:
    players, variants = setup
    state = GAME.new_game(players=players, seed=seed, variants=variants)
    steps = 0
    while not state.is_over():
        player = state.actors()[0]
        legal = state.legal_actions(player)
        state.apply(player, legal[(seed + steps * 7919) % len(legal)])
        steps += 1
        assert steps < 20_000
    assert max(state.money) >= 70
    if players > 1:
        assert state.current == players - 1, "the round was not completed"
