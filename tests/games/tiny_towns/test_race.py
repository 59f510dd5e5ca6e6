"""The 2-player race model and search (``race.py``, ``tiny-towns-duel:race=1``): the features are the same
from either seat, a complete town shows as such, rewards are win probabilities, the search repeats and
plays legal moves, and solo is unchanged."""

from __future__ import annotations

import numpy as np
import pytest

import farmtable
from farmtable.agents.greedy import GreedyAgent
from farmtable.core import Result
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.duel import DuelAgent
from farmtable.games.tiny_towns.race import (
    ALONE_FEATURES,
    RACE_FEATURES,
    RaceScale,
    RaceSearch,
    race_logit,
    race_row,
    race_weights,
    win_probability,
)
from farmtable.games.tiny_towns.rules import BUILD_PHASE, NAME_PHASE, PLACE_PHASE, TinyTownsState
from tests.games.tiny_towns.positions import two_players_at_a_name

GAME = farmtable.get_game("tiny-towns")


def _swapped(state: TinyTownsState) -> TinyTownsState:
    """The same position with the two seats' towns (and the Master Builder's hat) exchanged."""
    copy = state.clone()
    copy.towns = [copy.towns[1], copy.towns[0]]
    copy.mb = 1 - copy.mb
    copy._cache.clear()
    return copy


@pytest.mark.parametrize(("seed", "rounds"), [(3, 4), (4, 12)])
def test_the_features_are_the_same_from_either_seat(seed: int, rounds: int) -> None:
    state = two_players_at_a_name(seed, rounds)
    row = race_row(state)
    assert row.shape == (len(RACE_FEATURES),)
    assert np.allclose(race_row(_swapped(state)), -row)
    assert row[RACE_FEATURES.index("master_builder")] == (1.0 if state.mb == 0 else -1.0)
    p0 = win_probability(state, 0)
    assert 0.0 < p0 < 1.0
    assert win_probability(state, 1) == pytest.approx(1.0 - p0)


def test_a_complete_other_town_shows_and_the_town_still_building_counts_its_empty_squares() -> None:
    state = two_players_at_a_name(5, 8)
    town = state.towns[1]
    town.grid = [v or "wood" for v in town.grid]  # no empty square left: complete this round
    town.completed = state.round
    state._cache.clear()
    row = race_row(state)
    empties = state.towns[0].grid.count("")
    assert empties > 0
    assert row[RACE_FEATURES.index("complete")] == 1.0
    assert row[RACE_FEATURES.index("empty")] == float(empties)  # a complete town counts no empty square
    mine = sum(1 for v in state.towns[0].grid if v in C.RESOURCES)
    assert row[RACE_FEATURES.index("cubes")] == float(mine)  # ... and none of its cubes (only its score)
    assert row[RACE_FEATURES.index("tight")] == float(max(0, 4 - empties))
    racing, alone = race_weights()  # the data file matches the features; the alone model reads only its own
    assert racing.shape == alone.shape == (len(RACE_FEATURES),)
    assert all(alone[i] == 0.0 for i, f in enumerate(RACE_FEATURES) if f not in ALONE_FEATURES)
    assert race_logit(state) == pytest.approx(float(race_row(state) @ alone))  # one town complete: the alone model


def test_a_finished_game_rewards_the_winner_and_the_rewards_sum_to_one() -> None:
    scale = RaceScale()
    won = Result(totals=[12, 7], breakdown=[{}, {}], ranking=[[0], [1]])
    rewards = scale.of_result(won)
    assert rewards[0] > 0.9 > 0.1 > rewards[1]
    assert sum(rewards) == pytest.approx(1.0)
    shared = scale.of_result(Result(totals=[9, 9], breakdown=[{}, {}], ranking=[[0, 1]]))
    assert shared == pytest.approx([0.5, 0.5])
    state = two_players_at_a_name(6, 6)
    values = scale.of_values(scale.estimate(state))
    assert values[0] == pytest.approx(win_probability(state, 0))
    assert sum(values) == pytest.approx(1.0)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_race_search_plays_legal_moves_and_a_seeded_agent_repeats(seed: int) -> None:
    state = GAME.new_game(players=2, seed=seed)
    first = DuelAgent(seed=seed, time=60.0, race=1, iters=12)
    second = DuelAgent(seed=seed, time=60.0, race=1, iters=12)
    assert isinstance(first.race, RaceSearch)
    other = GreedyAgent(seed=0)
    phases = set()
    for _ in range(14):
        p = state.actors()[0]
        if p == 1:
            state.apply(p, other.act(state, p))
            continue
        assert isinstance(state, TinyTownsState)
        phases.add(state.phase)
        action = first.act(state, p)
        assert action in state.legal_actions(p)
        assert second.act(state, p) == action
        state.apply(p, action)
    assert {NAME_PHASE, PLACE_PHASE, BUILD_PHASE} <= phases


def test_the_race_search_uses_the_race_scale_in_two_players_only() -> None:
    search = RaceSearch(seed=1, iters=5)
    assert isinstance(search._scale(two_players_at_a_name(7, 2)), RaceScale)
    solo = GAME.new_game(players=1, seed=7)
    assert not isinstance(search._scale(solo), RaceScale)
    three = GAME.new_game(players=3, seed=7)
    assert not isinstance(search._scale(three), RaceScale)


def test_race_mode_is_named_in_the_spec_and_bad_values_are_refused() -> None:
    agent = DuelAgent(seed=1, time=1.0, race=1, iters=800)
    assert "race=1" in agent.spec and "iters=800" in agent.spec
    assert "race" not in DuelAgent(seed=1, time=1.0).spec  # the shipped specs are unchanged
    with pytest.raises(ValueError, match="race"):
        DuelAgent(seed=1, race=2)
    with pytest.raises(ValueError, match="iters"):
        DuelAgent(seed=1, race=1, iters=0)
