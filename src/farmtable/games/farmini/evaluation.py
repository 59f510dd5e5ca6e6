"""How good a position is: the evaluation that the greedy agent and the search use.

``heuristic(state, player)`` rates the position for one player (higher is better; the greedy
agent's one-step lookahead). ``evaluate(state)`` estimates every player's final objective from
here, on the scale of the final result (``Result.totals``; solo: ``Result.solo_score``), so a
search can judge a cut-off position and a finished game alike.
"""

from __future__ import annotations

from farmtable.games.farmini.rules import FarminiState
from farmtable.games.farmini.scoring import SOLO_PLAYERS


def heuristic(state: FarminiState, player: int) -> float:
    """How good ``player``'s position looks (for the greedy agent): higher is better.

    Per farm: the score as it stands, plus a little for animals safe in pens, minus a
    little for exposed ones (a wolf may come), plus a little for cornfields in open
    regions without animals (a pen may still close around them). The card the player
    to act has taken counts with its best placement, so that ``take N`` is judged by
    what the card can do. Several players: own value minus the best opponent's.
    """
    mine = state._player_value(player)
    if state.players == SOLO_PLAYERS:
        return mine
    return mine - max(state._player_value(q) for q in range(state.players) if q != player)


def evaluate(state: FarminiState) -> list[float]:
    """Each player's final objective as it stands (a placeholder until a real estimate is fitted)."""
    result = state.result()
    if state.players == 1:
        return [float(result.solo_score)]
    return [float(t) for t in result.totals]
