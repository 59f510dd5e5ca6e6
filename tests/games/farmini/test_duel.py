"""The two-player Farmini player (``duel.py``) and the turn-completing moves it plays out."""

from __future__ import annotations

import random

import pytest

import farmtable
import farmtable.agents
from farmtable.agents.greedy import GreedyAgent
from farmtable.games.farmini import duel, evaluation
from farmtable.games.farmini.components import ALL_CARDS, AnimalCard, FenceCard
from farmtable.games.farmini.rules import FarminiState, Take
from tests.games.farmini.builders import make_state


def _game(players: int, seed: int) -> FarminiState:
    state = farmtable.get_game("farmini").new_game(players=players, seed=seed)
    assert isinstance(state, FarminiState)
    return state


def _random_play(players: int, seed: int, steps: int) -> FarminiState:
    state = _game(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        p = state.actors()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    return state


# --- completion_moves: the turn the lookahead values --------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_completion_moves_are_legal_and_reach_the_value_of_the_held_card(seed: int) -> None:
    model = evaluation.weights()[evaluation.MULTI_MODEL]
    state = _game(2, seed)
    rng = random.Random(seed)
    checked = {"fence": 0, "animal": 0}
    while not state.is_over():
        p = state.actors()[0]
        if state.pending is not None:
            moves = evaluation.completion_moves(state, p)
            card = ALL_CARDS[state.pending]
            trial = state.farms[p].copy()
            for move in moves:
                if isinstance(card, FenceCard):
                    trial.put_card(move.card, (move.x, move.y), move.rot)  # type: ignore[union-attr]
                else:
                    trial.animals[move.x, move.y, move.quarter] = move.kind  # type: ignore[union-attr]
            # the held card's estimate is the value of the farm after these moves (nothing revealed)
            assert evaluation.estimate(state, p) == pytest.approx(evaluation._value(state, p, trial, model))
            kind = "fence" if isinstance(card, FenceCard) else "animal"
            assert len(moves) == (1 if kind == "fence" else state.pending_left)
            checked[kind] += 1
            sim = state.clone()
            for move in moves:
                sim.apply(p, move)  # legal, or apply refuses it
            assert sim.pending is None and sim.current != p
        state.apply(p, rng.choice(state.legal_actions(p)))
    assert checked["fence"] > 3 and checked["animal"] > 3


def test_no_completion_moves_without_a_held_card() -> None:
    state = _game(2, 5)
    assert state.pending is None
    assert evaluation.completion_moves(state, 0) == []


# --- the agent ------------------------------------------------------------------------------


def test_the_agent_is_registered_and_refuses_bad_params_clearly() -> None:
    agent = farmtable.agents.make("farmini-duel:time=0.2", seed=1)
    assert isinstance(agent, duel.DuelAgent)
    for params, word in (
        ({"time": 0}, "time"),
        ({"time": "fast"}, "time"),
        ({"worlds": 0}, "worlds"),
        ({"worlds": 2.5}, "worlds"),
        ({"edge": -1}, "edge"),
        ({"plies": 3}, "plies"),
        ({"plies": True}, "plies"),
        ({"place": 2}, "place"),
    ):
        with pytest.raises(ValueError, match=word):
            duel.DuelAgent(seed=1, **params)  # type: ignore[arg-type]


def test_solo_decisions_are_the_greedy_agents() -> None:
    # gated on the player count: with one player every decision is greedy's, same random numbers
    state = _game(1, 11)
    mine, greedy = duel.DuelAgent(seed=3), GreedyAgent(seed=3)
    decisions = 0
    while not state.is_over():
        a, b = mine.act(state, 0), greedy.act(state, 0)
        assert a == b
        state.apply(0, a)
        decisions += 1
    assert decisions > 40


def test_a_seeded_duel_repeats_itself() -> None:
    state = _random_play(2, seed=4, steps=10)
    while state.pending is not None:  # a take decision
        p = state.actors()[0]
        state.apply(p, state.legal_actions(p)[0])
    p = state.actors()[0]
    assert isinstance(state.legal_actions(p)[0], Take)
    picks = []
    rated = []
    for _ in range(2):
        agent = duel.DuelAgent(seed=9, time=None, worlds=6)
        picks.append(agent.act(state, p))
        rated.append(agent.last_rated)
    assert picks[0] == picks[1]
    assert rated[0] == rated[1] and len(rated[0]) == len(state.legal_actions(p))
    assert picks[0] in state.legal_actions(p)


def test_no_world_is_started_once_the_budget_is_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    # an iteration-free check of the cap: a clock that jumps past the budget at the first reading
    # after the greedy ranking leaves no world rated, and the greedy agent's card is played
    state = _random_play(2, seed=6, steps=8)
    while state.pending is not None:
        p = state.actors()[0]
        state.apply(p, state.legal_actions(p)[0])
    p = state.actors()[0]
    readings = iter([0.0])  # the decision starts at 0; every later reading is 10 s on
    monkeypatch.setattr(duel.time, "process_time", lambda: next(readings, 10.0))
    agent = duel.DuelAgent(seed=2, time=0.2)
    pick = agent.act(state, p)
    assert agent.last_worlds == 0 and agent.last_rated == {}
    world = state.determinize(p, random.Random(0))
    values = {}
    for action in state.legal_actions(p):
        child = world.clone()
        child.apply(p, action)
        values[action] = evaluation.heuristic(child, p)
    assert values[pick] == max(values.values())


def test_a_taken_card_is_played_as_the_lookahead_values_it_or_as_greedy_plays_it() -> None:
    state = _random_play(2, seed=8, steps=6)
    checked = 0
    rng = random.Random(8)
    while not state.is_over() and checked < 6:
        p = state.actors()[0]
        if state.pending is not None and len(state.legal_actions(p)) > 1:
            seed = rng.randrange(1000)
            first = evaluation.completion_moves(state, p)[0]
            assert duel.DuelAgent(seed=seed).act(state, p) == first
            assert duel.DuelAgent(seed=seed, place=0).act(state, p) == GreedyAgent(seed=seed).act(state, p)
            checked += 1
        state.apply(p, rng.choice(state.legal_actions(p)))
    assert checked == 6


def test_the_reply_model_takes_the_card_of_best_heuristic() -> None:
    state = _random_play(2, seed=10, steps=4)
    while state.pending is not None:
        p = state.actors()[0]
        state.apply(p, state.legal_actions(p)[0])
    p = state.actors()[0]
    sim = state.clone()
    duel.greedy_take(sim, p)
    assert sim.pending is not None
    values = []
    for action in state.legal_actions(p):
        child = state.clone()
        child.apply(p, action)
        values.append(evaluation.heuristic(child, p))
    assert evaluation.heuristic(sim, p) == max(values)
    taken = ALL_CARDS[sim.pending]
    assert isinstance(taken, (FenceCard, AnimalCard))


def test_a_world_in_progress_at_the_stop_is_abandoned(monkeypatch: pytest.MonkeyPatch) -> None:
    # the clock reads 0 until the second card of the second world is about to be rated, then 10 s:
    # only the first world counts (every card rated on it), and no card has a partial sum
    state = _random_play(2, seed=6, steps=8)
    while state.pending is not None:
        p = state.actors()[0]
        state.apply(p, state.legal_actions(p)[0])
    p = state.actors()[0]
    cards = len(state.legal_actions(p))
    assert cards > 1
    # readings: start, world 1 (began, one per card, end), world 2 (began, first card), then late
    early = 1 + (1 + cards + 1) + (1 + 1)
    readings = iter([0.0] * early)
    monkeypatch.setattr(duel.time, "process_time", lambda: next(readings, 10.0))
    agent = duel.DuelAgent(seed=2, time=0.2)
    agent.act(state, p)
    assert agent.last_worlds == 1
    reference = duel.DuelAgent(seed=2, time=None, worlds=1)
    reference.act(state, p)
    assert agent.last_rated == reference.last_rated


# --- a hand-built two-player position: the card the other needs -----------------------------

TAKER = """
farm at 0,0
C1 at -1,0 rot 0
C3 at -1,1 rot 90
A1 at 0,1 rot 180
D4 at 1,0 rot 90
F2 at 1,-1 rot 90
C2 at 0,2 rot 180
D5 at 1,1 rot 90
A3 at 2,1 rot 270
chicken at 0,2/SW
chicken at 0,0/SW
goat at -1,0/SW
goat at 0,1/NE
"""
"""Seat 0 (the other player here): a farm with a pen still open; fence card C4 fits it."""

CHOOSER = """
farm at 0,0
D1 at 0,-1 rot 0
B1 at 0,1 rot 0
B6 at 1,1 rot 180
B4 at 1,0 rot 180
B3 at 1,2 rot 90
H4 at 0,2 rot 90
A4 at 0,-2 rot 0
D7 at 1,-1 rot 0
C8 at 1,-2 rot 270
"""
"""Seat 1, to take a card (deal 2001 of greedy against greedy, turn 19)."""

UNSEEN = ["A2", "B2", "B5", "C5", "C6", "C7", "D2", "D6", "D8", "E1", "E2", "F1", "F4", "G1", "G3", "H3"]
UNSEEN += ["K1", "K2", "K3", "P1", "P2", "P3", "P4", "WG1", "WK2", "WP1", "WP2"]


def test_the_duel_takes_the_card_the_other_would_take_next() -> None:
    # Face up: D3, C4, F3 and a goat (G2). Greedy (seat 1) takes the goat, rating only its own farm
    # against the other's; the other then takes C4 for its farm. The duel player rates each card
    # against that reply on the same sampled worlds and takes C4 itself: by its ratings, about a
    # point of expected margin better than the goat.
    state = make_state([TAKER, CHOOSER], table=["D3", "C4", "F3", "G2"], deck_top_first=UNSEEN, current=1)
    assert GreedyAgent(seed=3).act(state, 1) == Take(4)
    agent = duel.DuelAgent(seed=5, time=None, worlds=40)
    assert agent.act(state, 1) == Take(2)
    assert agent.last_rated[Take(2)] > agent.last_rated[Take(4)] + 0.5
    # the reply the duel player heads off: after greedy's goat, the other takes C4
    world = state.determinize(1, random.Random(1))
    world.apply(1, Take(4))
    duel.finish_turn(world, 1)
    duel.greedy_take(world, 0)
    assert world.pending == "C4"
