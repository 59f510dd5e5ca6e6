"""The solved solo game: Bellman equations, agreement with the real engine, optimal play reaches 70."""

from __future__ import annotations

import random
import statistics

import pytest

import farmtable
from farmtable.games.farmers_finances import solver
from farmtable.games.farmers_finances.rules import FarmersFinancesState
from tests.games.farmers_finances.positions import position

GAME = farmtable.get_game("farmers-finances")


def solo(seed: int, variants: tuple[str, ...] = ()) -> FarmersFinancesState:
    state = GAME.new_game(players=1, seed=seed, variants=variants)
    assert isinstance(state, FarmersFinancesState)
    return state


def sampled_positions(count: int, seed: int, variants: tuple[str, ...] = ()) -> list[FarmersFinancesState]:
    """Positions met in random solo games (random legal moves), a few from each game."""
    rng = random.Random(seed)
    found: list[FarmersFinancesState] = []
    game_seed = 0
    while len(found) < count:
        state = solo(1000 + game_seed, variants)
        game_seed += 1
        for _ in range(rng.randint(0, 25)):
            if state.is_over():
                break
            state.apply(0, rng.choice(state.legal_actions(0)))
        if not state.is_over():
            found.append(state)
    return found


@pytest.mark.parametrize("variants", [(), ("solo-six-choose",)])
def test_values_obey_the_bellman_equation_on_sampled_positions(variants: tuple[str, ...]) -> None:
    table = solver.solution(bool(variants))
    for state in sampled_positions(60, seed=3, variants=variants):
        values = table.action_values(state)
        assert set(values) == set(state.legal_actions(0))
        assert table.remaining_turns(state) == pytest.approx(min(values.values()), abs=1e-8)


def test_action_values_match_the_real_engine() -> None:
    """E[-evaluate after the action] through the engine (many dice) = turn + the solver's action value."""
    table = solver.solution()
    for state in sampled_positions(4, seed=11):
        for action, value in table.action_values(state).items():
            samples = []
            for k in range(400):
                world = state.determinize(0, random.Random(k))
                world.apply(0, action)
                samples.append(-world.evaluate()[0])
            mean = statistics.fmean(samples)
            error = statistics.stdev(samples) / len(samples) ** 0.5 if len(set(samples)) > 1 else 0.0
            assert abs(mean - (state.turn + value)) <= 4 * error + 1e-9, (state.to_json(), action)


def test_optimal_policy_reaches_70_in_every_game_and_near_the_exact_mean() -> None:
    table = solver.solution()
    turns = []
    for seed in range(60):
        state = solo(seed)
        start_value = -state.evaluate()[0]
        assert start_value > state.turn
        while not state.is_over():
            state.apply(0, table.best_action(state))
        assert state.money[0] >= 70
        assert state.result().objective == -state.turn == state.evaluate()[0]
        turns.append(state.turn)
    exact = table.expected_turns_from_start()
    spread = statistics.stdev(turns) / len(turns) ** 0.5
    assert abs(statistics.fmean(turns) - exact) <= 4 * spread


def test_turn_distribution_is_a_distribution_with_the_solved_mean() -> None:
    table = solver.solution()
    shares = table.finish_by_turn
    assert shares.min() >= 0
    assert shares.sum() == pytest.approx(1.0, abs=1e-9)
    mean = sum(turn * share for turn, share in enumerate(shares))
    assert mean == pytest.approx(table.expected_turns_from_start(), abs=1e-6)
    assert 0 < table.share_within(15) < table.share_within(20) < 1


def test_more_money_or_a_better_farm_never_needs_more_turns() -> None:
    table = solver.solution()
    poor = position(
        1, money=[20], farms=[(0, 0, 0)], piles=(["wheat", "animal", "wheat"], ["animal", "wheat", "wheat"])
    )
    rich = position(
        1, money=[40], farms=[(0, 0, 0)], piles=(["wheat", "animal", "wheat"], ["animal", "wheat", "wheat"])
    )
    assert table.remaining_turns(rich) < table.remaining_turns(poor)
    # Two bread in the farm (worth 14 at any market) beat the same piles without them.
    bread = position(1, money=[40], farms=[(0, 2, 0)], piles=(["animal", "wheat"], ["animal", "wheat"]))
    empty = position(
        1, money=[40], farms=[(0, 0, 0)], piles=(["animal", "wheat", "wheat"], ["animal", "wheat", "wheat"])
    )
    assert table.remaining_turns(bread) < table.remaining_turns(empty)


def test_one_sale_from_the_goal_is_one_turn() -> None:
    """With 2 animals on row 5 (12 each) and 50 coins, selling them wins now: no further turn."""
    table = solver.solution()
    state = position(1, money=[50], farms=[(0, 0, 2)], row=5, piles=(["wheat", "wheat"], ["wheat", "wheat"]))
    values = table.action_values(state)
    assert values["sell animal 2"] == 0.0
    assert table.best_action(state) == "sell animal 2"
    assert state.evaluate() == [-float(state.turn)]


def test_the_solver_refuses_a_multiplayer_game_and_a_finished_one() -> None:
    table = solver.solution()
    with pytest.raises(ValueError, match="solo"):
        table.remaining_turns(GAME.new_game(players=2, seed=1))  # type: ignore[arg-type]
    state = solo(4)
    while not state.is_over():
        state.apply(0, table.best_action(state))
    with pytest.raises(ValueError, match="over"):
        table.best_action(state)


def test_the_best_share_within_n_turns_bounds_the_expected_turns_policy() -> None:
    table = solver.solution()
    shares = [solver.best_share_within(turns) for turns in (14, 15, 20)]
    assert shares == sorted(shares)
    for turns, best in zip((14, 15, 20), shares, strict=True):
        assert table.share_within(turns) <= best + 1e-12
    with pytest.raises(ValueError, match="at least 1"):
        solver.best_share_within(0)
