"""farmtable: five small farm games on the screen, behind one game contract.

>>> import farmtable
>>> "farmers-finances" in farmtable.list_games()
True
"""

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
