"""Farmini (Loki / IELLO 2018): fence cards, pens, animals and wolves, 1-4 players.

Registers the game; the rules are in :mod:`farmtable.games.farmini.rules`.
"""

from farmtable.core import register
from farmtable.games.farmini.rules import GAME, FarminiGame, FarminiState

register(GAME)

__all__ = ["GAME", "FarminiGame", "FarminiState"]
