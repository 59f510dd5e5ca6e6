"""The last takes of a two-player Farmini game, solved exactly.

Once the deck holds at most one card nothing is hidden any more: the cards face up, both farms
and the farmyard are on the table, and a single card left in the deck can only be that card
(rulebook, Gameplay: the players take turns until no card is left in the deck or on the table;
a wolf revealed is resolved at once). What is left is a small game of perfect information: at
most five takes, four or fewer cards to choose from at each.

:func:`take_values` plays that game out completely, each player taking the card best for it (a
minimax over the takes) and playing every taken card as the evaluation's lookahead would
(:func:`duel.finish_turn`: its best placement, its best free cell per token), and rates each card
``player`` may take now by the final result it leads to: a win (the scoring's winners, the
tiebreaker included) counts :data:`WIN` points, a shared win half, and the final margin in
points breaks ties between wins, and between losses. Cards of the same id are one choice.
The search checks the decision's CPU deadline (``core.clock``) at every position and raises
:class:`~farmtable.core.clock.OutOfTime` when it has passed (the caller keeps its other move).
"""

from __future__ import annotations

from typing import Any, Final

from farmtable.core import clock
from farmtable.games.farmini.rules import Discard, FarminiState, Take

MAX_DECK: Final = 1
"""The deck sizes at which nothing is hidden (0 or 1 card: its order is known)."""
WIN: Final = 1000.0
"""Points of a win in the rating (more than any margin), half of it for a shared win."""


def solvable(state: FarminiState) -> bool:
    """True when ``state`` is a two-player take decision with at most :data:`MAX_DECK` cards in the deck."""
    return state.players == 2 and state.pending is None and not state.is_over() and len(state.deck) <= MAX_DECK


def final_value(state: FarminiState, player: int) -> float:
    """The rating of a finished game for ``player``: :data:`WIN` for a win (half for a shared one), plus
    the final margin over the other player."""
    result = state.result()
    winners = result.winners
    share = (1.0 / len(winners)) if player in winners else 0.0
    return WIN * share + (result.totals[player] - result.totals[1 - player])


def win_share(value: float) -> float:
    """The win share (1, 0.5 or 0) inside a rating of :func:`final_value` (margins stay far below
    :data:`WIN`)."""
    return round(2.0 * value / WIN) / 2.0


def _card(state: FarminiState, action: Any) -> str:
    """The face-up card a take or discard ``action`` picks up."""
    assert isinstance(action, (Take, Discard))
    return state.table[action.slot - 1]


def _choices(state: FarminiState, mover: int) -> list[Any]:
    """The mover's legal takes (or discards), one per distinct card id (same card: same future)."""
    seen: set[str] = set()
    out: list[Any] = []
    for action in state.legal_actions(mover):
        cid = _card(state, action)
        if cid not in seen:
            seen.add(cid)
            out.append(action)
    return out


def _after(state: FarminiState, mover: int, action: Any) -> FarminiState:
    """A copy of ``state`` after ``mover`` takes ``action`` and finishes the turn (refill included)."""
    from farmtable.games.farmini.duel import finish_turn

    child = state.clone()
    child.apply(mover, action)
    finish_turn(child, mover)
    return child


def _value(state: FarminiState, player: int) -> float:
    clock.check()
    if state.is_over():
        return final_value(state, player)
    mover = state.current
    values = [_value(_after(state, mover, a), player) for a in _choices(state, mover)]
    return max(values) if mover == player else min(values)


def take_values(state: FarminiState, player: int) -> dict[Any, float]:
    """Each legal take (or discard) of ``player`` in ``state`` (:func:`solvable`) with the rating of the
    game's end under best play by both (see the module). Takes of a card of the same id share a value.
    Raises ``ValueError`` when the position is not solvable, ``OutOfTime`` past the clock's deadline."""
    if not solvable(state) or state.current != player:
        raise ValueError("farmini endgame: not a two-player take decision with at most one card in the deck")
    by_card: dict[str, float] = {}
    out: dict[Any, float] = {}
    for action in state.legal_actions(player):
        cid = _card(state, action)
        if cid not in by_card:
            by_card[cid] = _value(_after(state, player, action), player)
        out[action] = by_card[cid]
    return out


def best_take(state: FarminiState, player: int, prefer: Any = None) -> Any:
    """The take of best :func:`take_values` (ties: ``prefer`` if among the best, else the first legal)."""
    values = take_values(state, player)
    top = max(values.values())
    if prefer is not None and values.get(prefer, -float("inf")) >= top:
        return prefer
    return next(a for a in values if values[a] >= top)


__all__ = ["MAX_DECK", "WIN", "best_take", "final_value", "solvable", "take_values", "win_share"]
