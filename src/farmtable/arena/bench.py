"""``farmtable bench``: how fast a game plays, on one core, in this process.

Three numbers per game: random-play decisions per second (``legal_actions`` + ``apply``,
the hot path of every search), complete random games per second (set-up included),
and ISMCTS iterations per second (determinize + tree walk + random rollout) measured
on positions taken from a random game.

Rates are per second of this process's CPU time (``time.process_time``), so they measure
one core's speed even when other programs share the machine; the wall time is reported
beside them.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

import farmtable
from farmtable.agents.ismcts import IsmctsAgent
from farmtable.core import State


@dataclass(frozen=True)
class BenchResult:
    """The measured speed of one game."""

    game: str
    players: int
    decisions_per_s: float
    games_per_s: float
    decisions_per_game: float
    ismcts_iters_per_s: float
    seconds: float
    """Wall time the measurement took."""


def default_players(game_id: str) -> int:
    """2 if the game takes two players, else its smallest count."""
    game = farmtable.get_game(game_id)
    return 2 if game.min_players <= 2 <= game.max_players else game.min_players


def random_game(game_id: str, players: int, seed: int, variants: tuple[str, ...] = ()) -> tuple[State[Any], int]:
    """Play one game with uniformly random moves; returns the final state and the decision count."""
    rng = random.Random(seed)
    state = farmtable.get_game(game_id).new_game(players=players, seed=seed, variants=variants)
    decisions = 0
    while not state.is_over():
        player = state.actors()[0]
        legal = state.legal_actions(player)
        state.apply(player, legal[rng.randrange(len(legal))])
        decisions += 1
    return state, decisions


def positions(game_id: str, players: int, seed: int, count: int = 3) -> list[tuple[State[Any], int]]:
    """``count`` positions spread over one random game, each with the player to act."""
    rng = random.Random(seed)
    state = farmtable.get_game(game_id).new_game(players=players, seed=seed)
    _, length = random_game(game_id, players, seed)
    marks = {int(length * (i + 0.5) / count) for i in range(count)}
    out = []
    step = 0
    while not state.is_over():
        player = state.actors()[0]
        if step in marks:
            out.append((state.clone(), player))
        legal = state.legal_actions(player)
        state.apply(player, legal[rng.randrange(len(legal))])
        step += 1
    return out


def bench_game(game_id: str, seconds: float = 3.0, players: int | None = None, ismcts_iters: int = 100) -> BenchResult:
    """Measure one game: about ``seconds`` of CPU time of random play, then ISMCTS on three positions."""
    n = players or default_players(game_id)
    wall = time.perf_counter()
    start = time.process_time()
    games = decisions = 0
    while games == 0 or time.process_time() - start < seconds:
        _, d = random_game(game_id, n, seed=games)
        decisions += d
        games += 1
    elapsed = time.process_time() - start
    iterations = 0
    search_time = 0.0
    for i, (state, player) in enumerate(positions(game_id, n, seed=12345)):
        agent = IsmctsAgent(seed=i, iters=ismcts_iters)
        t0 = time.process_time()
        agent.search(state, player)
        search_time += time.process_time() - t0
        iterations += agent.last_iterations
    return BenchResult(
        game=game_id,
        players=n,
        decisions_per_s=decisions / elapsed,
        games_per_s=games / elapsed,
        decisions_per_game=decisions / games,
        ismcts_iters_per_s=iterations / search_time if search_time else float("nan"),
        seconds=time.perf_counter() - wall,
    )
