"""Shared helpers for agent tests: which games to run, and positions taken from random play."""

from __future__ import annotations

import random
from typing import Any

import farmtable
from farmtable.core import State
from tests.agents import toy


def game_ids() -> list[str]:
    """Every registered game that starts and plays a few moves (games still being written are left out), + the toy."""
    ids = []
    for gid in farmtable.list_games():
        try:
            mid_game(gid, 2, seed=0, steps=5)
        except Exception:  # a game under construction: its own tests report it
            continue
        ids.append(gid)
    return [*ids, toy.GAME_ID]


def players_for(game_id: str) -> int:
    """2 if the game takes two players, else its minimum."""
    game = _game(game_id)
    return 2 if game.min_players <= 2 <= game.max_players else game.min_players


def _game(game_id: str) -> farmtable.Game[Any]:
    if game_id == toy.GAME_ID:
        return toy.ToyState.game
    return farmtable.get_game(game_id)


def mid_game(game_id: str, players: int, seed: int, steps: int) -> State[Any]:
    """A position after up to ``steps`` random decisions (not over, unless the game is that short)."""
    state = _game(game_id).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        actors = state.actors()
        if not actors:
            break
        p = actors[0]
        legal = state.legal_actions(p)
        nxt = state.clone()
        nxt.apply(p, rng.choice(legal))
        if nxt.is_over():
            break
        state = nxt
    return state


def play(game_id: str, specs: list[str], seed: int) -> tuple[list[str], list[int]]:
    """Play a game with one agent per seat; the (player, notation) log as text and the totals."""
    import farmtable.agents

    state = _game(game_id).new_game(players=len(specs), seed=seed)
    agents = [farmtable.agents.make(spec, seed=seed * 31 + i) for i, spec in enumerate(specs)]
    log = []
    while not state.is_over():
        p = state.actors()[0]
        action = agents[p].act(state, p)
        assert action in state.legal_actions(p)
        state.apply(p, action)
        log.append(f"{p}:{action}")
        assert len(log) < 50_000
    return log, state.result().totals
