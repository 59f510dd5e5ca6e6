"""The race model's look-ahead at pending placements (``race.pending_grid``, ``race_row(ahead=True)``,
``tiny-towns-duel:race=1,ahead=1``, session 16): a town that still has to place the named resource is read
with it on its best square, a town that has placed is read as it is, and the spec refuses ``ahead`` without
``race``."""

from __future__ import annotations

import numpy as np
import pytest

import farmtable
from farmtable.agents.greedy import GreedyAgent
from farmtable.games.tiny_towns.duel import DuelAgent
from farmtable.games.tiny_towns.evaluation import estimate
from farmtable.games.tiny_towns.race import RACE_FEATURES, RaceScale, pending_grid, race_row
from farmtable.games.tiny_towns.rules import NAME_PHASE, PLACE, PLACE_PHASE, TinyTownsState
from tests.games.tiny_towns.positions import two_players_at_a_name

GAME = farmtable.get_game("tiny-towns")
EMPTY = RACE_FEATURES.index("empty")


def _at_placement(seed: int, rounds: int) -> TinyTownsState:
    """A 2-player game of ``seed`` after ``rounds`` rounds of greedy play, just after a resource is named."""
    agents = [GreedyAgent(seed=1), GreedyAgent(seed=2)]
    state = two_players_at_a_name(seed, rounds, agents)
    p = state.actors()[0]
    state.apply(p, agents[p].act(state, p))
    assert state.phase == PLACE_PHASE
    return state


@pytest.mark.parametrize(("seed", "rounds"), [(3, 5), (8, 10)])
def test_the_pending_grid_puts_the_named_resource_on_the_best_empty_square(seed: int, rounds: int) -> None:
    state = _at_placement(seed, rounds)
    for p in range(2):
        grid = pending_grid(state, p)
        assert grid is not None
        town = state.towns[p]
        changed = [sq for sq in range(len(grid)) if grid[sq] != town.grid[sq]]
        assert len(changed) == 1
        assert grid[changed[0]] == state.named and not town.grid[changed[0]]
        values = []
        for sq, v in enumerate(town.grid):
            if not v:
                trial = town.grid[:]
                trial[sq] = state.named
                values.append(estimate(state, p, trial))
        assert estimate(state, p, grid) == pytest.approx(max(values))


def test_no_pending_grid_at_a_name_or_once_the_town_has_placed() -> None:
    state = _at_placement(3, 5)
    named = GAME.new_game(players=2, seed=3)
    assert isinstance(named, TinyTownsState)
    while named.phase != NAME_PHASE:
        p = named.actors()[0]
        named.apply(p, GreedyAgent(seed=1).act(named, p))
    assert pending_grid(named, 0) is None and pending_grid(named, 1) is None
    square = next(sq for sq, v in enumerate(state.towns[0].grid) if not v)
    state.apply(0, next(a for a in state.legal_actions(0) if a.verb == PLACE and a.target == square))
    assert pending_grid(state, 0) is None
    assert pending_grid(state, 1) is not None


def test_the_look_ahead_counts_the_cube_of_a_town_still_to_place_only() -> None:
    state = _at_placement(8, 10)
    square = next(sq for sq, v in enumerate(state.towns[0].grid) if not v)
    state.apply(0, next(a for a in state.legal_actions(0) if a.verb == PLACE and a.target == square))
    plain, ahead = race_row(state), race_row(state, ahead=True)
    # seat 0's cube is already counted (its hidden choice is on its board); seat 1's is looked ahead:
    # its town has one empty square fewer, so seat 0 less seat 1 has one more
    assert ahead[EMPTY] == plain[EMPTY] + 1
    assert not np.allclose(plain, ahead)
    assert RaceScale(ahead=True).estimate(state) != RaceScale().estimate(state)


def test_ahead_is_named_in_the_spec_and_refused_without_race() -> None:
    agent = DuelAgent(seed=1, time=1.0, race=1, iters=10, ahead=1)
    assert agent.race is not None and agent.race.ahead
    assert "ahead=1" in agent.spec
    assert "ahead" not in DuelAgent(seed=1, time=1.0, race=1, iters=10).spec
    with pytest.raises(ValueError, match="ahead"):
        DuelAgent(seed=1, ahead=1)
    with pytest.raises(ValueError, match="ahead"):
        DuelAgent(seed=1, race=1, ahead=2)


def test_a_seeded_look_ahead_search_repeats_and_plays_a_legal_name() -> None:
    state = _at_placement(4, 9)
    while state.phase != NAME_PHASE:
        p = state.actors()[0]
        state.apply(p, GreedyAgent(seed=3).act(state, p))
    mb = state.actors()[0]
    picks = [DuelAgent(seed=11, time=5.0, race=1, iters=60, ahead=1).act(state, mb) for _ in range(2)]
    assert picks[0] == picks[1]
    assert picks[0] in state.legal_actions(mb)
