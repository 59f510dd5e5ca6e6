"""The greedy agent: one step of lookahead on the game's own evaluation of the position.

For each legal action the agent plays it on a copy of the position and scores the
result with ``state.heuristic(player)`` (each game writes its heuristic next to its
rules). The copy is a *determinization* (``state.determinize(player, rng)``), never a
clone of the real state, so the agent cannot peek at hidden cards or at a simultaneous
choice another player has already made: given two states that look the same to its
player, it acts the same.

Two opt-in parameters, both off by default (``greedy`` alone plays exactly as it always has, the
same choices and the same draws from its seed): ``slip=P`` makes a beginner's opponent, who with
chance ``P`` at each decision with a choice plays its second-best move (the best one rated
strictly below the best); ``time=S`` caps the CPU seconds a decision may spend rating moves (the
moves not rated when it runs out are not considered), so the agent can stand in a level whose
rows carry a CPU cap.
"""

from __future__ import annotations

import random
import time as _time
from typing import Any

from farmtable.agents.base import Agent, legal_actions_or_refuse, old_objects_set_aside, register_agent
from farmtable.core import State


def greedy_choice(state: State[Any], player: int, rng: random.Random) -> int:
    """Index into ``state.legal_actions(player)`` of the action whose result scores best.

    ``state`` must already be safe to look at in full (a determinization), since this
    plays each action on a clone of it. Ties are broken at random with ``rng``; a move
    that ends the game is scored by its final result (a win beats any heuristic).
    """
    if len(state.legal_actions(player)) == 1:
        return 0
    return slipped_choice(ranked_values(state, player), False, rng)


def ranked_values(state: State[Any], player: int, deadline: float | None = None) -> list[tuple[float, int]]:
    """``(value, index)`` of each action of ``state.legal_actions(player)`` as :func:`greedy_choice`
    rates it, in legal order; with a ``deadline`` (a ``time.process_time`` reading), the actions
    not rated by then are left out (the first is always rated), and so is an action whose rating,
    were it as slow as the slowest one so far, would end after the deadline."""
    out: list[tuple[float, int]] = []
    slowest = 0.0
    for i, action in enumerate(state.legal_actions(player)):
        if deadline is not None:
            now = _time.process_time()
            if out and now + slowest > deadline:
                break
        child = state.clone()
        child.apply(player, action)
        out.append((terminal_value(child, player) if child.is_over() else child.heuristic(player), i))
        if deadline is not None:
            slowest = max(slowest, _time.process_time() - now)
    return out


def slipped_choice(rated: list[tuple[float, int]], slip: bool, rng: random.Random) -> int:
    """The index of the best-rated action in ``rated`` (``(value, index)`` pairs), or with ``slip``
    the best of those rated strictly below the best (the best again when all are equal); ties are
    broken at random with ``rng``."""
    top = max(value for value, _ in rated)
    pool = rated
    if slip:
        lower = [(value, i) for value, i in rated if value < top]
        if lower:
            pool, top = lower, max(value for value, _ in lower)
    best = [i for value, i in pool if value == top]
    return best[0] if len(best) == 1 else rng.choice(best)


WIN_BONUS = 1_000_000.0
"""Added to the heuristic of a move that wins the game outright (and taken off one that loses it)."""


def terminal_value(state: State[Any], player: int) -> float:
    """The value of a finished game for ``player``: the heuristic, plus a large bonus for a win."""
    value = state.heuristic(player)
    if state.players == 1:
        return value
    winners = state.result().winners
    if player in winners:
        return value + WIN_BONUS / len(winners)
    return value - WIN_BONUS


class GreedyAgent(Agent):
    """Plays the legal action whose resulting position the game's heuristic rates best.

    Parameters (both optional, off by default): ``slip`` (0-1: the chance, at each decision with a
    choice, of playing the second-best move instead: a beginner's opponent) and ``time`` (CPU
    seconds a decision may spend rating moves). The seed breaks ties, samples the determinization
    and draws the slips, so a seeded game replays exactly.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, slip: float = 0.0, time: float | None = None) -> None:
        if isinstance(slip, bool) or not isinstance(slip, (int, float)) or not 0.0 <= slip <= 1.0:
            raise ValueError(f"slip must be a chance between 0 and 1, got {slip!r}")
        if time is not None and (isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0):
            raise ValueError(f"time must be a positive number of CPU seconds, got {time!r}")
        params: dict[str, Any] = {}
        if slip:
            params["slip"] = slip
        if time is not None:
            params["time"] = time
        super().__init__(seed, **params)
        self.rng = random.Random(seed)
        self.slip = float(slip)
        self.time = None if time is None else float(time)

    def act(self, state: State[Any], player: int) -> Any:
        """The best-looking legal action of ``player`` after one step of lookahead."""
        start = _time.process_time()
        legal = legal_actions_or_refuse(state, player)
        if len(legal) == 1:
            return legal[0]
        world = state.determinize(player, random.Random(self.rng.getrandbits(64)))
        if not self.slip and self.time is None:  # plain greedy: the same choices and draws as ever
            return legal[greedy_choice(world, player, self.rng)]
        slip = bool(self.slip) and self.rng.random() < self.slip
        if self.time is None:
            return legal[slipped_choice(ranked_values(world, player), slip, self.rng)]
        with old_objects_set_aside():  # no full collection of older objects inside a capped decision
            rated = ranked_values(world, player, start + self.time)
        return legal[slipped_choice(rated, slip, self.rng)]


register_agent("greedy", GreedyAgent)
