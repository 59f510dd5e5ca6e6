"""The game contract shared by every farmtable game (see DESIGN.md)."""

from farmtable.core.errors import BadInput, CorruptSave, IllegalAction
from farmtable.core.game import Game, State, as_rng
from farmtable.core.history import History
from farmtable.core.registry import get_game, list_games, load_state, register
from farmtable.core.result import Result, rank_by
from farmtable.core.rng import Rng

__all__ = [
    "BadInput",
    "CorruptSave",
    "Game",
    "History",
    "IllegalAction",
    "Result",
    "Rng",
    "State",
    "as_rng",
    "get_game",
    "list_games",
    "load_state",
    "rank_by",
    "register",
]
