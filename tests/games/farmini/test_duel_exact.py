"""The two-player Farmini player's exact placements (``farmini-duel:exact=1``)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import farmtable
import farmtable.agents
from farmtable.games.farmini import duel, evaluation
from farmtable.games.farmini.components import ALL_CARDS, FenceCard
from farmtable.games.farmini.rules import FarminiState


def _fence_decisions(seed: int, count: int) -> list[tuple[FarminiState, int]]:
    """Up to ``count`` two-player positions (random play, game seed ``seed``) where a player holds a
    fence card with more than one placement."""
    state = farmtable.get_game("farmini").new_game(players=2, seed=seed)
    assert isinstance(state, FarminiState)
    rng = random.Random(seed)
    found: list[tuple[FarminiState, int]] = []
    while not state.is_over() and len(found) < count:
        p = state.actors()[0]
        legal = state.legal_actions(p)
        if state.pending is not None and isinstance(ALL_CARDS[state.pending], FenceCard) and len(legal) > 1:
            found.append((state.clone(), p))
        state.apply(p, rng.choice(legal))
    return found


def _values(state: FarminiState, p: int) -> dict[Any, float]:
    values = {}
    for move in state.legal_actions(p):
        child = state.clone()
        child.apply(p, move)
        values[move] = evaluation.heuristic(child, p)
    return values


@pytest.mark.parametrize("seed", [3, 12])
def test_without_a_budget_the_placement_is_one_greedy_rates_best(seed: int) -> None:
    positions = _fence_decisions(seed, 4)
    assert positions
    for state, p in positions:
        pick = duel.DuelAgent(seed=1, time=None, exact=1).act(state, p)
        values = _values(state, p)
        assert values[pick] == pytest.approx(max(values.values()))


def test_the_placement_order_holds_every_legal_placement_once() -> None:
    for state, p in _fence_decisions(5, 3):
        order = evaluation.placement_order(state, p)
        assert len(order) == len(set(order))
        assert set(order) == set(state.legal_actions(p))
        assert order[0] == evaluation.placement_order(state, p)[0]


def test_a_spent_budget_plays_the_lookaheads_placement(monkeypatch: pytest.MonkeyPatch) -> None:
    # iteration-free: a clock 10 s on after the decision's first reading rates only the lookahead's move
    state, p = _fence_decisions(7, 1)[0]
    readings = iter([0.0])
    monkeypatch.setattr(time, "process_time", lambda: next(readings, 10.0))
    pick = duel.DuelAgent(seed=1, time=0.2, exact=1).act(state, p)
    assert pick == evaluation.completion_moves(state, p)[0]


def test_no_placements_without_a_held_fence_card() -> None:
    state = farmtable.get_game("farmini").new_game(players=2, seed=5)
    assert isinstance(state, FarminiState)
    assert evaluation.placement_order(state, 0) == []


def test_exact_is_a_spec_parameter_and_bad_values_are_refused() -> None:
    agent = farmtable.agents.make("farmini-duel:time=0.2,exact=1", seed=1)
    assert isinstance(agent, duel.DuelAgent)
    assert agent.spec == "farmini-duel:exact=1,time=0.2"
    for bad in (2, -1, True, 0.5):
        with pytest.raises(ValueError, match="exact"):
            duel.DuelAgent(seed=1, exact=bad)  # type: ignore[arg-type]
