"""What the strongest AI level would play in a position, and how good it thinks each move is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import farmtable.agents
from farmtable.agents.ismcts import MoveStat
from farmtable.agents.levels import HINT_LEVEL, level_spec
from farmtable.agents.mcts import MctsAgent
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
        """The move the search would play."""
        return self.moves[0]


def hint(
    state: State[Any],
    player: int | None = None,
    iters: int | None = None,
    time: float | None = None,
    seed: int | None = 0,
) -> Hint:
    """Search the position for ``player`` (default: the first player to act) and return the advice.

    Without ``iters`` or ``time`` the search is the hint level's (``levels.HINT_LEVEL``, Expert) in
    this game at this player count (its per-game spec, ``levels.level_spec``).
    ``value`` is the search's reward of each move on its one 0-1 scale: with several players
    about the chance of winning, solo the objective against the position's own estimate.
    Raises ``ValueError`` if the game is over or ``player`` has no decision to make.
    """
    if state.is_over():
        raise ValueError("the game is over: there is nothing to decide")
    actors = state.actors()
    p = actors[0] if player is None else player
    if p not in actors:
        raise ValueError(f"player {p} has no decision now; waiting for " + ", ".join(f"player {a}" for a in actors))
    if iters is None and time is None:
        spec = level_spec(HINT_LEVEL, state.game.id, state.players)
    else:
        spec = "mcts:" + ",".join(f"{k}={v}" for k, v in (("iters", iters), ("time", time)) if v is not None)
    agent = farmtable.agents.make(spec, seed=seed)
    if not isinstance(agent, MctsAgent):
        raise TypeError(f"the hint level's spec {spec!r} is not a search agent")
    legal = state.legal_actions(p)
    if len(legal) == 1:
        return Hint(p, [MoveStat(str(legal[0]), 0, float("nan"))], 0, state.players == 1)
    moves = agent.analyze(state, p)
    return Hint(p, moves, agent.last_iterations, state.players == 1)
