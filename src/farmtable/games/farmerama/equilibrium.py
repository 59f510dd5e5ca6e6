"""Mixed strategies of a two-player zero-sum matrix game (the duel player's card-pair table).

Phase 1 of a two-player Farmerama round is a simultaneous choice: each player picks two of the five
action cards in secret. With a table of this player's expected final margin for each of its pairs
against each of the other's pairs (:func:`farmerama.duel.payoff`), the round's card choice is a
matrix game. Against an opponent whose choice is unknown, the sound answer is the game's maximin
mixed strategy: whatever the other chooses, its expected margin is at least the game's value. The
other side's minimax strategy is the opponent's most dangerous way to choose, which the duel player
can also fold into its model of the other.

Solved exactly as a linear program (``scipy.optimize.linprog``, HiGHS): for a table ``A`` (rows:
this player's choices, columns: the other's), maximise ``v`` subject to ``xᵀA ≥ v`` column by
column, ``Σx = 1``, ``x ≥ 0``; the column player's strategy is the dual (the same program on
``−Aᵀ``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import linprog

Matrix = Sequence[Sequence[float]] | NDArray[np.float64]


def _as_matrix(table: Matrix) -> NDArray[np.float64]:
    matrix = np.asarray(table, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] == 0 or matrix.shape[1] == 0:
        raise ValueError(f"a matrix game needs a non-empty table of rows and columns, got shape {matrix.shape}")
    if not np.all(np.isfinite(matrix)):
        raise ValueError("a matrix game's payoffs must all be finite numbers")
    return matrix


def maximin(table: Matrix) -> tuple[NDArray[np.float64], float]:
    """The row player's maximin mixed strategy of the zero-sum game ``table`` (row player's payoff)
    and the game's value: the strategy ``x`` maximising ``min_j Σ_i x_i·table[i][j]``.

    Raises ``ValueError`` for an empty, ragged or non-finite table."""
    matrix = _as_matrix(table)
    rows, cols = matrix.shape
    if rows == 1:
        return np.ones(1), float(matrix.min())
    # variables: x_1..x_rows, v. Minimise -v; for each column j: v - Σ_i x_i a_ij ≤ 0.
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    upper = np.hstack([-matrix.T, np.ones((cols, 1))])
    equal = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * rows + [(None, None)]
    result = linprog(cost, A_ub=upper, b_ub=np.zeros(cols), A_eq=equal, b_eq=[1.0], bounds=bounds, method="highs")
    if not result.success:  # pragma: no cover - a bounded feasible program always solves
        raise RuntimeError(f"the matrix game's linear program failed: {result.message}")
    x = np.clip(result.x[:rows], 0.0, None)
    x /= x.sum()
    return x, float((x @ matrix).min())


def equilibrium(table: Matrix) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
    """Both players' equilibrium strategies of the zero-sum game ``table`` (the row player's payoff;
    the column player's is its negative) and the game's value to the row player:
    ``(row strategy, column strategy, value)``."""
    matrix = _as_matrix(table)
    x, value = maximin(matrix)
    y, _ = maximin(-matrix.T)
    return x, y, value
