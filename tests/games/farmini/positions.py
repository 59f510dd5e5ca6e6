"""Hand-made Farmini positions shared by the AI tests."""

from __future__ import annotations

import random

import farmtable
from farmtable.games.farmini.rules import FarminiState


def take_decision(seed: int, steps: int, variants: tuple[str, ...] = ()) -> tuple[FarminiState, int]:
    """A 2-player game of ``seed`` after ``steps`` random decisions, played on to the next take decision
    (a pending card placed at its first legal spot); returns the state and the seat to take."""
    state = farmtable.get_game("farmini").new_game(players=2, seed=seed, variants=variants)
    assert isinstance(state, FarminiState)
    rng = random.Random(seed)
    for _ in range(steps):
        p = state.actors()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    while state.pending is not None:
        p = state.actors()[0]
        state.apply(p, state.legal_actions(p)[0])
    return state, state.actors()[0]
