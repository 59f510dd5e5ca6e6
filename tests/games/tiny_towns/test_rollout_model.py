"""Session 11: the solo model a rollout player judges by (``evaluation.solo_model``, ``model=``), and the
parameter checks ``rollout.py`` and ``duel.py`` now share (``check_budget``, ``check_param``,
``decision_deadline``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import farmtable
import farmtable.agents
from farmtable.games.tiny_towns import evaluation as E
from farmtable.games.tiny_towns.duel import DuelAgent
from farmtable.games.tiny_towns.rollout import (
    RolloutAgent,
    check_budget,
    check_param,
    decision_deadline,
    name_candidates,
)
from farmtable.games.tiny_towns.rules import TinyTownsState

GAME = farmtable.get_game("tiny-towns")


@pytest.fixture
def two_models() -> Iterator[tuple[list[float], list[float]]]:
    """Weights with a ``solo`` model (the shipped one) and a ``flat`` model that values only empty squares."""
    shipped = [float(w) for w in E.load_weights()["solo"]]
    flat = [0.0] * len(E.FEATURES)
    flat[E.FEATURES.index("empty")] = 1.0
    E.set_weights({"solo": shipped, "flat": flat})
    yield shipped, flat
    E.set_weights(None)


def _played(players: int, seed: int, moves: int) -> TinyTownsState:
    state = GAME.new_game(players=players, seed=seed)
    agents = [farmtable.agents.make("greedy", seed=p) for p in range(players)]
    for _ in range(moves):
        player = state.actors()[0]
        state.apply(player, agents[player].act(state, player))
    assert isinstance(state, TinyTownsState)
    return state


def test_a_solo_model_judges_solo_games_inside_the_block_only(two_models: tuple[list[float], list[float]]) -> None:
    shipped, flat = two_models
    solo = _played(1, 3, 20)
    row = E.town_features(solo, 0)
    assert E.estimate(solo, 0) == pytest.approx(float(row @ shipped))
    with E.solo_model("flat"):
        assert E.estimate(solo, 0) == pytest.approx(float(row @ flat))
    assert E.estimate(solo, 0) == pytest.approx(float(row @ shipped))  # restored after the block


def test_a_solo_model_leaves_games_with_more_players_alone(two_models: tuple[list[float], list[float]]) -> None:
    duel = _played(2, 3, 20)
    before = E.evaluate(duel)
    with E.solo_model("flat"):
        assert E.evaluate(duel) == before


def test_an_unknown_model_is_refused_and_an_error_inside_restores_the_model(
    two_models: tuple[list[float], list[float]],
) -> None:
    with pytest.raises(ValueError, match="nope"), E.solo_model("nope"):
        pass
    solo = _played(1, 3, 10)
    before = E.estimate(solo, 0)
    with pytest.raises(RuntimeError), E.solo_model("flat"):
        raise RuntimeError
    assert E.estimate(solo, 0) == before
    with pytest.raises(ValueError, match="model"):
        RolloutAgent(seed=0, model="nope")


def test_the_rollout_orders_its_candidates_by_its_model(two_models: tuple[list[float], list[float]]) -> None:
    solo = _played(1, 5, 12)
    while solo.phase != "name":
        solo.apply(0, solo.legal_actions(0)[0])
    agent = RolloutAgent(seed=1, time=1000.0, k=2, worlds=1, model="flat")
    agent.act(solo, 0)
    with E.solo_model("flat"):
        flat = name_candidates(solo, True)[:2]
    shipped = name_candidates(solo, True)[:2]
    assert [(str(c.action), c.square) for c in flat] == [(a, sq) for a, sq, _ in agent.last["candidates"]]
    assert [c.prior for c in flat] != [c.prior for c in shipped]  # the two models differ here
    assert agent.last["candidates"][0][2] == pytest.approx(flat[0].prior)


def test_the_spec_passes_the_model_and_the_same_model_repeats(two_models: tuple[list[float], list[float]]) -> None:
    agent = farmtable.agents.make("tiny-towns-rollout:time=1000,k=2,worlds=1,model=flat", seed=3)
    assert isinstance(agent, RolloutAgent) and agent.model == "flat"
    state = _played(1, 7, 4)
    again = RolloutAgent(seed=3, time=1000.0, k=2, worlds=1, model="flat")
    assert agent.act(state, 0) == again.act(state, 0)


def test_the_shared_checks_name_the_agent_and_the_parameter() -> None:
    assert check_budget("a", 1, 2, 3) == (1.0, 2, 3)
    with pytest.raises(ValueError, match=r"^a: time must be a positive number"):
        check_budget("a", 0, 2, 3)
    with pytest.raises(ValueError, match=r"^b: k must be a whole number of at least 1, not 2\.5"):
        check_budget("b", 1.0, 2.5, 3)
    with pytest.raises(ValueError, match=r"^c: worlds must be a whole number of at least 1, not True"):
        check_budget("c", 1.0, 1, True)
    with pytest.raises(ValueError, match=r"^d: gift must be a number of at least 0, not -1"):
        check_param("d", "gift", -1, 0, False)
    check_param("d", "gift", 0.5, 0, False)
    with pytest.raises(ValueError, match="tiny-towns-duel: k must be a whole number"):
        DuelAgent(seed=0, k=0)
    with pytest.raises(ValueError, match="tiny-towns-rollout: wide must be a whole number of at least 1"):
        RolloutAgent(seed=0, wide=0)


def test_the_deadline_keeps_the_larger_of_the_unused_share_and_the_reserve() -> None:
    assert decision_deadline(10.0, 1.0, 0.95, 0.03) == pytest.approx(10.95)  # 5% of 1 s > 30 ms
    assert decision_deadline(10.0, 0.2, 0.95, 0.03) == pytest.approx(10.17)  # 30 ms > 5% of 0.2 s
    assert decision_deadline(0.0, 0.2, 0.75, 0.04) == pytest.approx(0.15)
