"""The cheap cached playout (``playout.py``) and the duel player rating takes by it (``playout=N``)."""

from __future__ import annotations

import random

import pytest

import farmtable
import farmtable.agents
from farmtable.games.farmini import duel, evaluation, playout
from farmtable.games.farmini.components import ALL_CARDS, FenceCard
from farmtable.games.farmini.rules import Place, Take
from farmtable.games.farmini.scoring import GAPS_OPEN
from tests.games.farmini.positions import take_decision


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_plan_is_legal_and_worth_the_farm_it_makes(seed: int) -> None:
    # under the first gap reading the quick values are exact: a card's plan value is the value of the
    # farm after its moves (the cards still unseen as they are before the take)
    model = evaluation.weights()[evaluation.MULTI_MODEL]
    checked = {"fence": 0, "animal": 0}
    for steps in (4, 14, 24, 34):
        state, p = take_decision(seed, steps, (GAPS_OPEN,))
        for action in state.legal_actions(p):
            if not isinstance(action, Take):
                continue
            cid = state.table[action.slot - 1]
            plan = playout.card_plan(state, p, cid)
            assert plan is not None
            value, moves = plan
            trial = state.farms[p].copy()
            sim = state.clone()
            sim.apply(p, action)
            for move in moves:
                sim.apply(p, move)  # legal, or apply refuses it
                if isinstance(move, Place):
                    trial.put_card(move.card, (move.x, move.y), move.rot)
                else:
                    trial.animals[move.x, move.y, move.quarter] = move.kind
            assert sim.current != p and sim.pending is None  # the turn is over
            assert value == pytest.approx(evaluation._value(state, p, trial, model))
            checked["fence" if isinstance(ALL_CARDS[cid], FenceCard) else "animal"] += 1
    assert checked["fence"] > 2 and checked["animal"] > 2


def test_the_fast_rule_takes_the_card_of_best_plan_and_plays_its_whole_turn() -> None:
    state, p = take_decision(5, 12)
    cache = playout.PlanCache()
    action, plan = playout.fast_choice(state, p, cache)
    assert isinstance(action, Take) and plan is not None
    takes = [a for a in state.legal_actions(p) if isinstance(a, Take)]
    values = [playout.card_plan(state, p, state.table[a.slot - 1]) for a in takes]
    assert plan[0] == max(v[0] for v in values if v is not None)
    sim = state.clone()
    playout.fast_turn(sim, p, cache)
    assert sim.pending is None and (sim.is_over() or sim.current == 1 - p)
    assert state.table[action.slot - 1] not in sim.table  # the chosen card left the table


def test_the_cache_answers_a_farm_it_has_seen_and_not_another() -> None:
    state, p = take_decision(6, 10)
    cache = playout.PlanCache()
    cid = state.table[0]
    first = cache.plan(state, p, cid)
    again = cache.plan(state.clone(), p, cid)
    assert (cache.hits, cache.misses) == (1, 1) and again == first
    # another farm (the other player's) or other unseen cards: a new plan
    cache.plan(state, 1 - p, cid)
    other = state.clone()
    other.deck.pop()
    cache.plan(other, p, cid)
    assert cache.misses == 3


def test_a_rollout_leaves_the_world_alone_and_ends_in_the_games_result() -> None:
    state, p = take_decision(7, 8)
    world = state.determinize(p, random.Random(1))
    before = world.to_dict()
    take = state.legal_actions(p)[0]
    cache = playout.PlanCache()
    # no fast turn: the evaluation's margin right after the turn the duel finishes
    sim = world.clone()
    sim.apply(p, take)
    for move in playout.own_moves(world, p, take):
        sim.apply(p, move)
    assert playout.rollout_margin(world, p, take, 0, cache) == pytest.approx(duel.margin(sim, p))
    # to the end: the final totals' difference
    end = playout.rollout_margin(world, p, take, 999, cache)
    assert world.to_dict() == before
    assert end == int(end)
    assert cache.misses > 0


def test_playout_is_a_spec_parameter_and_bad_values_are_refused() -> None:
    agent = farmtable.agents.make("farmini-duel:time=1.0,playout=8", seed=1)
    assert isinstance(agent, duel.DuelAgent)
    assert agent.spec == "farmini-duel:playout=8,time=1.0"
    for bad in (-1, 2.5, True, "far"):
        with pytest.raises(ValueError, match="playout"):
            duel.DuelAgent(seed=1, playout=bad)  # type: ignore[arg-type]


def test_a_seeded_playout_duel_repeats_and_takes_its_best_rated_card() -> None:
    state, p = take_decision(4, 10)
    assert isinstance(state.legal_actions(p)[0], Take)
    picks, rated = [], []
    for _ in range(2):
        agent = duel.DuelAgent(seed=9, time=None, worlds=3, playout=4)
        picks.append(agent.act(state, p))
        rated.append(agent.last_rated)
    assert picks[0] == picks[1] and rated[0] == rated[1]
    assert len(rated[0]) == len(state.legal_actions(p))
    assert rated[0][picks[0]] == max(rated[0].values())
    # the greedy reply's ratings are other numbers on the same worlds
    reply = duel.DuelAgent(seed=9, time=None, worlds=3)
    reply.act(state, p)
    assert set(reply.last_rated) == set(rated[0]) and reply.last_rated != rated[0]
