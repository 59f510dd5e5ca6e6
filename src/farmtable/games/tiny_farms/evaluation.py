"""How good a position is: the evaluation that the greedy agent and the search use.

``heuristic(state, player)`` rates the position for one player (higher is better; the greedy
agent's one-step lookahead). ``evaluate(state)`` estimates every player's final objective from
here, on the scale of the final result (``Result.totals``; solo: ``Result.solo_score``), so a
search can judge a cut-off position and a finished game alike.
"""

from __future__ import annotations

from farmtable.games.tiny_farms.rules import OPEN_SPACE_WEIGHT, TinyFarmsState


def heuristic(state: TinyFarmsState, player: int) -> float:
    """Score as it stands against the best rival (Emma when solo), plus a little for open pig/sheep pairs."""
    result = state.result()
    mine = float(result.totals[player])
    if state.solo:
        rival = float(result.details["emma_total"])
    else:
        rival = float(max(t for q, t in enumerate(result.totals) if q != player))
    return mine - rival + OPEN_SPACE_WEIGHT * state._open_space_bonus(player)


def evaluate(state: TinyFarmsState) -> list[float]:
    """Each player's final objective as it stands (a placeholder until a real estimate is fitted)."""
    result = state.result()
    if state.players == 1:
        return [float(result.solo_score)]
    return [float(t) for t in result.totals]
