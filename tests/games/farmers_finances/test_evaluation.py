"""Farmers Finances evaluation: solo from the solved game, 2-4 players from money and cards."""

from __future__ import annotations

import random

import farmtable
from farmtable.games.farmers_finances import evaluation, solver
from farmtable.games.farmers_finances.rules import FarmersFinancesState
from tests.games.farmers_finances.positions import position

GAME = farmtable.get_game("farmers-finances")


def finished(players: int, seed: int) -> FarmersFinancesState:
    rng = random.Random(seed)
    state = GAME.new_game(players=players, seed=seed)
    assert isinstance(state, FarmersFinancesState)
    while not state.is_over():
        (player,) = state.actors()
        state.apply(player, rng.choice(state.legal_actions(player)))
    return state


def test_a_finished_multiplayer_game_evaluates_to_its_money() -> None:
    for players in (2, 3):
        state = finished(players, seed=players)
        assert state.evaluate() == [float(t) for t in state.result().totals]


def test_solo_evaluate_is_minus_turns_plus_the_solved_remaining_turns() -> None:
    state = position(1, money=[30], farms=[(1, 0, 1)], row=2, turn=6)
    remaining = solver.solution().remaining_turns(state)
    assert state.evaluate() == [-(6 + remaining)]
    done = finished(1, seed=3)
    assert done.evaluate() == [-float(done.turn)] and done.result().objective == -done.turn


def test_the_solo_heuristic_averages_the_market_row_out() -> None:
    """Two positions that differ only by the row this turn's die (1-5) picked look the same to greedy."""
    low = position(1, money=[30], farms=[(1, 0, 1)], row=1, turn=6, last_roll=1)
    high = position(1, money=[30], farms=[(1, 0, 1)], row=5, turn=6, last_roll=5)
    assert low.evaluate() != high.evaluate()
    assert low.heuristic(0) == high.heuristic(0)
    # A rolled 6 is not averaged: the farm was sold at the row the die left in place.
    six = position(1, money=[30], farms=[(0, 0, 0)], row=3, turn=6, last_roll=6)
    assert six.heuristic(0) == six.evaluate()[0]


def test_cards_count_towards_the_expected_money_and_the_heuristic_is_relative() -> None:
    rich = position(2, money=[30, 30], farms=[(0, 2, 1), (0, 0, 0)])
    assert rich.evaluate()[0] > rich.evaluate()[1]
    assert rich.heuristic(0) > 0 > rich.heuristic(1)
    assert evaluation.card_worth(rich, 0) == 30 + 2 * 7 + 10
