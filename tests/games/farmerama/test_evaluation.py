"""The Farmerama evaluation: final stars estimated from a position (``evaluation.py``).

Hand-built positions where one is plainly better must be rated higher; a finished game is rated
by its result; the estimate is one float per player and never reads hidden stacks or cards.
"""

from __future__ import annotations

import json
import random

import pytest

from farmtable.agents.greedy import GreedyAgent
from farmtable.games.farmerama import evaluation, planner
from farmtable.games.farmerama.components import ANIMALS, BEDS_OF_AREA, HARVEST, HEAD_SECTOR, PACIFIER_SECTOR
from farmtable.games.farmerama.rules import IN_STABLE, FarmeramaState, area_of_sector
from tests.games.farmerama.positions import move_good, new, sow_directly

SHEEP = ANIMALS.index("sheep")
HORSE = ANIMALS.index("horse")


def _random_play(players: int, seed: int, stop_after: int | None = None) -> FarmeramaState:
    state = new(players=players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over() and (stop_after is None or steps < stop_after):
        p = state.actors()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
        steps += 1
    return state


def _with_sheep_at(sector: int | None, water: int = 3, seed: int = 1) -> FarmeramaState:
    """A fresh solo game whose sheep stands on the pasture under ``sector`` (None: in the stable)."""
    state = new(players=1, seed=seed)
    board = state.boards[0]
    board.pasture[SHEEP] = IN_STABLE if sector is None else area_of_sector(board.wheel, sector)
    move_good(state, 0, "water", water)
    return state


@pytest.mark.parametrize("players", [1, 2, 3])
def test_a_finished_game_is_rated_by_its_result(players: int) -> None:
    state = _random_play(players, seed=players)
    assert state.is_over()
    result = state.result()
    expected = [float(result.solo_score)] if players == 1 else [float(t) for t in result.totals]
    assert state.evaluate() == expected


@pytest.mark.parametrize("players", [1, 2, 4])
def test_one_float_per_player(players: int) -> None:
    state = _random_play(players, seed=7, stop_after=30)
    values = state.evaluate()
    assert len(values) == players
    assert all(isinstance(v, float) for v in values)


@pytest.mark.parametrize("players", [1, 2])
def test_hidden_stacks_and_cards_do_not_matter(players: int) -> None:
    state = _random_play(players, seed=4, stop_after=12)
    assert not state.is_over()
    seen = {tuple(state.determinize(0, random.Random(s)).evaluate()) for s in range(6)}
    assert seen == {tuple(state.evaluate())}


def test_an_animal_on_its_way_to_the_pacifier_beats_one_in_the_stable() -> None:
    head = HEAD_SECTOR[SHEEP]
    assert _with_sheep_at(head).evaluate()[0] > _with_sheep_at(None).evaluate()[0]


def test_an_animal_nearer_the_pacifier_is_worth_more() -> None:
    head = HEAD_SECTOR[SHEEP]
    last = PACIFIER_SECTOR - 1  # on the pacifier itself the animal is already back in the stable
    assert _with_sheep_at(last).evaluate()[0] > _with_sheep_at(head).evaluate()[0]


@pytest.mark.parametrize("players", [1, 2])
def test_the_fitted_model_stays_available_for_research(players: int) -> None:
    """The play uses the hand estimate; the fitted one still reads its weights and rates positions."""
    running = _random_play(players, seed=5, stop_after=20)
    assert all(isinstance(evaluation.fitted_estimate(running, p), float) for p in range(players))
    finished = _random_play(players, seed=5)
    assert [evaluation.fitted_estimate(finished, p) for p in range(players)] == finished.evaluate()


def test_water_to_turn_the_wheel_is_worth_something() -> None:
    head = HEAD_SECTOR[SHEEP]
    assert _with_sheep_at(head, water=3).evaluate()[0] > _with_sheep_at(head, water=0).evaluate()[0]


def test_heuristic_with_several_players_is_own_estimate_minus_the_best_other() -> None:
    state = _random_play(3, seed=11, stop_after=40)
    values = state.evaluate()
    assert state.heuristic(1) == pytest.approx(values[1] - max(values[0], values[2]))


def test_the_share_of_the_game_left_runs_from_one_to_zero() -> None:
    assert evaluation.game_left(new(players=1)) == 1.0
    assert evaluation.game_left(new(players=2)) == 1.0
    assert evaluation.game_left(_random_play(1, seed=3)) == 0.0
    assert evaluation.game_left(_random_play(2, seed=3)) == 0.0


@pytest.mark.parametrize(
    "payload",
    [
        {"features": ["bias"], "solo": [0.0], "multi": [0.0]},
        {"features": list(evaluation.FEATURES), "multi": [0.0] * len(evaluation.FEATURES)},
    ],
)
def test_weights_that_do_not_fit_the_features_are_refused(payload: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"weights\.json"):
        evaluation.parse_weights(json.dumps(payload))


def test_solo_in_the_middle_of_a_turn_is_rated_by_the_best_way_to_finish_it() -> None:
    state = new(players=1, seed=9)
    state.apply(0, "card sow")
    assert state.evaluate() == [planner.best_completion(state)]
    done = state.clone()
    done.apply(0, "done")
    assert state.evaluate()[0] >= planner.plan_value(done)


def test_solo_greedy_clears_the_bar_to_bring_an_animal_home() -> None:
    """A horse one wheel turn from the pacifier, water in the barn, Harvest revealed, but a hay
    stack in the bar's path: the turn takes that stack, so the wheel is free to bring the horse
    home (now or later: the value is the same). The old evaluation saw no gain in the harvest."""
    state = new(players=1, seed=2)
    state.revealed = HARVEST
    board = state.boards[0]
    board.pasture[HORSE] = area_of_sector(board.wheel, PACIFIER_SECTOR - 1)
    move_good(state, 0, "water", 2)
    bar_area = area_of_sector(board.wheel, PACIFIER_SECTOR)
    sow_directly(state, 0, BEDS_OF_AREA[bar_area][0], "hay")
    assert planner.free_wheel_turns(board) == 0
    agent = GreedyAgent(seed=1)
    start_turn = state.turn
    while state.turn == start_turn:
        state.apply(0, agent.act(state, 0))
    board = state.boards[0]
    assert board.products[HORSE] == 1 or planner.free_wheel_turns(board) >= 1


def _two_player_sheep(water: int, stack_left: int) -> FarmeramaState:
    """A 2-player game in phase 1 whose seat 0 has its sheep just fed (3 wheel turns from the
    pacifier), ``water`` in the barn, and ``stack_left`` face-down buildings still in the stack."""
    state = new(players=2, seed=3)
    board = state.boards[0]
    board.pasture[SHEEP] = area_of_sector(board.wheel, HEAD_SECTOR[SHEEP])
    move_good(state, 0, "water", water)
    state.removed.extend(state.stack[stack_left:])
    del state.stack[stack_left:]
    return state


def test_two_players_rate_by_the_planners_board_value_with_the_actions_left() -> None:
    state = new(players=2, seed=8)  # phase 1, nothing chosen yet
    expected = [planner.board_value(state.boards[p], evaluation.actions_left(state, p)) for p in range(2)]
    assert state.evaluate() == expected


def test_two_players_a_chosen_card_is_worth_what_it_will_do() -> None:
    """Phase 1: choosing Sow counts the stacks it will sow (each adds a feed tile), choosing Feed the
    sheep it will feed (its feed is in the starting barn), choosing Harvest with nothing sown adds
    nothing; the other player's value does not change."""
    before = new(players=2, seed=8)
    sow, feed, harvest = before.clone(), before.clone(), before.clone()
    sow.apply(0, "card sow")
    feed.apply(0, "card feed")
    harvest.apply(0, "card harvest")
    assert sow.evaluate()[0] >= before.evaluate()[0] + 2
    assert feed.evaluate()[0] > before.evaluate()[0]
    assert harvest.evaluate()[0] == pytest.approx(before.evaluate()[0])
    assert sow.evaluate()[1] == feed.evaluate()[1] == before.evaluate()[1]


def test_two_players_the_actions_left_fall_as_the_buildings_run_out() -> None:
    early, late = _two_player_sheep(3, stack_left=8), _two_player_sheep(3, stack_left=0)
    assert evaluation.actions_left(early, 0) > evaluation.actions_left(late, 0) > 0


def test_two_players_water_matters_more_when_the_game_is_nearly_over() -> None:
    """A sheep still 3 wheel turns from the pacifier: without water it may never get there, and the
    nearer the end, the less it is worth; with the water in the barn it counts in full."""
    assert _two_player_sheep(3, 0).evaluate()[0] > _two_player_sheep(0, 0).evaluate()[0]
    assert _two_player_sheep(0, 8).evaluate()[0] > _two_player_sheep(0, 0).evaluate()[0]
    assert _two_player_sheep(3, 8).evaluate()[0] == _two_player_sheep(3, 0).evaluate()[0]
