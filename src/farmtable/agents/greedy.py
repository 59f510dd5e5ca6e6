"""The greedy agent: one step of lookahead on the game's own evaluation of the position.

For each legal action the agent plays it on a copy of the position and scores the
result with ``state.heuristic(player)`` (each game writes its heuristic next to its
rules). The copy is a *determinization* (``state.determinize(player, rng)``), never a
clone of the real state, so the agent cannot peek at hidden cards or at a simultaneous
choice another player has already made: given two states that look the same to its
player, it acts the same.
"""

from __future__ import annotations

import random
from typing import Any

from farmtable.agents.base import Agent, legal_actions_or_refuse, register_agent
from farmtable.core import State


def greedy_choice(state: State[Any], player: int, rng: random.Random) -> int:
    """Index into ``state.legal_actions(player)`` of the action whose result scores best.

    ``state`` must already be safe to look at in full (a determinization), since this
    plays each action on a clone of it. Ties are broken at random with ``rng``; a move
    that ends the game is scored by its final result (a win beats any heuristic).
    """
    legal = state.legal_actions(player)
    if len(legal) == 1:
        return 0
    best: list[int] = []
    best_value = float("-inf")
    for i, action in enumerate(legal):
        child = state.clone()
        child.apply(player, action)
        value = terminal_value(child, player) if child.is_over() else child.heuristic(player)
        if value > best_value:
            best_value, best = value, [i]
        elif value == best_value:
            best.append(i)
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

    Parameters: none. The seed only breaks ties and samples the determinization.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)

    def act(self, state: State[Any], player: int) -> Any:
        """The best-looking legal action of ``player`` after one step of lookahead."""
        legal = legal_actions_or_refuse(state, player)
        if len(legal) == 1:
            return legal[0]
        world = state.determinize(player, random.Random(self.rng.getrandbits(64)))
        return legal[greedy_choice(world, player, self.rng)]


register_agent("greedy", GreedyAgent)
