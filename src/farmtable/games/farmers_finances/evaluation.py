"""How good a position is: the evaluation that the greedy agent and the search use.

``heuristic(state, player)`` rates the position for one player (higher is better; the greedy
agent's one-step lookahead). ``evaluate(state)`` estimates every player's final objective from
here, on the scale of the final result (``Result.totals``; solo: ``Result.objective``), so a
search can judge a cut-off position and a finished game alike.

Solo the estimate is exact: ``-(turn + expected further turns under optimal play)`` from the
solved game (:mod:`farmtable.games.farmers_finances.solver`). With 2–4 players it is each
player's expected final money (see :func:`expected_final_money`).
"""

from __future__ import annotations

from typing import Final

from farmtable.games.farmers_finances import components as c
from farmtable.games.farmers_finances.rules import (
    ACTION,
    ANIMAL,
    HEURISTIC_WIN_BONUS,
    OVER,
    WHEAT,
    A,
    B,
    FarmersFinancesState,
    W,
)
from farmtable.games.farmers_finances.solver import NEVER, solution_for

LEADER_WEIGHT: Final = 1.0
"""Multiplayer heuristic: how much the best rival's expected money counts against one's own."""


def card_worth(state: FarmersFinancesState, player: int) -> float:
    """Money plus the farm's cards at what they can fetch soon (wheat can become bread at 7)."""
    hand = state.hands[player]
    wheat = max(state.sell_price(WHEAT), c.BREAD_PRICE - 1)  # wheat can become bread next turn
    return state.money[player] + hand[W] * wheat + hand[B] * c.BREAD_PRICE + hand[A] * c.base_value(ANIMAL)


def solo_value(state: FarmersFinancesState) -> float:
    """Solo: ``-(turns so far + expected further turns under optimal play)``; ``Result.objective`` once over.

    A position from which 70 can never be reached (no coins, nothing to sell) counts
    :data:`NEVER` further turns, so the value stays a finite number.
    """
    if state.phase == OVER:
        return -float(state.turn)
    remaining = solution_for(state).remaining_turns(state)
    return -(state.turn + min(remaining, NEVER))


def solo_heuristic(state: FarmersFinancesState) -> float:
    """Solo, for a one-step lookahead: :func:`solo_value` with this turn's die roll averaged out.

    The greedy agent plays an action on one sampled world and looks at the position after it, which
    already shows the next turn's die. The row that die picked is luck, not the action's merit, so
    here a roll of 1-5 is replaced by the average over the five rows (a rolled 6 has sold the farm:
    that position is valued as it is). Over many positions this ranks actions nearly as the exact
    expectimax does (see docs/games/farmers-finances-solver.md).
    """
    if state.phase != ACTION or not 1 <= state.last_roll <= len(c.MARKET_ROWS):
        return solo_value(state)
    table = solution_for(state)
    rows = table.remaining[table.index[table.config_of(state)], :, state.money[0]]
    return -(state.turn + min(float(rows.mean()), NEVER))


def expected_final_money(state: FarmersFinancesState) -> list[float]:
    """Each player's expected final money (2–4 players): the money once over, else worth as it stands."""
    if state.phase == OVER:
        return [float(m) for m in state.money]
    return [card_worth(state, p) for p in range(state.players)]


def heuristic(state: FarmersFinancesState, player: int) -> float:
    """Solo: the solved value (higher = fewer turns); else expected money minus the best rival's, a win counts big."""
    if state.solo:
        return solo_heuristic(state)
    worth = expected_final_money(state)
    mine = worth[player] - LEADER_WEIGHT * max(worth[q] for q in range(state.players) if q != player)
    if state.phase == OVER:
        mine += HEURISTIC_WIN_BONUS if player in state.result().winners else -HEURISTIC_WIN_BONUS
    return mine


def evaluate(state: FarmersFinancesState) -> list[float]:
    """Each player's expected final objective: solo ``-turns`` (solved exactly), else expected final money."""
    if state.solo:
        return [solo_value(state)]
    return expected_final_money(state)
