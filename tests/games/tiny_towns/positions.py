"""Hand-made Tiny Towns positions shared by the AI tests."""

from __future__ import annotations

import farmtable
from farmtable.agents.greedy import GreedyAgent
from farmtable.games.tiny_towns.rules import NAME_PHASE, TinyTownsState


def two_players_at_a_name(seed: int, rounds: int, agents: list[GreedyAgent] | None = None) -> TinyTownsState:
    """A 2-player game of ``seed`` after ``rounds`` rounds of greedy play, at the next Master Builder's name
    (the two greedy players are ``agents`` when given, so a caller can play on with them)."""
    state = farmtable.get_game("tiny-towns").new_game(players=2, seed=seed)
    assert isinstance(state, TinyTownsState)
    if agents is None:
        agents = [GreedyAgent(seed=1), GreedyAgent(seed=2)]
    while state.round < rounds or state.phase != NAME_PHASE:
        p = state.actors()[0]
        state.apply(p, agents[p].act(state, p))
    return state
