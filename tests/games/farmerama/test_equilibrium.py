"""The zero-sum matrix-game solver (``equilibrium.py``) used for the two-player card choice."""

from __future__ import annotations

import math

import numpy as np
import pytest

from farmtable.games.farmerama.equilibrium import equilibrium, maximin


def test_matching_pennies_is_an_even_mix_worth_nothing() -> None:
    x, y, value = equilibrium([[1.0, -1.0], [-1.0, 1.0]])
    assert x == pytest.approx([0.5, 0.5])
    assert y == pytest.approx([0.5, 0.5])
    assert value == pytest.approx(0.0, abs=1e-9)


def test_rock_paper_scissors_plays_each_a_third() -> None:
    rps = [[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]
    x, y, value = equilibrium(rps)
    assert x == pytest.approx([1 / 3] * 3, abs=1e-6)
    assert y == pytest.approx([1 / 3] * 3, abs=1e-6)
    assert value == pytest.approx(0.0, abs=1e-9)


def test_a_dominated_row_gets_no_weight_and_the_value_is_the_saddle_point() -> None:
    # Row 0 beats row 1 in every column; the column player then takes column 1 (payoff 1 < 3).
    x, y, value = equilibrium([[3.0, 1.0], [2.0, 0.0]])
    assert x == pytest.approx([1.0, 0.0], abs=1e-9)
    assert y == pytest.approx([0.0, 1.0], abs=1e-9)
    assert value == pytest.approx(1.0)


def test_an_uneven_game_mixes_by_the_textbook_formula() -> None:
    # [[a, b], [c, d]] with no saddle point: x0 = (d - c) / (a - b - c + d), value (ad - bc) / (a - b - c + d).
    a, b, c, d = 4.0, -2.0, -1.0, 3.0
    x, y, value = equilibrium([[a, b], [c, d]])
    denominator = a - b - c + d
    assert x[0] == pytest.approx((d - c) / denominator)
    assert y[0] == pytest.approx((d - b) / denominator)
    assert value == pytest.approx((a * d - b * c) / denominator)


def test_the_strategy_guarantees_the_value_against_every_column() -> None:
    table = np.random.default_rng(3).normal(size=(10, 10))
    x, y, value = equilibrium(table)
    assert x.sum() == pytest.approx(1.0) and (x >= 0).all()
    assert (x @ table).min() == pytest.approx(value, abs=1e-7)
    assert (table @ y).max() == pytest.approx(value, abs=1e-7)


def test_a_single_row_is_played_for_sure() -> None:
    x, value = maximin([[2.0, -1.0, 5.0]])
    assert list(x) == [1.0]
    assert value == -1.0


@pytest.mark.parametrize(
    ("table", "word"),
    [([], "non-empty"), ([[]], "non-empty"), ([1.0, 2.0], "non-empty"), ([[1.0, math.nan]], "finite")],
)
def test_bad_tables_are_refused_clearly(table: list[object], word: str) -> None:
    with pytest.raises(ValueError, match=word):
        equilibrium(table)  # type: ignore[arg-type]
