"""farmtable: five small farm games on the screen, behind one game contract.

>>> import farmtable
>>> "farmers-finances" in farmtable.list_games()
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from farmtable.core import (
        BadInput,
        CorruptSave,
        Game,
        IllegalAction,
        Result,
        State,
        get_game,
        list_games,
        load_state,
    )

__version__ = "0.1.0"

__all__ = [
    "BadInput",
    "CorruptSave",
    "Game",
    "IllegalAction",
    "Result",
    "State",
    "__version__",
    "get_game",
    "list_games",
    "load_state",
]


def __getattr__(name: str) -> Any:
    """The names above come from ``farmtable.core``, imported on first use (so ``farmtable --help``
    and ``import farmtable.cli`` stay light)."""
    if name in __all__:
        return getattr(importlib.import_module("farmtable.core"), name)
    raise AttributeError(f"module 'farmtable' has no attribute {name!r}")
