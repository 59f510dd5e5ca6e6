"""Tiny Towns: every building and monument, the Cavern, Town Hall and solo (see docs/games/tiny-towns.md)."""

from farmtable.core import register
from farmtable.games.tiny_towns.rules import GAME

register(GAME)
