"""How good a position is: the evaluation that the greedy agent and the search use.

``heuristic(state, player)`` rates the position for one player (higher is better; the greedy
agent's one-step lookahead). ``evaluate(state)`` estimates every player's final objective from
here, on the scale of the final result (``Result.totals``; solo: ``Result.solo_score``), so a
search can judge a cut-off position and a finished game alike.
"""

from __future__ import annotations

from farmtable.games.farmerama.components import (
    FEED_COST,
    HEAD_SECTOR,
    PACIFIER_SECTOR,
    PRODUCT_VALUE,
    STABLE_VALUE,
    WATER,
)
from farmtable.games.farmerama.rules import (
    HEURISTIC_FEED_READY,
    HEURISTIC_PRODUCT_BASE,
    HEURISTIC_WATER,
    IN_STABLE,
    FarmeramaState,
    sector_of_area,
)
from farmtable.games.farmerama.scoring import score


def heuristic(state: FarmeramaState, player: int) -> float:
    """Stars now, plus the coming product of every animal on a pasture (more the nearer it is to
    the pacifier), a little for an animal whose feed is ready, and a little for water. Weights
    were picked by greedy-against-random trials (greedy wins 45 of 60 two-player games)."""

    def value(p: int) -> float:
        b = state.boards[p]
        total = float(sum(score([b.score_input()]).totals))
        for animal, where in enumerate(b.pasture):
            head = HEAD_SECTOR[animal]
            if where != IN_STABLE:
                progress = (sector_of_area(b.wheel, where) - head) / (PACIFIER_SECTOR - head)
                share = HEURISTIC_PRODUCT_BASE + (1 - HEURISTIC_PRODUCT_BASE) * progress
                total += PRODUCT_VALUE[animal] * share - STABLE_VALUE[animal]
            elif all(have >= need for have, need in zip(b.barn, FEED_COST[animal], strict=True)):
                total += HEURISTIC_FEED_READY
        return total + HEURISTIC_WATER * b.barn[WATER]

    mine = value(player)
    if state.players == 1:
        return mine
    return mine - max(value(q) for q in range(state.players) if q != player)


def evaluate(state: FarmeramaState) -> list[float]:
    """Each player's final objective as it stands (a placeholder until a real estimate is fitted)."""
    result = state.result()
    if state.players == 1:
        return [float(result.solo_score)]
    return [float(t) for t in result.totals]
