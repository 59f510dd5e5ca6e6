"""The duel player's adaptive model of the other (``adapt=1``: a posterior over the other's level)."""

from __future__ import annotations

from itertools import combinations

import pytest

import farmtable.agents
from farmtable.games.farmerama import duel
from farmtable.games.farmerama.components import CARDS
from farmtable.games.farmerama.rules import ACT, AWARD, CHOOSE
from tests.games.farmerama.positions import choose, duel_position, greedy_round_start

PAIRS: list[tuple[int, ...]] = list(combinations(range(len(CARDS)), 2))


@pytest.mark.parametrize("seed", [4, 7])
def test_a_belief_all_on_the_top_level_is_the_level_model(seed: int) -> None:
    state = duel_position() if seed == 4 else greedy_round_start(seed, 3)
    plain = duel.choose_pair(state.clone(), 0, temp=0.5, deep=1.0, level=2)
    mixed = duel.choose_pair(state.clone(), 0, temp=0.5, deep=1.0, level=2, belief=[0.0, 0.0, 1.0])
    assert mixed == plain


@pytest.mark.parametrize("seed", [4, 7])
def test_a_belief_all_on_level_zero_is_the_softmax_answer(seed: int) -> None:
    state = duel_position() if seed == 4 else greedy_round_start(seed, 3)
    normal = duel.choose_pair(state.clone(), 0, temp=0.5)
    mixed = duel.choose_pair(state.clone(), 0, temp=0.5, deep=1.0, level=2, belief=[1.0, 0.0, 0.0])
    assert mixed == normal


def test_seen_holds_every_levels_forecast() -> None:
    state = greedy_round_start(7, 3)
    seen: dict[int, list[tuple[tuple[int, ...], float]]] = {}
    duel.choose_pair(state.clone(), 0, temp=0.5, deep=1.0, level=2, belief=[1.0, 1.0, 1.0], seen=seen)
    assert sorted(seen) == [0, 1, 2]
    for k in seen:
        assert [q for q, _ in seen[k]] == PAIRS
        assert sum(w for _, w in seen[k]) == pytest.approx(1.0)
    base = duel._base(state.clone(), 1)
    assert seen[0] == duel.opponent_model(base, 1, 0.5)


def test_a_belief_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match="belief"):
        duel.choose_pair(duel_position(), 0, temp=0.5, deep=1.0, level=2, belief=[1.0, 1.0])


def test_the_revealed_pair_moves_the_belief_to_the_level_that_foresaw_it() -> None:
    state = duel_position()
    agent = farmtable.agents.make("farmerama-duel:time=1.0,temp=0.5,deep=1,level=2,adapt=1")
    assert isinstance(agent, duel.DuelAgent)
    theirs = (CARDS.index("sow"), CARDS.index("water"))
    other = next(q for q in PAIRS if q != theirs)
    # level 0 gave the pair 0.5, level 1 nothing, level 2 all (hand-made forecasts)
    forecast = {
        0: [(q, 0.5 if q in (theirs, other) else 0.0) for q in PAIRS],
        1: [(q, 1.0 if q == other else 0.0) for q in PAIRS],
        2: [(q, 1.0 if q == theirs else 0.0) for q in PAIRS],
    }
    agent._forecast = (state.round, forecast)
    choose(state, tuple(CARDS[c] for c in PAIRS[0]), tuple(CARDS[c] for c in theirs))
    assert state.phase in (AWARD, ACT)
    agent.observe(state, 0)
    assert agent._forecast is None
    assert agent.belief[2] > agent.belief[0] > agent.belief[1]
    assert sum(agent.belief) == pytest.approx(1.0)
    assert agent.history[-1]["theirs"] == list(theirs)
    assert agent.history[-1]["chances"] == [0.5, 0.0, 1.0]


def test_no_observation_before_the_reveal_and_none_of_a_later_round() -> None:
    state = duel_position()
    agent = farmtable.agents.make("farmerama-duel:time=1.0,temp=0.5,deep=1,level=2,adapt=1")
    assert isinstance(agent, duel.DuelAgent)
    forecast = {k: [(q, 0.1) for q in PAIRS] for k in range(3)}
    agent._forecast = (state.round, forecast)
    assert state.phase == CHOOSE
    agent.observe(state, 0)  # still choosing: kept for the reveal
    assert agent._forecast is not None and agent.history == []
    agent._forecast = (state.round - 1, forecast)
    agent.observe(state, 0)  # a past round's forecast: dropped, the belief unchanged
    assert agent._forecast is None and agent.belief == pytest.approx([1 / 3] * 3)


def test_against_the_hard_player_the_belief_moves_off_level_zero() -> None:
    # The Hard level (deep=1) is level 2 of the level-k ladder; its pairs are foreseen by the
    # level-2 model (test_duel_levels.py), so a few rounds make level 0 (the softmax of pairs
    # played alone) the least likely.
    state = greedy_round_start(7, 2)
    agents = [
        farmtable.agents.make("farmerama-duel:temp=0.5,deep=1,level=2,adapt=1", seed=1, game="farmerama", players=2),
        farmtable.agents.make("farmerama-duel:temp=0.5,deep=1", seed=2, game="farmerama", players=2),
    ]
    for agent in agents:
        assert isinstance(agent, duel.DuelAgent)
        agent.budget = None  # no clock: the same choices on every machine
    mine = agents[0]
    assert isinstance(mine, duel.DuelAgent)
    while state.round < 5 and not state.is_over():
        p = state.actors()[0]
        state.apply(p, agents[p].act(state, p))
    assert len(mine.history) >= 2
    assert all(h["chances"][2] > 0 for h in mine.history)  # every Hard pair was among the level-2 picks
    assert mine.belief[0] == min(mine.belief) < 1 / 3


def test_adapt_is_a_spec_parameter_and_needs_deep() -> None:
    agent = farmtable.agents.make("farmerama-duel:time=1.0,temp=0.5,deep=1,level=2,adapt=1")
    assert isinstance(agent, duel.DuelAgent)
    assert agent.adapt and agent.belief == pytest.approx([1 / 3] * 3)
    assert "adapt=1" in agent.spec
    assert "adapt" not in farmtable.agents.make("farmerama-duel:deep=1").spec
    with pytest.raises(ValueError, match="adapt"):
        farmtable.agents.make("farmerama-duel:adapt=1")
    with pytest.raises(ValueError, match="adapt"):
        farmtable.agents.make("farmerama-duel:deep=1,adapt=2")
