"""The registry of games: ``list_games()`` and ``get_game(id)``.

Each package under :mod:`farmtable.games` registers its game when imported; the
registry imports them all the first time a game is asked for.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from farmtable.core.game import Game

_GAMES: dict[str, Game[Any]] = {}
_loaded = False


def register(game: Game[Any]) -> Game[Any]:
    """Add a game to the registry (called by each game package's ``__init__``)."""
    _GAMES[game.id] = game
    return game


def _load_all() -> None:
    global _loaded
    if _loaded:
        return
    import farmtable.games as games_pkg

    for info in pkgutil.iter_modules(games_pkg.__path__):
        if info.ispkg:
            importlib.import_module(f"farmtable.games.{info.name}")
    _loaded = True


def list_games() -> list[str]:
    """The ids of every game, sorted."""
    _load_all()
    return sorted(_GAMES)


def get_game(game_id: str) -> Game[Any]:
    """The game with this id; ``KeyError`` naming the known ids if there is none."""
    _load_all()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES))
        raise KeyError(f"no game '{game_id}'; the games are: {known}") from None
