"""How good a position is: the evaluation that the greedy agent and the search use.

``heuristic(state, player)`` rates the position for one player (higher is better; the greedy
agent's one-step lookahead). ``evaluate(state)`` estimates every player's final objective from
here, on the scale of the final result (``Result.totals``; solo: ``Result.solo_score``), so a
search can judge a cut-off position and a finished game alike.
"""

from __future__ import annotations

from farmtable.games.farmers_finances import components as c
from farmtable.games.farmers_finances.rules import (
    ANIMAL,
    HEURISTIC_WIN_BONUS,
    OVER,
    SOLO_TURN_COST,
    WHEAT,
    A,
    B,
    FarmersFinancesState,
    W,
)


def heuristic(state: FarmersFinancesState, player: int) -> float:
    """Money plus the cards at an estimated worth, minus the best opponent's; a won game counts big."""

    def worth(p: int) -> float:
        hand = state.hands[p]
        wheat = max(state.sell_price(WHEAT), c.BREAD_PRICE - 1)  # wheat can become bread next turn
        return state.money[p] + hand[W] * wheat + hand[B] * c.BREAD_PRICE + hand[A] * c.base_value(ANIMAL)

    if state.solo:
        # Solo is judged by the turns to 70 coins: every turn spent costs what a turn must earn on average.
        spent = SOLO_TURN_COST * state.turn
        return worth(0) - spent + (HEURISTIC_WIN_BONUS if state.phase == OVER else 0.0)
    mine = worth(player) - max(worth(q) for q in range(state.players) if q != player)
    if state.phase == OVER:
        mine += HEURISTIC_WIN_BONUS if player in state.result().winners else -HEURISTIC_WIN_BONUS
    return mine


def evaluate(state: FarmersFinancesState) -> list[float]:
    """Each player's final objective as it stands (a placeholder until a real estimate is fitted)."""
    result = state.result()
    if state.players == 1:
        return [float(result.solo_score)]
    return [float(t) for t in result.totals]
