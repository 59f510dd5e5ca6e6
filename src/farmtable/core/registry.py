"""The registry of games: ``list_games()`` and ``get_game(id)``.

Each package under :mod:`farmtable.games` registers its game when imported; the
registry imports them all the first time a game is asked for.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from typing import Any

from farmtable.core.errors import CorruptSave
from farmtable.core.game import FORMAT_KEY, Game, State

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


def load_state(text: str | bytes) -> State[Any]:
    """Load a saved game of any game: the save names its game. Raises :class:`CorruptSave` if it can't."""
    try:
        envelope = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise CorruptSave(f"not a farmtable save: it is not valid JSON ({exc})") from None
    if not isinstance(envelope, dict) or FORMAT_KEY not in envelope:
        raise CorruptSave("not a farmtable save: the 'farmtable' format key is missing")
    game_id = envelope.get("game")
    if not isinstance(game_id, str):
        raise CorruptSave("not a farmtable save: it names no game")
    try:
        game = get_game(game_id)
    except KeyError as exc:
        raise CorruptSave(str(exc.args[0])) from None
    state: State[Any] = game.from_json(text)
    return state
