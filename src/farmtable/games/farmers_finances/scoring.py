"""Farmers Finances score sheet and tie-breaks (rulebook "Game End"; solo sheet "Solo Game End").

The score is money. With two or more players the richest player wins; on a tie the tied
players "sell all of their remaining cards (without the market-modification)" and compare
again; a tie after that is a shared win. Solo, the result is the money and the number on the
turn tracker, the number to beat next time.
"""

from __future__ import annotations

from collections.abc import Sequence

from farmtable.core import Result, rank_by
from farmtable.games.farmers_finances.components import GOAL_MONEY, SORTS, base_value

MONEY_LINE = "money"
"""The score sheet line that is the total: the coins on the money card."""
TIE_BREAK_LINE = "tie_break_cards_at_base_value"
"""A score sheet line NOT added to the total: what the farm's cards bring sold at base value (the tie rule)."""


def cards_at_base_value(hand: Sequence[int]) -> int:
    """What a farm's cards bring sold "without the market-modification": wheat 5, bread 7, animal 10 each.

    ``hand`` counts the cards in :data:`SORTS` order (wheat, bread, animal).
    """
    return sum(count * base_value(sort) for sort, count in zip(SORTS, hand, strict=True))


def score_sheet(
    money: Sequence[int],
    hands: Sequence[Sequence[int]],
    solo_turns: int | None = None,
    turn: int | None = None,
    immediate_winner: int | None = None,
) -> Result:
    """The result of a position: totals are money; the ranking applies the tie rule.

    ``hands[p]`` counts player p's cards (wheat, bread, animal). ``solo_turns`` is the turn
    tracker of a solo game (None with two or more players); ``turn`` is the multiplayer turn
    number, reported in ``details``.
    """
    totals = list(money)
    tie_values = [m + cards_at_base_value(h) for m, h in zip(money, hands, strict=True)]
    breakdown = [{MONEY_LINE: m, TIE_BREAK_LINE: cards_at_base_value(h)} for m, h in zip(money, hands, strict=True)]
    details: dict[str, object] = {
        "goal": GOAL_MONEY,
        "cards": [dict(zip(SORTS, h, strict=True)) for h in hands],
        "note": f"totals are money; '{TIE_BREAK_LINE}' is not added: it only breaks ties",
    }
    labels = {MONEY_LINE: "Money", TIE_BREAK_LINE: "Cards sold at base value (tie-break only, not added)"}
    details["labels"] = labels
    notes = [
        f"The total is the money; the goal is {GOAL_MONEY} coins.",
        "The cards' base value is not added: it only breaks a tie in money.",
    ]
    details["notes"] = notes
    if solo_turns is not None:
        notes.append(
            f"Solo: {'reached' if totals[0] >= GOAL_MONEY else 'not reached'} {GOAL_MONEY} coins "
            f"in {solo_turns} turns (fewer is better)."
        )
        details["turns"] = solo_turns
        details["goal_reached"] = totals[0] >= GOAL_MONEY
        # Solo Game End: "try to beat this number" -- fewer turns is better, whatever the money.
        return Result(totals, breakdown, [[0]], details, objective=-solo_turns)
    # Rulebook "Game End": most money wins; tied players compare money plus their cards sold at
    # base value; still tied = a shared win. The same keys order the places below first (DA-FF6).
    details["tie_break_values"] = tie_values
    labels["tie_break_values"] = "Money plus cards at base value (the tie-break)"
    if turn is not None:
        details["turn"] = turn
    keys = [(totals[p], tie_values[p]) for p in range(len(totals))]
    ranking = rank_by(keys)
    if immediate_winner is not None:
        # Variant player-two-wins-at-once: the literal Game End sentence puts player 2 first.
        rest = [[p for p in group if p != immediate_winner] for group in ranking]
        ranking = [[immediate_winner], *(g for g in rest if g)]
        notes.append(f"Player {immediate_winner + 1} reached {GOAL_MONEY} after his turn and wins at once.")
    return Result(totals, breakdown, ranking, details)
