"""What ISMCTS would play in a position, and how likely it thinks each move is to win."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from farmtable.agents.ismcts import IsmctsAgent, MoveStat
from farmtable.core import State


@dataclass(frozen=True)
class Hint:
    """The search's advice for ``player``: moves most visited first, the first being its choice."""

    player: int
    moves: list[MoveStat]
    iterations: int
    solo: bool

    @property
    def best(self) -> MoveStat:
        """The move ISMCTS would play."""
        return self.moves[0]


def hint(
    state: State[Any],
    player: int | None = None,
    iters: int | None = 1000,
    time: float | None = None,
    seed: int | None = 0,
) -> Hint:
    """Search the position for ``player`` (default: the first player to act) and return the advice.

    With several players ``value`` is the estimated win rate of each move; solo it is a
    score scaled to [0, 1] between the worst and best results the search saw.
    Raises ``ValueError`` if the game is over or ``player`` has no decision to make.
    """
    if state.is_over():
        raise ValueError("the game is over: there is nothing to decide")
    actors = state.actors()
    p = actors[0] if player is None else player
    if p not in actors:
        raise ValueError(f"player {p} has no decision now; waiting for " + ", ".join(f"player {a}" for a in actors))
    agent = IsmctsAgent(seed=seed, iters=None if time is not None else iters, time=time)
    legal = state.legal_actions(p)
    if len(legal) == 1:
        return Hint(p, [MoveStat(str(legal[0]), 0, float("nan"))], 0, state.players == 1)
    moves = agent.analyze(state, p)
    return Hint(p, moves, agent.last_iterations, state.players == 1)
