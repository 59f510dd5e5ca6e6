"""The two-player Farmini player rating a take by its chance to win (``farmini-duel:width=w``)."""

from __future__ import annotations

import pytest

import farmtable
import farmtable.agents
from farmtable.games.farmini import duel
from farmtable.games.farmini.rules import Take
from tests.games.farmini.positions import take_decision


def test_the_win_chance_is_a_sigmoid_of_the_margin() -> None:
    assert duel.win_chance(0.0, 2.0) == 0.5
    assert duel.win_chance(2.0, 2.0) == pytest.approx(1 / (1 + 2.718281828459045**-1))
    assert duel.win_chance(-1.0, 2.0) + duel.win_chance(1.0, 2.0) == pytest.approx(1.0)
    assert duel.win_chance(1e9, 1.0) == pytest.approx(1.0) and duel.win_chance(-1e9, 1.0) == pytest.approx(0.0)


def test_a_take_is_rated_by_its_mean_win_chance_on_the_same_worlds() -> None:
    state, p = take_decision(4, 10)
    assert isinstance(state.legal_actions(p)[0], Take)
    by_margin = duel.DuelAgent(seed=9, time=None, worlds=4)
    by_chance = duel.DuelAgent(seed=9, time=None, worlds=4, width=2.0)
    by_margin.act(state, p)
    pick = by_chance.act(state, p)
    assert set(by_chance.last_rated) == set(by_margin.last_rated)
    assert all(0.0 <= v <= 1.0 for v in by_chance.last_rated.values())
    assert by_chance.last_rated[pick] == max(by_chance.last_rated.values())


def test_width_is_a_spec_parameter_and_bad_values_are_refused() -> None:
    agent = farmtable.agents.make("farmini-duel:time=0.2,width=2", seed=1)
    assert isinstance(agent, duel.DuelAgent)
    assert agent.spec == "farmini-duel:time=0.2,width=2"
    for bad in (-1.0, float("inf"), True, "wide"):
        with pytest.raises(ValueError, match="width"):
            duel.DuelAgent(seed=1, width=bad)  # type: ignore[arg-type]
