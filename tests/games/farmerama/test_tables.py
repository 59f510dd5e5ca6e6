"""Farmerama's legal lists read made-once tables (issue 16); each table equals the rule it replaces."""

from __future__ import annotations

from farmtable.games.farmerama import rules as R
from farmtable.games.farmerama.components import (
    ANIMALS,
    AREA_COUNT,
    DISPLAY_SIZE,
    GOODS,
    SECTOR_COUNT,
    SECTOR_IS_HARVEST,
)


def test_wheel_tables_equal_the_sector_arithmetic() -> None:
    for wheel in range(3 * SECTOR_COUNT):  # the wheel counts turns; the tables read it mod 7
        w = wheel % SECTOR_COUNT
        harvest = [a for a in range(AREA_COUNT) if SECTOR_IS_HARVEST[R.sector_of_area(wheel, a)]]
        assert list(R.HARVEST_AREAS[w]) == harvest
        assert R.SOW_AREAS[w] == {crop: R.area_of_sector(wheel, s) for crop, s in R.SOW_CROP_SECTOR.items()}
        board = R.Board()
        board.wheel = wheel
        assert R.FarmeramaState._bar_area(board) == R.area_of_sector(wheel, R.BAR_AFTER_SECTOR)
    assert len(set(R.HARVEST_AREAS)) > 1  # the table really depends on the wheel


def test_action_tables_equal_their_notation() -> None:
    assert tuple(f"gain {g}" for g in GOODS) == R.GAIN_ACTIONS
    assert tuple(f"token {g}" for g in GOODS) == R.TOKEN_ACTIONS
    assert tuple(f"feed {a}" for a in ANIMALS) == R.FEED_ACTIONS
    assert tuple(f"take {slot}" for slot in range(1, DISPLAY_SIZE + 1)) == R.TAKE_ACTIONS
