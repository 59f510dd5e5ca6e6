"""How good a position is: the evaluation that the greedy agent and the search use.

``heuristic(state, player)`` rates the position for one player (higher is better; the greedy
agent's one-step lookahead). ``evaluate(state)`` estimates every player's final objective from
here, on the scale of the final result (``Result.totals``; solo: ``Result.solo_score``), so a
search can judge a cut-off position and a finished game alike.
"""

from __future__ import annotations

from farmtable.games.tiny_towns.rules import (
    HEURISTIC_PER_BUILDABLE,
    HEURISTIC_PER_BUILDING,
    PLACE,
    TinyTownsState,
)
from farmtable.games.tiny_towns.scoring import is_building


def heuristic(state: TinyTownsState, player: int) -> float:
    """Score lead, plus a little for each building and for each building the cubes could make now.

    A placement still hidden (the others have not all placed) is counted as if made, so a
    one-step lookahead can tell placements apart.
    """
    totals = state.result().totals
    town = state.towns[player]
    probe = town
    choice = town.choice
    if choice is not None and choice.verb == PLACE and not town.grid[choice.target]:
        probe = town.copy()
        probe.grid[choice.target] = choice.what
    buildable = {a.what for a in state._builds_of(probe)}
    buildings = sum(1 for v in town.grid if is_building(v))
    mine = totals[player] + HEURISTIC_PER_BUILDING * buildings + HEURISTIC_PER_BUILDABLE * len(buildable)
    if state.players == 1:
        return float(mine)
    return float(mine - max(t for q, t in enumerate(totals) if q != player))


def evaluate(state: TinyTownsState) -> list[float]:
    """Each player's final objective as it stands (a placeholder until a real estimate is fitted)."""
    result = state.result()
    if state.players == 1:
        return [float(result.solo_score)]
    return [float(t) for t in result.totals]
