"""Hand-built Tiny Farms positions for scenario tests."""

from __future__ import annotations

from typing import Any

import farmtable
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms.helper import _parse_row
from farmtable.games.tiny_farms.rules import TinyFarmsState

EMPTY_ROWS = """
. . . . | . . . .
. . . . | . . . .
. . . . | . . . .
. . . . | . . . .
"""


def board(text: str = EMPTY_ROWS) -> list[int]:
    """A board from four typed rows 'red farm | blue farm' (scoring-helper spelling)."""
    rows = [_parse_row(line, n) for n, line in enumerate(text.strip().splitlines(), start=1)]
    assert len(rows) == c.FARM_SIDE
    red = [v for row in rows for v in row[: c.FARM_SIDE]]
    blue = [v for row in rows for v in row[c.FARM_SIDE :]]
    return red + blue


def new(players: int = 2, seed: int = 1, variants: tuple[str, ...] = ()) -> TinyFarmsState:
    """A fresh game."""
    state = farmtable.get_game("tiny-farms").new_game(players=players, seed=seed, variants=variants)
    assert isinstance(state, TinyFarmsState)
    return state


def position(players: int = 2, seed: int = 1, variants: tuple[str, ...] = (), **fields: Any) -> TinyFarmsState:
    """A fresh game with some fields overwritten (dice, red, blue, rotation, boards, milk, ...)."""
    state = new(players, seed, variants)
    for name, value in fields.items():
        if not hasattr(state, name):
            raise AttributeError(name)
        setattr(state, name, value)
    state._legal = None
    return state
